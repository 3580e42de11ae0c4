// Ctrl-C for the long C++ loops that bindings run without the GIL (searches, self-play, the
// Connect Four solver): one InterruptPoll whose check asks Python for pending signals.
#pragma once

#include <pybind11/pybind11.h>

#include "search/interrupt.h"

namespace pyaz {

// The check takes the GIL, runs Python's signal handlers and throws their error (Ctrl-C:
// KeyboardInterrupt), which unwinds the loop and reaches Python when the binding returns.
inline InterruptPoll python_signal_poll() {
    return InterruptPoll([] {
        pybind11::gil_scoped_acquire gil;
        if (PyErr_CheckSignals() != 0) throw pybind11::error_already_set();
    });
}

}  // namespace pyaz
