#include <pybind11/pybind11.h>

#include "bindings/bindings.h"

PYBIND11_MODULE(_core, m) {
    m.doc() = "pyaz C++ core: game rules, perft, random playouts and tree search.";
    // Classes before the functions that take them, so that signatures name Python types.
    pyaz::register_games(m);
    pyaz::register_racing_kings(m);
    pyaz::register_search(m);
    pyaz::register_curling(m);
    pyaz::register_gomoku_mentor(m);
    pyaz::register_policy_play(m);
    pyaz::register_connect_four_solver(m);
}
