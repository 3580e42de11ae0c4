#include "games/tictactoe.h"

#include <cctype>
#include <vector>

namespace pyaz {
namespace {

// The eight lines of three, as masks of cells r*3 + c.
constexpr Bitboard kLines[] = {
    0007, 0070, 0700,  // rows
    0111, 0222, 0444,  // columns
    0421, 0124,        // diagonals
};

std::string lowercase_without_spaces(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (!std::isspace(static_cast<unsigned char>(c))) {
            out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    return out;
}

}  // namespace

bool TicTacToe::has_line(Bitboard marks) {
    for (Bitboard line : kLines) {
        if ((marks & line) == line) return true;
    }
    return false;
}

Status TicTacToe::status_of(Bitboard first, Bitboard second) {
    if (has_line(first)) return Status::kFirstPlayerWin;
    if (has_line(second)) return Status::kSecondPlayerWin;
    return (first | second) == kBoard ? Status::kDraw : Status::kOngoing;
}

bool TicTacToe::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action >= kCells) return false;
    return ((empty_cells() >> action) & 1) != 0;
}

void TicTacToe::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    for (Bitboard b = empty_cells(); b;) out.push_back(pop_lowest_bit(b));
}

Action TicTacToe::random_action(Rng& rng) const {
    const Bitboard empty = empty_cells();
    return nth_set_bit(empty, static_cast<int>(rng.below(static_cast<std::uint32_t>(popcount(empty)))));
}

void TicTacToe::apply(Action action) {
    const int mover = to_move();
    marks_[mover] |= bit(action);
    ++ply_;
    if (has_line(marks_[mover])) {
        status_ = win_for(mover);
    } else if (ply_ == kCells) {
        status_ = Status::kDraw;
    }
}

void TicTacToe::encode(float* out) const {
    const Bitboard own = marks_[to_move()];
    const Bitboard other = marks_[1 - to_move()];
    for (int i = 0; i < kCells; ++i) {
        out[i] = static_cast<float>((own >> i) & 1);
        out[kCells + i] = static_cast<float>((other >> i) & 1);
    }
}

Cell TicTacToe::cell(int row, int col) const {
    const int index = row * kSide + col;
    if ((marks_[0] >> index) & 1) return kFirst;
    if ((marks_[1] >> index) & 1) return kSecond;
    return kEmpty;
}

std::string TicTacToe::to_string() const {
    std::vector<std::vector<Cell>> rows(kSide, std::vector<Cell>(kSide));
    for (int r = 0; r < kSide; ++r) {
        for (int c = 0; c < kSide; ++c) rows[r][c] = cell(r, c);
    }
    return format_grid(rows, false, true) + status_line(status_, to_move()) + "\n";
}

std::string TicTacToe::action_to_string(Action action) const {
    if (action < 0 || action >= kCells) {
        fail("cell " + std::to_string(action) + " is out of range 0.." + std::to_string(kCells - 1));
    }
    return coord_name(action / kSide, action % kSide);
}

Action TicTacToe::parse_action(const std::string& text) const {
    const std::string cell = lowercase_without_spaces(text);
    if (cell.size() != 2 || cell[0] < 'a' || cell[0] > 'c' || cell[1] < '1' || cell[1] > '3') {
        fail("bad tic-tac-toe move '" + text +
             "' (expected a cell a1..c3: a column letter a-c, a row number 1-3 from the top)");
    }
    return (cell[1] - '1') * kSide + (cell[0] - 'a');
}

TicTacToe TicTacToe::from_text(const std::string& text) {
    const ParsedGrid grid = parse_grid(text);
    if (grid.rows.size() != kSide || grid.rows.front().size() != kSide) {
        fail("a tic-tac-toe board has 3 rows of 3 cells, got " + std::to_string(grid.rows.size()) +
             " rows of " + std::to_string(grid.rows.front().size()));
    }
    TicTacToe state;
    for (int r = 0; r < kSide; ++r) {
        for (int c = 0; c < kSide; ++c) {
            const Cell mark = grid.rows[r][c];
            if (mark != kEmpty) state.marks_[mark - 1] |= bit(r * kSide + c);
        }
    }
    const int first = popcount(state.marks_[0]);
    const int second = popcount(state.marks_[1]);
    if (first != second && first != second + 1) {
        fail("impossible tic-tac-toe position: X has " + std::to_string(first) + " marks and O " +
             std::to_string(second) + " (X moves first)");
    }
    const int side = first - second;  // 0: X to move, 1: O to move
    if (grid.side_to_move >= 0 && grid.side_to_move != side) {
        fail("the mark counts say " + std::string(side == 0 ? "X" : "O") +
             " is to move, but the text says otherwise");
    }
    const bool first_won = has_line(state.marks_[0]);
    const bool second_won = has_line(state.marks_[1]);
    if ((first_won && second_won) || (first_won && side != 1) || (second_won && side != 0)) {
        fail("impossible tic-tac-toe position: the game was already won before the last move");
    }
    state.ply_ = static_cast<std::int8_t>(first + second);
    state.status_ = status_of(state.marks_[0], state.marks_[1]);
    return state;
}

}  // namespace pyaz
