// The Gomoku mentor's own board (seed 004, section IV-C): a padded mailbox that knows, for every
// empty cell, colour and line direction, the pattern a stone there would make (five, open or
// closed four, open or closed three, two), and keeps it up to date as stones come and go, so that
// the threat searches and the alpha-beta ask "where are X's fours?" without scanning lines.
//
// Patterns are looked up in a table indexed by the 10 cells around a cell on one line (5 each
// side, each own / empty / blocked: 3^10 keys), and the keys are updated in place on every move.
// The five cells each side are exactly what decides a five, also under the exact-five rule
// (overline_wins = false), where a sixth own stone next to the five spoils it.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "games/gomoku.h"

namespace pyaz::mentor {

// What one more stone makes along one line, weakest first. Defined recursively on the line:
// kFive completes a winning line through the cell; kFlex4 leaves two cells that complete one
// (an open four: one reply cannot stop it), kBlock4 exactly one; kFlex3 / kBlock3 are a cell
// away from kFlex4 / kBlock4 (an open three, a closed three; broken shapes such as X.XX count),
// and kFlex2 / kBlock2 a cell away from kFlex3 / kBlock3. Only lines through the cell count.
enum Pattern : std::uint8_t { kNone, kBlock2, kFlex2, kBlock3, kFlex3, kBlock4, kFlex4, kFive };

// What one more stone makes over its four lines together, ordered so that `>= kFour` means
// "makes a four" and `>= kThree` "makes a three or a four". kWinningFour is an open four or
// two fours at once: two winning cells, so it wins unless the opponent can make five first.
enum Threat : std::uint8_t {
    kQuiet,
    kThree,
    kThreeThree,
    kFour,
    kFourThree,
    kWinningFour,
    kFiveThreat,
    kNumThreats
};

constexpr int kPad = 5;  // wall cells round the board: a line key reaches 5 cells out
constexpr int kStride = Gomoku::kMaxSize + 2 * kPad;
constexpr int kCells = kStride * kStride;
constexpr int kNumDirections = 4;
// Index steps of the four line directions: along a row, a column and the two diagonals.
constexpr std::array<int, kNumDirections> kSteps = {1, kStride, kStride + 1, kStride - 1};
constexpr int kNoCell = -1;

class Board {
public:
    // A copy of `state` (line_length 5, size 9..15: the caller checks) with its side to move.
    explicit Board(const Gomoku& state);

    int size() const { return size_; }
    int to_move() const { return to_move_; }
    int stone_count() const { return stone_count_; }
    std::uint64_t hash() const { return hash_; }
    bool is_empty(int cell) const { return content_[cell] == kEmptyContent; }
    // Padded index of a board action r*n + c, and back.
    int cell_of(int action) const { return (action / size_ + kPad) * kStride + action % size_ + kPad; }
    int action_of(int cell) const { return (cell / kStride - kPad) * size_ + cell % kStride - kPad; }
    // The board's cells in action order.
    const std::vector<int>& cells() const { return cells_; }
    // True for an empty cell within two rows and columns of a stone: where moves are searched.
    bool is_candidate(int cell) const { return content_[cell] == kEmptyContent && near_[cell] > 0; }

    Pattern pattern(int color, int cell, int direction) const {
        return patterns_[color][cell][direction];
    }
    // kQuiet for occupied cells.
    Threat threat(int color, int cell) const { return threats_[color][cell]; }
    // Static worth of a stone of `color` on an empty cell (0 when occupied), see evaluate().
    int value(int color, int cell) const { return values_[color][cell]; }
    // Number of empty cells where `color` has the threat `threat`.
    int count(int color, Threat threat) const { return counts_[color][threat]; }
    // Number of empty cells where `color` makes at least `threat`.
    int count_at_least(int color, Threat threat) const;
    // The first empty cell (in action order) where `color` makes at least `threat`, or kNoCell.
    int find(int color, Threat threat) const;
    // The cells where `color` would complete five, on the lines through `cell` within 4 cells.
    int fives_near(int color, int cell, std::array<int, 8>& out) const;

    // Plays a stone of the side to move on an empty board cell; undo() takes it back.
    void play(int cell);
    // Gives the move to the other side (to ask what the opponent threatens); undo() restores.
    void pass();
    void undo();
    int last_move() const { return history_.empty() ? kNoCell : history_.back(); }

    // Static evaluation for the side to move: the summed worth of its empty cells minus the
    // opponent's (each cell worth the patterns a stone there would make, see value()).
    int evaluate() const { return totals_[to_move_] - totals_[to_move_ ^ 1]; }

private:
    static constexpr std::uint8_t kEmptyContent = 0;
    static constexpr std::uint8_t kWall = 3;

    void put(int cell, int color);
    void remove(int cell, int color);
    // Adds (sign +1) or removes (-1) a stone of `color` at `cell` in its neighbours' line keys.
    void update_keys(int cell, int color, int sign);
    void update_near(int cell, int delta);
    // Re-reads the pattern of an empty cell along one direction, for both colours.
    void refresh_line(int cell, int direction);
    // Recomputes a cell's threat and value for `color` from its four patterns.
    void refresh_cell(int color, int cell);
    void clear_cell(int cell);

    int size_ = 15;
    bool overline_wins_ = true;
    int to_move_ = 0;
    int stone_count_ = 0;
    std::uint64_t hash_ = 0;
    std::vector<int> cells_;
    std::vector<int> history_;  // played cells, kNoCell for a pass
    std::array<std::uint8_t, kCells> content_{};
    std::array<std::uint8_t, kCells> near_{};
    std::array<std::array<std::array<std::uint16_t, kNumDirections>, kCells>, 2> keys_{};
    std::array<std::array<std::array<Pattern, kNumDirections>, kCells>, 2> patterns_{};
    std::array<std::array<Threat, kCells>, 2> threats_{};
    std::array<std::array<std::int16_t, kCells>, 2> values_{};
    std::array<std::array<int, kNumThreats>, 2> counts_{};
    std::array<int, 2> totals_{};
};

}  // namespace pyaz::mentor
