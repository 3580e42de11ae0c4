#include "games/connect_four.h"

#include <cctype>

namespace pyaz {

ConnectFour::ConnectFour(int width, int height) {
    if (width < kMinSide || width > kMaxSide || height < kMinSide || height > kMaxSide ||
        width * (height + 1) > 64) {
        fail("Connect Four board must have width and height in 4..9 with width * (height + 1) <= 64"
             " (e.g. 7x6 or 6x7), got " + std::to_string(width) + "x" + std::to_string(height));
    }
    width_ = static_cast<std::int8_t>(width);
    height_ = static_cast<std::int8_t>(height);
    for (int c = 0; c < width_; ++c) bottom_ |= bit(c * stride());
    cells_ = bottom_ * (bit(height_) - 1);
}

Bitboard ConnectFour::column_cells(int column) const {
    return (bit(height_) - 1) << (column * stride());
}

bool ConnectFour::has_four(Bitboard discs) const {
    const int shifts[4] = {1, stride(), stride() - 1, stride() + 1};
    for (int s : shifts) {
        const Bitboard pairs = discs & (discs >> s);
        if (pairs & (pairs >> (2 * s))) return true;
    }
    return false;
}

bool ConnectFour::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action >= width_) return false;
    return (landing_cells() & column_cells(action)) != 0;
}

void ConnectFour::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    const Bitboard landing = landing_cells();
    for (int c = 0; c < width_; ++c) {
        if (landing & column_cells(c)) out.push_back(c);
    }
}

Action ConnectFour::random_action(Rng& rng) const {
    return lowest_bit(random_landing(rng)) / stride();
}

void ConnectFour::apply(Action column) { drop(landing_cells() & column_cells(column)); }

void ConnectFour::drop(Bitboard landing) {
    const Bitboard mover = own_ | landing;
    occupied_ |= landing;
    ++ply_;
    if (has_four(mover)) {
        status_ = win_for(to_move_);
    } else if (ply_ == width_ * height_) {
        status_ = Status::kDraw;
    }
    own_ = occupied_ ^ mover;
    to_move_ ^= 1;
}

void ConnectFour::encode(float* out) const {
    const int area = width_ * height_;
    const Bitboard opponent = occupied_ ^ own_;
    for (int r = 0; r < height_; ++r) {
        for (int c = 0; c < width_; ++c) {
            const int index = bit_index(r, c);
            out[r * width_ + c] = static_cast<float>((own_ >> index) & 1);
            out[area + r * width_ + c] = static_cast<float>((opponent >> index) & 1);
        }
    }
}

Cell ConnectFour::cell(int row, int col) const {
    const int index = bit_index(row, col);
    if ((discs_of(0) >> index) & 1) return kFirst;
    if ((discs_of(1) >> index) & 1) return kSecond;
    return kEmpty;
}

std::string ConnectFour::to_string() const {
    std::vector<std::vector<Cell>> rows(height_, std::vector<Cell>(width_));
    for (int r = 0; r < height_; ++r) {
        for (int c = 0; c < width_; ++c) rows[r][c] = cell(r, c);
    }
    return format_grid(rows, true, false) + status_line(status_, to_move_) + "\n";
}

std::string ConnectFour::action_to_string(Action action) const {
    if (action < 0 || action >= width_) {
        fail("column " + std::to_string(action) + " is out of range for a board " +
             std::to_string(width_) + " wide");
    }
    return std::to_string(action + 1);
}

Action ConnectFour::parse_action(const std::string& text) const {
    int column = -1;
    if (text.size() == 1 && std::isdigit(static_cast<unsigned char>(text[0]))) column = text[0] - '1';
    if (text.size() == 1 && std::isalpha(static_cast<unsigned char>(text[0]))) {
        column = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
    }
    if (column < 0 || column >= width_) {
        fail("bad Connect Four move '" + text + "' (expected a column 1.." + std::to_string(width_) +
             " or a.." + std::string(1, static_cast<char>('a' + width_ - 1)) + ")");
    }
    return column;
}

ConnectFour ConnectFour::from_text(const std::string& text) {
    const ParsedGrid grid = parse_grid(text);
    const int height = static_cast<int>(grid.rows.size());
    const int width = static_cast<int>(grid.rows.front().size());
    ConnectFour state(width, height);
    Bitboard discs[2] = {0, 0};
    for (int c = 0; c < width; ++c) {
        bool seen_empty_below = false;
        for (int r = height - 1; r >= 0; --r) {
            const Cell cell = grid.rows[r][c];
            if (cell == kEmpty) {
                seen_empty_below = true;
                continue;
            }
            if (seen_empty_below) {
                fail("Connect Four column " + std::to_string(c + 1) +
                     " has a disc above an empty cell");
            }
            discs[cell - 1] |= bit(state.bit_index(r, c));
        }
    }
    const int first = popcount(discs[0]);
    const int second = popcount(discs[1]);
    if (first != second && first != second + 1) {
        fail("impossible Connect Four position: X has " + std::to_string(first) + " discs and O " +
             std::to_string(second) + " (X moves first)");
    }
    const int side = first == second ? 0 : 1;
    if (grid.side_to_move >= 0 && grid.side_to_move != side) {
        fail("the disc counts say " + std::string(side == 0 ? "X" : "O") +
             " is to move, but the text says otherwise");
    }
    const bool first_won = state.has_four(discs[0]);
    const bool second_won = state.has_four(discs[1]);
    if ((first_won && second_won) || (first_won && side != 1) || (second_won && side != 0)) {
        fail("impossible Connect Four position: the game was already won before the last move");
    }
    state.to_move_ = static_cast<std::int8_t>(side);
    state.occupied_ = discs[0] | discs[1];
    state.own_ = discs[side];
    state.ply_ = static_cast<std::int16_t>(first + second);
    if (first_won) state.status_ = Status::kFirstPlayerWin;
    else if (second_won) state.status_ = Status::kSecondPlayerWin;
    else if (state.ply_ == width * height) state.status_ = Status::kDraw;
    return state;
}

}  // namespace pyaz
