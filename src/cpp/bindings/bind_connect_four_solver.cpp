// Python binding of the exact Connect Four solver (search/connect_four_solver.h). The state is
// checked and copied with the GIL held; the search runs without it and polls Ctrl-C
// (bindings/signals.h, as the searches do).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/signals.h"
#include "search/connect_four_solver.h"

namespace py = pybind11;

namespace pyaz {
namespace {

// One solver and the lock that makes calls from several Python threads wait for each other.
struct LockedSolver {
    explicit LockedSolver(std::size_t table_entries) : solver(table_entries) {}
    std::mutex mutex;
    ConnectFourSolver solver;
};

// A solver method as a Python method: the state is checked and copied with the GIL held, then
// `method` runs without it, Ctrl-C polled (python_signal_poll), so that a KeyboardInterrupt (or
// a signal handler's error) leaves the search and reaches Python.
template <class Result>
auto without_gil(Result (ConnectFourSolver::*method)(const ConnectFour&, InterruptPoll*)) {
    return [method](LockedSolver& locked, const ConnectFour& state) {
        ConnectFourSolver::check_solvable(state);
        const ConnectFour copy = state;
        InterruptPoll interrupt = python_signal_poll();
        py::gil_scoped_release release;
        std::lock_guard<std::mutex> lock(locked.mutex);
        return (locked.solver.*method)(copy, &interrupt);
    };
}

}  // namespace

void register_connect_four_solver(py::module_& m) {
    py::class_<LockedSolver>(
        m, "ConnectFourSolver",
        "Exact Connect Four solver for boards up to 7 columns x 6 rows (Pascal Pons' method: "
        "bitboards, negamax with alpha-beta over non-losing moves, a transposition table of "
        "bounds shared by mirror images, threat-count move ordering, null-window search for "
        "the exact score). Scores "
        "are for the side to move: 0 a draw; a win with the mover's k-th disc scores "
        "width*height//2 + 1 - k ((width*height + 1 - n)//2 when the winning disc is played "
        "after n discs), a loss the negative of the opponent's. The table (8 bytes an entry) "
        "is kept between calls. Calls from two threads wait for each other.")
        .def(py::init([](std::size_t table_entries) {
                 return std::make_unique<LockedSolver>(table_entries);
             }),
             py::kw_only(), py::arg("table_entries") = ConnectFourSolver::kDefaultTableEntries,
             "table_entries: transposition-table size (a prime spreads keys best; the default, "
             "8388593, is 64 MiB).")
        .def("solve", without_gil(&ConnectFourSolver::solve), py::arg("state"),
            "The exact score of the state for the side to move. ValueError for a board above 7 "
            "columns x 6 rows or a finished game; KeyboardInterrupt on Ctrl-C.")
        .def("value", without_gil(&ConnectFourSolver::value), py::arg("state"),
            "The game-theoretic value for the side to move: 1 a win, 0 a draw, -1 a loss, "
            "without the exact score (two null-window searches; about as long as solve() on the "
            "empty boards measured). Errors as solve().")
        .def("move_scores", without_gil(&ConnectFourSolver::move_scores), py::arg("state"),
            "For each column, the exact score after playing it, for the player who plays it "
            "(None for a full column). Errors as solve().")
        .def_property_readonly(
            "nodes", [](const LockedSolver& locked) { return locked.solver.nodes(); },
            "Nodes searched since construction or the last clear().")
        .def(
            "clear",
            [](LockedSolver& locked) {
                py::gil_scoped_release release;
                std::lock_guard<std::mutex> lock(locked.mutex);
                locked.solver.clear();
            },
            "Empties the transposition table and zeroes the node count.");
}

}  // namespace pyaz
