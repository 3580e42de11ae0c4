// Python bindings of Othello, Connect Four and Gomoku: the generic binder (bind_game.h) plus
// each game's constructor and extras.
#include <pybind11/pybind11.h>

#include <string>

#include "bindings/bind_game.h"
#include "bindings/bindings.h"
#include "games/connect_four.h"
#include "games/gomoku.h"
#include "games/othello.h"

namespace py = pybind11;

namespace pyaz {

void register_games(py::module_& m) {
    py::enum_<Status>(m, "Status", "Game outcome, or ONGOING.")
        .value("ONGOING", Status::kOngoing)
        .value("DRAW", Status::kDraw)
        .value("FIRST_PLAYER_WIN", Status::kFirstPlayerWin)
        .value("SECOND_PLAYER_WIN", Status::kSecondPlayerWin);

    auto othello = bind_game<Othello>(
        m, "Othello",
        "Othello/Reversi on an n x n board (4..8). Actions r*n + c; n*n is the pass, legal only "
        "when the side to move has no placement. Odd sizes put the start block on rows/columns "
        "n//2-1 and n//2.");
    othello.def(py::init<int>(), py::arg("size") = 8)
        .def_property_readonly("size", &Othello::size)
        .def_property_readonly("pass_action", &Othello::pass_action)
        .def("disc_count", &Othello::disc_count, py::arg("player"))
        .def_static("from_text", &Othello::from_text, py::arg("text"),
                    "Parses a board (str() output or rows of '.XO'); 'O to move' in the text sets "
                    "the side, otherwise X (Black) is to move.");
    bind_grid_coordinates(othello);

    auto connect_four = bind_game<ConnectFour>(
        m, "ConnectFour",
        "Connect Four, width x height with width*(height+1) <= 64. Actions are columns 0..width-1.");
    connect_four.def(py::init<int, int>(), py::arg("width") = 7, py::arg("height") = 6)
        .def_static("from_text", &ConnectFour::from_text, py::arg("text"));

    auto gomoku = bind_game<Gomoku>(
        m, "Gomoku",
        "Gomoku/Gobang on an n x n board (5..15); line_length in a row wins; with "
        "overline_wins=False only exactly line_length wins.");
    gomoku.def(py::init<int, int, bool>(), py::arg("size") = 15, py::arg("line_length") = 5,
               py::arg("overline_wins") = true)
        .def_property_readonly("size", &Gomoku::size)
        .def_property_readonly("line_length", &Gomoku::line_length)
        .def_property_readonly("overline_wins", &Gomoku::overline_wins)
        .def_property_readonly("last_action",
                               [](const Gomoku& s) -> py::object {
                                   if (s.last_action() == kNoAction) return py::none();
                                   return py::int_(s.last_action());
                               })
        .def_static("from_text", &Gomoku::from_text, py::arg("text"), py::arg("line_length") = 5,
                    py::arg("overline_wins") = true);
    bind_grid_coordinates(gomoku);
}

}  // namespace pyaz
