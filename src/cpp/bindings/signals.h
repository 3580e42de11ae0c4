// Ctrl-C for the long C++ loops that bindings run without the GIL (searches, self-play, the
// Connect Four solver, perft and random playouts, the curling searches and batches): one
// InterruptPoll whose check asks Python for pending signals.
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

// Runs work(&poll) without the GIL, `poll` being a python_signal_poll() made on this thread;
// every binding that releases the GIL for more than a moment goes through here (or makes its
// own poll the same way), so that Ctrl-C stops it.
template <class Work>
decltype(auto) interruptible(Work&& work) {
    InterruptPoll interrupt = python_signal_poll();
    pybind11::gil_scoped_release release;
    return work(&interrupt);
}

}  // namespace pyaz
