// Registration functions, one per area of the Python module.
#pragma once

#include <pybind11/pybind11.h>

namespace pyaz {

void register_games(pybind11::module_& m);
void register_search(pybind11::module_& m);
void register_racing_kings(pybind11::module_& m);
void register_curling(pybind11::module_& m);
void register_gomoku_mentor(pybind11::module_& m);
void register_policy_play(pybind11::module_& m);
void register_connect_four_solver(pybind11::module_& m);

}  // namespace pyaz
