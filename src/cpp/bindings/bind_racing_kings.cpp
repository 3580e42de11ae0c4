// Python binding of Racing Kings: the generic binder (bind_game.h) plus FEN, UCI and the reason a
// game ended.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bindings/bind_game.h"
#include "bindings/bindings.h"
#include "games/racing_kings.h"

namespace py = pybind11;

namespace pyaz {
namespace {

std::vector<std::string> legal_uci(const RacingKings& state) {
    ActionList<RacingKings::kMaxActions> actions;
    state.legal_actions(actions);
    std::vector<std::string> moves;
    for (Action a : actions) moves.push_back(state.action_to_string(a));
    return moves;
}

Action push_uci(RacingKings& state, const std::string& uci) {
    const Action action = state.parse_action(uci);
    binding_detail::check_legal(state, action);
    state.apply(action);
    return action;
}

py::array_t<std::int8_t> piece_board(const RacingKings& state) {
    py::array_t<std::int8_t> board({8, 8});
    auto view = board.mutable_unchecked<2>();
    for (int row = 0; row < 8; ++row) {
        for (int col = 0; col < 8; ++col) {
            view(row, col) = static_cast<std::int8_t>(state.piece_at(chess::make_square(col, 7 - row)));
        }
    }
    return board;
}

}  // namespace

void register_racing_kings(py::module_& m) {
    py::enum_<RacingKingsTermination>(m, "RacingKingsTermination", "Why a Racing Kings game ended.")
        .value("NONE", RacingKingsTermination::kNone, "the game is still going")
        .value("GOAL", RacingKingsTermination::kGoal,
               "a king reached the 8th rank and won (White's only when Black could not answer)")
        .value("GOAL_DRAW", RacingKingsTermination::kGoalDraw,
               "White reached the 8th rank and Black answered by reaching it too")
        .value("STALEMATE", RacingKingsTermination::kStalemate)
        .value("FIFTY_MOVES", RacingKingsTermination::kFiftyMoves,
               "100 plies without a capture (automatic)")
        .value("THREEFOLD_REPETITION", RacingKingsTermination::kThreefoldRepetition,
               "the position occurred for the third time (automatic)");

    auto cls = bind_game<RacingKings>(
        m, "RacingKings",
        "Racing Kings (lichess rules): no move may give check; the first king on the 8th rank "
        "wins, but Black draws by answering White's arrival with its own. Stalemate, the 50-move "
        "rule and threefold repetition are automatic draws. Actions: from * 64 + to (a1 = 0, "
        "h8 = 63), then 88 promotion slots that never occur (4184 in all).");
    cls.def(py::init<const std::string&>(), py::arg("start") = "standard",
            "start: 'standard', 'racingkings-mod' (seed 000's modified start; also 'mod') or a FEN.")
        .def_readonly_static("STANDARD_FEN", &RacingKings::kStartFen)
        .def_readonly_static("MOD_FEN", &RacingKings::kModStartFen)
        .def_static("from_fen", &RacingKings::from_fen, py::arg("fen"),
                    "Parses a FEN; ValueError if it is malformed or the position is impossible.")
        .def_static("from_text", &RacingKings::from_text, py::arg("text"),
                    "Parses a FEN, or text with a 'FEN: ...' line (the str() output).")
        .def("fen", &RacingKings::fen)
        .def("termination", &RacingKings::termination, "Why the game ended (NONE while it goes on).")
        .def_property_readonly("halfmove_clock", &RacingKings::halfmove_clock,
                               "Plies since the last capture (the 50-move rule's counter).")
        .def_property_readonly("fullmove_number", &RacingKings::fullmove_number)
        .def_property_readonly("key", &RacingKings::key, "Zobrist key of the position.")
        .def("uci", &RacingKings::action_to_string, py::arg("action"), "UCI text of an action.")
        .def("parse_uci", &RacingKings::parse_action, py::arg("uci"),
             "The action of a UCI move (legality not checked); ValueError on bad text.")
        .def("push_uci", &push_uci, py::arg("uci"),
             "Applies a legal UCI move in place and returns its action; ValueError otherwise.")
        .def("legal_uci", &legal_uci, "Legal moves as UCI text, in action order.")
        .def("piece_board", &piece_board,
             "int8 (8, 8), row 0 = 8th rank: python-chess piece types (2 knight .. 6 king), "
             "positive for White, negative for Black, 0 empty.")
        .def(
            "piece_at",
            [](const RacingKings& s, int square) {
                if (square < 0 || square > 63) fail("square " + std::to_string(square) + " is not in 0..63");
                return s.piece_at(square);
            },
            py::arg("square"), "Piece on a square (a1 = 0); see piece_board().");
}

}  // namespace pyaz
