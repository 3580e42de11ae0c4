// The generic Python binding of a game: every game class gets the same members (see the game
// contract in games/othello.h). Argument checking happens here, so that the C++ games stay
// unchecked and fast; every error reaches Python as ValueError or TypeError naming the input.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <string>
#include <vector>

#include "bindings/args.h"
#include "bindings/signals.h"
#include "games/common.h"
#include "games/playouts.h"
#include "games/score.h"

namespace pyaz {
namespace binding_detail {

namespace py = pybind11;

template <class Game>
std::string describe_legal(const Game& state) {
    ActionList<Game::kMaxActions> actions;
    state.legal_actions(actions);
    std::string text;
    for (Action a : actions) text += (text.empty() ? "" : " ") + state.action_to_string(a);
    return text.empty() ? "none" : text;
}

template <class Game>
void check_legal(const Game& state, Action action) {
    if (state.is_legal(action)) return;
    if (is_terminal(state.status())) {
        fail("the game is over (" + status_line(state.status(), state.to_move()) +
             "); no action can be applied");
    }
    if (action < 0 || action >= state.num_actions()) {
        fail("action " + std::to_string(action) + " is out of range 0.." +
             std::to_string(state.num_actions() - 1));
    }
    fail("illegal action " + std::to_string(action) + " (" + state.action_to_string(action) +
         ") for " + (state.to_move() == 0 ? "X" : "O") + "; legal: " + describe_legal(state));
}

// An int action argument: TypeError unless an integer (a float such as numpy.float32(1.7) is
// never truncated), ValueError naming it when it is not in 0..num_actions-1.
template <class Game>
Action action_arg(const Game& state, const py::handle& action) {
    const py::int_ number = args::python_int(action, "action");
    if (number < py::int_(0) || number >= py::int_(state.num_actions())) {
        fail("action " + args::repr_text(number) + " is out of range 0.." + std::to_string(state.num_actions() - 1));
    }
    return number.cast<Action>();
}

template <class Game>
Action action_from_object(const Game& state, const py::handle& move) {
    if (py::isinstance<py::str>(move)) return state.parse_action(move.cast<std::string>());
    if (py::isinstance<py::bool_>(move) || !py::hasattr(move, "__index__")) {
        throw py::type_error("a move must be an int action or a str such as '" +
                             state.action_to_string(0) + "', got " +
                             std::string(py::str(py::type::of(move))));
    }
    return action_arg(state, move);
}

// Applies a move list (a string of tokens, or a sequence of ints/strs) to a copy of the state,
// and commits it only if every move was legal.
template <class Game>
void play_moves(Game& state, const py::object& moves) {
    std::vector<py::object> items;
    if (py::isinstance<py::bytes>(moves) || py::isinstance<py::bytearray>(moves) || !py::isinstance<py::iterable>(moves)) {
        throw py::type_error("moves must be a str such as '" + state.action_to_string(0) +
                             "' or a sequence of moves, got " + args::repr_text(moves));
    }
    if (py::isinstance<py::str>(moves)) {
        for (const auto& token : split_moves(moves.cast<std::string>())) items.push_back(py::str(token));
    } else {
        for (const auto& item : moves) items.push_back(py::reinterpret_borrow<py::object>(item));
    }
    Game copy = state;
    for (std::size_t i = 0; i < items.size(); ++i) {
        try {
            const Action action = action_from_object(copy, items[i]);
            check_legal(copy, action);
            copy.apply(action);
        } catch (const std::invalid_argument& e) {
            fail("move " + std::to_string(i + 1) + " of the list: " + e.what());
        }
    }
    state = copy;
}

template <class Game>
py::array_t<float> encode_array(const Game& state) {
    py::array_t<float> planes({state.num_planes(), state.height(), state.width()});
    state.encode(planes.mutable_data());
    return planes;
}

template <class Game>
py::array_t<std::int8_t> board_array(const Game& state) {
    py::array_t<std::int8_t> board({state.height(), state.width()});
    auto view = board.template mutable_unchecked<2>();
    for (int r = 0; r < state.height(); ++r) {
        for (int c = 0; c < state.width(); ++c) view(r, c) = state.cell(r, c);
    }
    return board;
}

template <class Game>
py::array_t<bool> legal_mask_array(const Game& state) {
    py::array_t<bool> mask(state.num_actions());
    bool* data = mask.mutable_data();
    std::fill(data, data + state.num_actions(), false);
    ActionList<Game::kMaxActions> actions;
    state.legal_actions(actions);
    for (Action a : actions) data[a] = true;
    return mask;
}

// Binds the shared members of `Game` as class `class_name`, plus module-level perft and
// random_playouts overloads for it; returns the class for game-specific additions.
template <class Game>
py::class_<Game> bind_game(py::module_& m, const char* class_name, const char* doc) {
    py::class_<Game> cls(m, class_name, doc);
    cls.def_property_readonly("name", [](const Game&) { return std::string(Game::kName); })
        .def_property_readonly(
            "has_score", [](const Game&) { return kGameHasScore<Game>; },
            "Whether self-play records a final score margin (Othello, Go) beside the outcome.")
        .def_property_readonly("num_actions", &Game::num_actions, "Size of the action space.")
        .def_property_readonly("board_shape",
                               [](const Game& s) { return py::make_tuple(s.height(), s.width()); })
        .def_property_readonly(
            "planes_shape",
            [](const Game& s) { return py::make_tuple(s.num_planes(), s.height(), s.width()); },
            "Shape (C, H, W) of encode().")
        .def_property_readonly("ply", &Game::ply, "Number of actions applied so far.")
        .def(
            "legal_actions",
            [](const Game& s) {
                ActionList<Game::kMaxActions> actions;
                s.legal_actions(actions);
                return actions.to_vector();
            },
            "Legal actions, ascending; empty when the game is over.")
        .def("legal_mask", &legal_mask_array<Game>, "Boolean mask over the action space.")
        .def(
            "is_legal",
            [](const Game& s, const args::IndexArg& a) {
                const py::int_ number = args::python_int(a.value, "action");
                return number >= py::int_(0) && number < py::int_(s.num_actions()) &&
                       s.is_legal(number.cast<Action>());
            },
            py::arg("action"))
        .def(
            "apply",
            [](Game& s, const args::IndexArg& action) {
                const Action a = action_arg(s, action.value);
                check_legal(s, a);
                s.apply(a);
            },
            py::arg("action"), "Applies a legal action in place; ValueError if it is illegal or the game is over.")
        .def(
            "child",
            [](const Game& s, const args::IndexArg& action) {
                const Action a = action_arg(s, action.value);
                check_legal(s, a);
                Game next = s;
                next.apply(a);
                return next;
            },
            py::arg("action"), "A new state with the action applied; this one is unchanged.")
        .def(
            "play", [](Game& s, const py::object& moves) -> Game& { play_moves(s, moves); return s; },
            py::arg("moves"), py::return_value_policy::reference_internal,
            "Applies a move list (a string such as 'd3 c3' or a sequence of ints/strs); all or "
            "nothing: on an illegal move the state is unchanged and ValueError names the move.")
        .def("status", &Game::status)
        .def("is_terminal", [](const Game& s) { return is_terminal(s.status()); })
        .def("to_move", &Game::to_move, "0: the first player (X, Black); 1: the second (O, White).")
        .def("encode", &encode_array<Game>,
             "Network input, float32 (C, H, W), from the side to move's point of view.")
        .def("board", &board_array<Game>,
             "int8 (H, W): 0 empty, 1 first player, 2 second player; row 0 is the top.")
        .def("clone", [](const Game& s) { return s; })
        .def("__copy__", [](const Game& s) { return s; })
        .def("__deepcopy__", [](const Game& s, const py::dict&) { return s; }, py::arg("memo"))
        .def("__str__", &Game::to_string)
        .def("__repr__",
             [](const Game& s) {
                 return "<pyaz." + std::string(Game::kName) + " " + std::to_string(s.height()) + "x" +
                        std::to_string(s.width()) + " ply " + std::to_string(s.ply()) + ", " +
                        status_line(s.status(), s.to_move()) + ">";
             })
        .def(
            "action_to_str", [](const Game& s, const args::IndexArg& a) { return s.action_to_string(action_arg(s, a.value)); },
            py::arg("action"))
        .def("str_to_action", &Game::parse_action, py::arg("text"));
    m.def(
        "perft",
        [](const Game& s, int depth, bool count_finished) {
            if (depth < 0) fail("perft depth must be >= 0, got " + std::to_string(depth));
            return interruptible([&](InterruptPoll* interrupt) { return perft(s, depth, count_finished, interrupt); });
        },
        py::arg("state"), py::arg("depth"), py::arg("count_finished") = false);
    m.def(
        "random_playouts",
        [](const Game& s, std::int64_t games, std::uint64_t seed) {
            if (games < 0) fail("the number of playouts must be >= 0, got " + std::to_string(games));
            const PlayoutCounts counts = interruptible(
                [&](InterruptPoll* interrupt) { return random_playouts(s, games, seed, interrupt); });
            return py::make_tuple(counts.wins, counts.draws, counts.losses);
        },
        py::arg("state"), py::arg("games"), py::arg("seed") = 0);
    m.def(
        "random_game_lengths",
        [](const Game& s, std::int64_t games, std::uint64_t seed) {
            if (games < 0) fail("the number of games must be >= 0, got " + std::to_string(games));
            const std::vector<std::int32_t> lengths = interruptible(
                [&](InterruptPoll* interrupt) { return random_game_lengths(s, games, seed, interrupt); });
            return py::array_t<std::int32_t>(static_cast<py::ssize_t>(lengths.size()), lengths.data());
        },
        py::arg("state"), py::arg("games"), py::arg("seed") = 0,
        "Lengths in plies of `games` uniformly random games from `state`.");
    return cls;
}

// Adds action_to_coord / coord_to_action for games on an n x n grid with actions r*n + c.
template <class Game>
void bind_grid_coordinates(py::class_<Game>& cls) {
    cls.def(
           "action_to_coord",
           [](const Game& s, Action a) {
               if (a < 0 || a >= s.size() * s.size()) {
                   fail("action " + std::to_string(a) + " is not a board square");
               }
               return py::make_tuple(a / s.size(), a % s.size());
           },
           py::arg("action"), "(row, col) of a board action; row 0 is the top.")
        .def(
            "coord_to_action",
            [](const Game& s, int row, int col) {
                if (row < 0 || row >= s.size() || col < 0 || col >= s.size()) {
                    fail("(" + std::to_string(row) + ", " + std::to_string(col) + ") is off the board");
                }
                return row * s.size() + col;
            },
            py::arg("row"), py::arg("col"));
}

}  // namespace binding_detail

using binding_detail::bind_game;
using binding_detail::bind_grid_coordinates;

}  // namespace pyaz
