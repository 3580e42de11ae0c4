#include "games/gomoku.h"

#include <algorithm>
#include <vector>

namespace pyaz {
namespace {

// The cells of an n x n board inside the 16x16 bit layout, one table entry per size.
const Bitboard256& board_cells(int size) {
    static const auto table = [] {
        std::array<Bitboard256, Gomoku::kMaxSize + 1> boards{};
        for (int n = Gomoku::kMinSize; n <= Gomoku::kMaxSize; ++n) {
            for (int r = 0; r < n; ++r) {
                for (int c = 0; c < n; ++c) boards[n].set(r * Bitboard256::kStride + c);
            }
        }
        return boards;
    }();
    return table[size];
}

// Index steps of the four line directions: along a row, a column and the two diagonals.
constexpr int kLineSteps[4] = {1, Bitboard256::kStride, Bitboard256::kStride + 1,
                               Bitboard256::kStride - 1};

}  // namespace

Gomoku::Gomoku(int size, int line_length, bool overline_wins) {
    if (size < kMinSize || size > kMaxSize) {
        fail("Gomoku board size must be between 5 and 15, got " + std::to_string(size));
    }
    if (line_length < 3 || line_length > size) {
        fail("Gomoku line_length must be between 3 and the board size " + std::to_string(size) +
             ", got " + std::to_string(line_length));
    }
    size_ = static_cast<std::int8_t>(size);
    line_length_ = static_cast<std::int8_t>(line_length);
    overline_wins_ = overline_wins;
}

Bitboard256 Gomoku::empty_cells() const {
    return and_not(board_cells(size_), stones_[0] | stones_[1]);
}

bool Gomoku::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action >= num_actions()) return false;
    const int index = cell_index(action / size_, action % size_);
    return !stones_[0].test(index) && !stones_[1].test(index);
}

void Gomoku::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    const Bitboard256 empty = empty_cells();
    for (int w = 0; w < 4; ++w) {
        for (Bitboard b = empty.word(w); b;) out.push_back(action_of((w << 6) + pop_lowest_bit(b)));
    }
}

Action Gomoku::random_action(Rng& rng) const { return action_of(random_cell(rng)); }

int Gomoku::random_cell(Rng& rng) const {
    const Bitboard256& board = board_cells(size_);
    for (int draw = 0; draw < 2; ++draw) {
        std::uint64_t random_bits = rng.next();
        for (int byte = 0; byte < 8; ++byte, random_bits >>= 8) {
            const int cell = static_cast<int>(random_bits & 255);
            if (board.test(cell) && !stones_[0].test(cell) && !stones_[1].test(cell)) return cell;
        }
    }
    return empty_cells().nth_set(static_cast<int>(rng.below(num_actions() - ply_)));
}

int Gomoku::line_through(const Bitboard256& stones, int cell, int step) {
    int length = 1;
    for (int next = cell + step; next < 256 && stones.test(next); next += step) ++length;
    for (int next = cell - step; next >= 0 && stones.test(next); next -= step) ++length;
    return length;
}

bool Gomoku::wins_by_length(int length) const {
    return overline_wins_ ? length >= line_length_ : length == line_length_;
}

bool Gomoku::completes_line(const Bitboard256& stones, int cell) const {
    for (int step : kLineSteps) {
        if (wins_by_length(line_through(stones, cell, step))) return true;
    }
    return false;
}

void Gomoku::place(int cell) {
    Bitboard256& mine = stones_[to_move_];
    mine.set(cell);
    last_cell_ = static_cast<std::int16_t>(cell);
    ++ply_;
    if (completes_line(mine, cell)) {
        status_ = win_for(to_move_);
    } else if (ply_ == num_actions()) {
        status_ = Status::kDraw;
    }
    to_move_ ^= 1;
}

void Gomoku::encode(float* out) const {
    const int area = size_ * size_;
    const Bitboard256& own = stones_[to_move_];
    const Bitboard256& opponent = stones_[to_move_ ^ 1];
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const int index = cell_index(r, c);
            out[r * size_ + c] = own.test(index) ? 1.0f : 0.0f;
            out[area + r * size_ + c] = opponent.test(index) ? 1.0f : 0.0f;
            out[2 * area + r * size_ + c] = 0.0f;
        }
    }
    if (last_cell_ >= 0) out[2 * area + last_action()] = 1.0f;
}

