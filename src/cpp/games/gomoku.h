// Gomoku / Gobang on an n x n board, 5 <= n <= 15, on two 256-bit bitboards with 16-cell rows:
// cells beyond the board are always empty, so the spare column and row stop every line at the
// edge and a line walk only has to stay inside the 256 bits. Actions are r*n + c.
// `line_length` stones in a row win (5 for free-style Gomoku, 4 for seed 001's small Gobang);
// with `overline_wins` false only a line of exactly that length wins. A full board is a draw.
#pragma once

#include <string>
#include <vector>

#include "core/bitboard256.h"
#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

class Gomoku {
public:
    static constexpr int kMinSize = 5;
    static constexpr int kMaxSize = 15;
    static constexpr int kMaxActions = kMaxSize * kMaxSize;
    static constexpr int kNumPlanes = 3;
    static constexpr const char* kName = "gomoku";

    explicit Gomoku(int size = 15, int line_length = 5, bool overline_wins = true);

    int size() const { return size_; }
    int height() const { return size_; }
    int width() const { return size_; }
    int num_actions() const { return size_ * size_; }
    int num_planes() const { return kNumPlanes; }
    int line_length() const { return line_length_; }
    bool overline_wins() const { return overline_wins_; }
    Action last_action() const { return last_cell_ < 0 ? kNoAction : action_of(last_cell_); }

    Status status() const { return status_; }
    int to_move() const { return to_move_; }
    int ply() const { return ply_; }

    int num_legal_actions() const { return is_terminal(status_) ? 0 : num_actions() - ply_; }
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    Action random_action(Rng& rng) const;
    void apply(Action action) { place(cell_index(action / size_, action % size_)); }
    void apply_random(Rng& rng) { place(random_cell(rng)); }

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        const Bitboard256 empty = empty_cells();
        for (int w = 0; w < 4; ++w) {
            for (Bitboard b = empty.word(w); b;) {
                Gomoku child = *this;
                child.place((w << 6) + pop_lowest_bit(b));
                visit(child);
            }
        }
    }

    // Planes: stones of the side to move, the opponent's, and the last move (one-hot).
    void encode(float* out) const;
    Cell cell(int row, int col) const;

    std::string to_string() const;
    std::string action_to_string(Action action) const;
    Action parse_action(const std::string& text) const;
    static Gomoku from_text(const std::string& text, int line_length = 5, bool overline_wins = true);
    // The position of `rows` (top to bottom, kFirst = X, who moves first); `side_to_move` -1
    // lets the stone counts say it, else it must agree with them. Fails (std::invalid_argument)
    // on a board that is not square or a position no game reaches, as from_text.
    static Gomoku from_rows(const std::vector<std::vector<Cell>>& rows, int side_to_move = -1,
                            int line_length = 5, bool overline_wins = true);
    // The stones of an encode() output of a `size` x `size` board (plane 0 the side to move's,
    // plane 1 the opponent's; a cell is a stone above 0.5): X has as many stones as O, or one
    // more. The last move is not restored. Fails as from_rows.
    static Gomoku from_planes(const float* planes, int size, int line_length = 5, bool overline_wins = true);

private:
    static int cell_index(int row, int col) { return row * Bitboard256::kStride + col; }
    Action action_of(int index) const { return (index >> 4) * size_ + (index & 15); }
    Bitboard256 empty_cells() const;
    // A uniformly random empty cell: rejection sampling over the 256-cell layout (a few tries
    // while the board is not nearly full), then an exact pick among the empty cells.
    int random_cell(Rng& rng) const;
    // Puts a stone of the side to move on an empty cell and updates the status.
    void place(int cell);
    // Length of the line of `stones` through `cell` along the index step `step`, cell included.
    static int line_through(const Bitboard256& stones, int cell, int step);
    bool completes_line(const Bitboard256& stones, int cell) const;
    bool wins_by_length(int length) const;

    Bitboard256 stones_[2];
    std::int16_t last_cell_ = -1;
    std::int16_t ply_ = 0;
    std::int8_t size_ = 15;
    std::int8_t line_length_ = 5;
    bool overline_wins_ = true;
    std::int8_t to_move_ = 0;
    Status status_ = Status::kOngoing;
};

}  // namespace pyaz
