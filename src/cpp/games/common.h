// Vocabulary shared by every game: actions, outcomes, fixed-capacity action lists and the
// text helpers for grid boards. Nothing here knows about search or Python.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace pyaz {

using Action = std::int32_t;
constexpr Action kNoAction = -1;

// Player 0 moves first (Black in Othello and Gomoku); player 1 second.
enum class Status : std::int8_t { kOngoing, kDraw, kFirstPlayerWin, kSecondPlayerWin };

inline bool is_terminal(Status status) { return status != Status::kOngoing; }

inline Status win_for(int player) {
    return player == 0 ? Status::kFirstPlayerWin : Status::kSecondPlayerWin;
}

// Game result for `player`: +1 win, 0 draw, -1 loss; the game must be over.
inline int result_for(Status status, int player) {
    if (status == Status::kDraw) return 0;
    return status == win_for(player) ? 1 : -1;
}

// A stack-allocated list of actions with a compile-time capacity (no heap in the hot path).
template <int kCapacity>
class ActionList {
public:
    void push_back(Action action) {
        assert(size_ < kCapacity);
        items_[size_++] = action;
    }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Action operator[](int i) const { return items_[i]; }
    const Action* begin() const { return items_.data(); }
    const Action* end() const { return items_.data() + size_; }
    std::vector<Action> to_vector() const { return std::vector<Action>(begin(), end()); }

private:
    std::array<Action, kCapacity> items_{};
    int size_ = 0;
};

// Throws std::invalid_argument (ValueError in Python) with `message`.
[[noreturn]] inline void fail(const std::string& message) { throw std::invalid_argument(message); }

// `x` as an error message shows it: "nan", "inf", "-1", "0.25", "1e+30".
inline std::string number_text(double x) {
    std::ostringstream text;
    text << x;
    return text.str();
}

// Fails with "`name` must be <what>, got x" unless low <= x <= high (NaN never passes).
inline void check_range(double x, double low, double high, const std::string& name, const std::string& what) {
    if (!(x >= low && x <= high)) fail(name + " must be " + what + ", got " + number_text(x));
}

// Cell contents of a grid board, absolute colours.
enum Cell : std::int8_t { kEmpty = 0, kFirst = 1, kSecond = 2 };

// A grid board read from text: rows top to bottom, plus the side to move if the text named one.
struct ParsedGrid {
    std::vector<std::vector<Cell>> rows;
    int side_to_move = -1;  // -1: the text did not say
};

// Fails naming the first non-ASCII character of `text` (and its line and column) if there is one.
void check_ascii(const std::string& text, const std::string& what);

// Parses the board text that the games print (or bare rows of `.XO`): column headers of letters
// or digits and row numbers are skipped; a line "X to move" / "O to move" sets the side.
ParsedGrid parse_grid(const std::string& text);

// Formats rows (top to bottom) with column letters and row numbers 1.. from the top.
std::string format_grid(const std::vector<std::vector<Cell>>& rows, bool column_digits,
                        bool row_numbers);

// Text of the side-to-move or result line appended to boards.
std::string status_line(Status status, int to_move);

// "a1"-style coordinates: column letter, row number from 1 at the top.
std::string coord_name(int row, int col);
// Parses "a1"-style text into (row, col); checks ranges against height/width.
std::pair<int, int> parse_coord(const std::string& text, int height, int width);

// Splits a move list on whitespace and commas.
std::vector<std::string> split_moves(const std::string& text);

}  // namespace pyaz
