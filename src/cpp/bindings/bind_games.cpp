// Python bindings of Othello, Connect Four, Gomoku, Go and tic-tac-toe: the generic binder
// (bind_game.h) plus each game's constructor and extras.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>
#include <vector>

#include "bindings/bind_game.h"
#include "bindings/bindings.h"
#include "games/connect_four.h"
#include "games/go.h"
#include "games/gomoku.h"
#include "games/othello.h"
#include "games/tictactoe.h"

namespace py = pybind11;

namespace pyaz {
namespace {

GoRules go_rules(std::optional<double> komi, bool superko, bool allow_suicide,
                 std::optional<int> max_game_length, int history) {
    GoRules rules;
    rules.history = history;
    rules.komi = komi;
    rules.superko = superko;
    rules.allow_suicide = allow_suicide;
    rules.max_game_length = max_game_length;
    return rules;
}

// Setup points given as int actions or vertex names.
std::vector<Action> go_points(const Go& state, const py::iterable& points) {
    std::vector<Action> actions;
    for (const auto& point : points) {
        actions.push_back(binding_detail::action_from_object(state, point));
    }
    return actions;
}

void register_go(py::module_& m) {
    auto go = bind_game<Go>(
        m, "Go",
        "Go on an n x n board (5..19) with Tromp-Taylor area scoring. Actions r*n + c (row 0 at "
        "the top), n*n is the pass; moves as text are GTP vertices ('D4': column letters without "
        "I, row numbers from 1 at the bottom) or 'pass'. Suicide is illegal unless "
        "allow_suicide (then multi-stone suicide is legal); simple ko always; superko=True adds "
        "positional superko. Two consecutive passes, or max_game_length actions (default "
        "3*n*n), end the game. komi defaults to 7.5 from 9x9 up and 0 below. encode() gives "
        "own, opponent, empty and Black-to-move planes, then own/opponent planes for each of "
        "`history` earlier positions.");
    go.def(py::init([](int size, std::optional<double> komi, bool superko, bool allow_suicide,
                       std::optional<int> max_game_length, int history) {
               return Go(size, go_rules(komi, superko, allow_suicide, max_game_length, history));
           }),
           py::arg("size") = 9, py::arg("komi") = py::none(), py::arg("superko") = false,
           py::arg("allow_suicide") = false, py::arg("max_game_length") = py::none(),
           py::arg("history") = 0)
        .def_property_readonly("size", &Go::size)
        .def_property_readonly("komi", &Go::komi)
        .def_property_readonly("superko", &Go::superko, "Positional superko in force.")
        .def_property_readonly("allow_suicide", &Go::allow_suicide)
        .def_property_readonly("max_game_length", &Go::max_game_length,
                               "Actions (passes included) after which the game is scored.")
        .def_property_readonly("history", &Go::history,
                               "Earlier positions in encode() (two planes each, 0..7).")
        .def_property_readonly("pass_action", &Go::pass_action)
        .def_property_readonly("passes", &Go::consecutive_passes,
                               "Consecutive passes just played (two end the game).")
        .def_property_readonly(
            "captures", [](const Go& s) { return py::make_tuple(s.captures(0), s.captures(1)); },
            "(stones captured by Black, by White); suicided stones count for the opponent.")
        .def_property_readonly(
            "ko_action",
            [](const Go& s) -> py::object {
                if (s.ko_action() == kNoAction) return py::none();
                return py::int_(s.ko_action());
            },
            "The point that simple ko forbids to the side to move, or None.")
        .def_property_readonly("board_hash", &Go::board_hash,
                               "Zobrist hash of the stones (the key of positional superko).")
        .def("score", &Go::score,
             "Tromp-Taylor area score now: Black's area minus White's minus komi.")
        .def(
            "area", [](const Go& s) { auto a = s.area(); return py::make_tuple(a[0], a[1]); },
            "(Black, White) Tromp-Taylor area: stones plus empty regions reaching only that colour.")
        .def("action_to_vertex", &Go::action_to_string, py::arg("action"),
             "GTP vertex of an action: 'D4' or 'pass'.")
        .def("vertex_to_action", &Go::parse_action, py::arg("vertex"),
             "Action of a GTP vertex ('D4', case-insensitive) or 'pass'.")
        .def(
            "with_stones",
            [](const Go& s, const py::iterable& black, const py::iterable& white, int to_move) {
                return s.with_stones(go_points(s, black), go_points(s, white), to_move);
            },
            py::arg("black"), py::arg("white") = py::list(), py::arg("to_move") = 0,
            "A start position with these rules and only the given stones (actions or vertices), "
            "`to_move` (0 Black, 1 White) to play; ValueError on overlaps or chains without "
            "liberties.")
        .def_static(
            "from_text",
            [](const std::string& text, std::optional<double> komi, bool superko,
               bool allow_suicide, std::optional<int> max_game_length, int history) {
                return Go::from_text(
                    text, go_rules(komi, superko, allow_suicide, max_game_length, history));
            },
            py::arg("text"), py::arg("komi") = py::none(), py::arg("superko") = false,
            py::arg("allow_suicide") = false, py::arg("max_game_length") = py::none(),
            py::arg("history") = 0,
            "Parses a board (str() output or rows of '.XO'); 'O to move' in the text sets the "
            "side, otherwise Black is to move.")
        .def_static("default_komi", &Go::default_komi, py::arg("size"))
        .def_static("default_max_game_length", &Go::default_max_game_length, py::arg("size"));
    bind_grid_coordinates(go);
}

Gomoku gomoku_from_planes(const py::array_t<float, py::array::c_style | py::array::forcecast>& planes,
                          int line_length, bool overline_wins) {
    if (planes.ndim() != 3 || planes.shape(0) < 2 || planes.shape(1) != planes.shape(2)) {
        fail("Gomoku.from_planes takes a network input of shape (planes >= 2, n, n), got shape " +
             std::string(py::str(planes.attr("shape"))));
    }
    return Gomoku::from_planes(planes.data(), static_cast<int>(planes.shape(1)), line_length, overline_wins);
}

}  // namespace

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
                    py::arg("overline_wins") = true)
        .def_static("from_planes", &gomoku_from_planes, py::arg("planes"), py::arg("line_length") = 5,
                    py::arg("overline_wins") = true,
                    "The position of a network input (encode()'s planes, (C >= 2, n, n)): plane 0 the "
                    "side to move's stones, plane 1 the opponent's (a stone above 0.5); X has as many "
                    "stones as O, or one more. The last move is not restored. ValueError for another "
                    "shape or a position no game reaches.");
    bind_grid_coordinates(gomoku);

    register_go(m);

    auto tictactoe = bind_game<TicTacToe>(
        m, "TicTacToe",
        "Tic-tac-toe in C++, registered as 'tictactoe_cpp': the tutorial's game written in Python "
        "(pyaz.games.examples.tictactoe, registered as 'tictactoe') ported for speed, with the same "
        "actions, moves and planes. Actions are the cells r*3 + c from the top left, written 'a1' "
        "(top left) to 'c3'; X moves first.");
    tictactoe.def(py::init<>())
        .def_property_readonly("size", &TicTacToe::size)
        .def_static("from_text", &TicTacToe::from_text, py::arg("text"),
                    "Parses a board (str() output or three rows of '.XO'); the mark counts say "
                    "who is to move.");
    bind_grid_coordinates(tictactoe);
}

}  // namespace pyaz
