// Tic-tac-toe on a 3x3 board: the tutorial's Python game (src/pyaz/games/examples/tictactoe.py)
// ported to C++ (docs/tutorial-python-game.md, "The same game in C++"). Actions are the cells
// 0..8, r*3 + c row by row from the top left, written 'a1' (top left) to 'c3' (column letter,
// row number from the top); X (player 0) moves first; three in a row wins; a full board is a draw.
// Each side's marks are nine bits of a 16-bit word (bit r*3 + c).
#pragma once

#include <cstdint>
#include <string>

#include "core/bitboard.h"
#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

class TicTacToe {
public:
    static constexpr int kSide = 3;
    static constexpr int kCells = kSide * kSide;
    static constexpr int kMaxActions = kCells;
    static constexpr int kNumPlanes = 2;
    static constexpr const char* kName = "tictactoe_cpp";

    int size() const { return kSide; }
    int height() const { return kSide; }
    int width() const { return kSide; }
    int num_actions() const { return kCells; }
    int num_planes() const { return kNumPlanes; }

    Status status() const { return status_; }
    int to_move() const { return ply_ % 2; }
    int ply() const { return ply_; }

    int num_legal_actions() const { return is_terminal(status_) ? 0 : kCells - ply_; }
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    // The empty cell drawn as rng.below(count) in action order (the Python game's draw).
    Action random_action(Rng& rng) const;
    void apply(Action action);  // a legal action (unchecked: the bindings check)
    void apply_random(Rng& rng) { apply(random_action(rng)); }

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        for (Bitboard b = empty_cells(); b;) {
            TicTacToe child = *this;
            child.apply(pop_lowest_bit(b));
            visit(child);
        }
    }

    // Network input, 2 x 3 x 3 floats: the side to move's marks, then the opponent's.
    void encode(float* out) const;
    Cell cell(int row, int col) const;

    std::string to_string() const;
    std::string action_to_string(Action action) const;
    Action parse_action(const std::string& text) const;
    // Parses a board (str() output or three rows of '.XO'); the mark counts say who is to
    // move, and 'X to move' / 'O to move' in the text must agree with them.
    static TicTacToe from_text(const std::string& text);

private:
    static constexpr Bitboard kBoard = (Bitboard{1} << kCells) - 1;

    Bitboard empty_cells() const { return kBoard & ~(marks_[0] | marks_[1]); }
    static bool has_line(Bitboard marks);
    static Status status_of(Bitboard first, Bitboard second);

    Bitboard marks_[2] = {0, 0};  // X's and O's cells, bit r*3 + c
    std::int8_t ply_ = 0;
    Status status_ = Status::kOngoing;
};

}  // namespace pyaz