Cell Gomoku::cell(int row, int col) const {
    const int index = cell_index(row, col);
    if (stones_[0].test(index)) return kFirst;
    if (stones_[1].test(index)) return kSecond;
    return kEmpty;
}

std::string Gomoku::to_string() const {
    std::vector<std::vector<Cell>> rows(size_, std::vector<Cell>(size_));
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) rows[r][c] = cell(r, c);
    }
    return format_grid(rows, false, true) + status_line(status_, to_move_) + "\n";
}

std::string Gomoku::action_to_string(Action action) const {
    if (action < 0 || action >= num_actions()) {
        fail("action " + std::to_string(action) + " is out of range for Gomoku " +
             std::to_string(size_) + "x" + std::to_string(size_));
    }
    return coord_name(action / size_, action % size_);
}

Action Gomoku::parse_action(const std::string& text) const {
    const auto [row, col] = parse_coord(text, size_, size_);
    return row * size_ + col;
}

Gomoku Gomoku::from_text(const std::string& text, int line_length, bool overline_wins) {
    const ParsedGrid grid = parse_grid(text);
    return from_rows(grid.rows, grid.side_to_move, line_length, overline_wins);
}

Gomoku Gomoku::from_planes(const float* planes, int size, int line_length, bool overline_wins) {
    const int area = size * size;
    const float* own = planes;
    const float* other = planes + area;
    const auto stones = [area](const float* plane) {
        return std::count_if(plane, plane + area, [](float x) { return x > 0.5F; });
    };
    const bool own_is_x = stones(own) == stones(other);
    std::vector<std::vector<Cell>> rows(static_cast<std::size_t>(size), std::vector<Cell>(static_cast<std::size_t>(size), kEmpty));
    for (int i = 0; i < area; ++i) {
        Cell& cell = rows[static_cast<std::size_t>(i / size)][static_cast<std::size_t>(i % size)];
        if (own[i] > 0.5F) cell = own_is_x ? kFirst : kSecond;
        else if (other[i] > 0.5F) cell = own_is_x ? kSecond : kFirst;
    }
    return from_rows(rows, -1, line_length, overline_wins);
}

Gomoku Gomoku::from_rows(const std::vector<std::vector<Cell>>& rows, int side_to_move, int line_length,
                         bool overline_wins) {
    const int n = static_cast<int>(rows.size());
    if (rows.empty() || static_cast<int>(rows.front().size()) != n) {
        fail("a Gomoku board must be square, got " + std::to_string(n) + " rows of " +
             std::to_string(rows.empty() ? 0 : rows.front().size()));
    }
    Gomoku state(n, line_length, overline_wins);
    for (int r = 0; r < n; ++r) {
        if (static_cast<int>(rows[r].size()) != n) {
            fail("a Gomoku board must be square, got a row of " + std::to_string(rows[r].size()) +
                 " cells on a board of " + std::to_string(n) + " rows");
        }
        for (int c = 0; c < n; ++c) {
            if (rows[r][c] != kEmpty) state.stones_[rows[r][c] - 1].set(cell_index(r, c));
        }
    }
    const int first = state.stones_[0].count();
    const int second = state.stones_[1].count();
    if (first != second && first != second + 1) {
        fail("impossible Gomoku position: X has " + std::to_string(first) + " stones and O " +
             std::to_string(second) + " (X moves first)");
    }
    const int side = first == second ? 0 : 1;
    if (side_to_move >= 0 && side_to_move != side) {
        fail("the stone counts say " + std::string(side == 0 ? "X" : "O") +
             " is to move, but the text says otherwise");
    }
    bool won[2] = {false, false};
    for (int player = 0; player < 2; ++player) {
        for (int r = 0; r < n && !won[player]; ++r) {
            for (int c = 0; c < n && !won[player]; ++c) {
                const int cell = cell_index(r, c);
                won[player] = state.stones_[player].test(cell) &&
                              state.completes_line(state.stones_[player], cell);
            }
        }
    }
    if ((won[0] && won[1]) || (won[0] && side != 1) || (won[1] && side != 0)) {
        fail("impossible Gomoku position: the game was already won before the last move");
    }
    state.to_move_ = static_cast<std::int8_t>(side);
    state.ply_ = static_cast<std::int16_t>(first + second);
    if (won[0]) state.status_ = Status::kFirstPlayerWin;
    else if (won[1]) state.status_ = Status::kSecondPlayerWin;
    else if (state.ply_ == state.num_actions()) state.status_ = Status::kDraw;
    return state;
}

}  // namespace pyaz
