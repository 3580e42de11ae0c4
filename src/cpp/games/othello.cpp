#include "games/othello.h"

#include <algorithm>
#include <array>

namespace pyaz {
namespace {

constexpr Bitboard kColumnA = 0x0101010101010101ull;
constexpr Bitboard kColumnH = kColumnA << 7;

// Squares of the n x n board inside the 8x8 word.
constexpr Bitboard valid_squares(int size) {
    Bitboard row = (Bitboard{1} << size) - 1;
    Bitboard board = 0;
    for (int r = 0; r < size; ++r) board |= row << (8 * r);
    return board;
}

struct SizeMasks {
    Bitboard all;         // squares on the board
    Bitboard not_left;    // board minus column a: where an eastward shift may land
    Bitboard not_right;   // board minus column h: where a westward shift may land
};

constexpr std::array<SizeMasks, 9> kMasks = [] {
    std::array<SizeMasks, 9> masks{};
    for (int n = Othello::kMinSize; n <= Othello::kMaxSize; ++n) {
        const Bitboard all = valid_squares(n);
        masks[n] = {all, all & ~kColumnA, all & ~kColumnH};
    }
    return masks;
}();

// Shift by one square in a direction: kDelta is the change of the bit index.
template <int kDelta>
inline Bitboard shift(Bitboard b) {
    if constexpr (kDelta > 0) return b << kDelta;
    else return b >> -kDelta;
}

// The mask that keeps a shift by kDelta on the board (no wrap between rows).
template <int kDelta>
inline Bitboard landing_mask(const SizeMasks& m) {
    constexpr int column_step = ((kDelta % 8) + 8 + 4) % 8 - 4;  // -1, 0 or +1
    if constexpr (column_step == 1) return m.not_left;
    else if constexpr (column_step == -1) return m.not_right;
    else return m.all;
}

// Placements along one direction pair-step (Kogge-Stone style: runs of opponent discs are
// doubled with a precomputed "two opponents in a row" mask, so 4 steps cover 6 squares).
template <int kDelta>
inline Bitboard moves_in_direction(Bitboard own, Bitboard opponent, Bitboard empty,
                                   const SizeMasks& m) {
    const Bitboard mask = landing_mask<kDelta>(m);
    const Bitboard run_mask = opponent & mask;
    Bitboard run = run_mask & shift<kDelta>(own);
    run |= run_mask & shift<kDelta>(run);
    const Bitboard pairs = run_mask & shift<kDelta>(run_mask);
    run |= pairs & shift<2 * kDelta>(run);
    run |= pairs & shift<2 * kDelta>(run);
    return shift<kDelta>(run) & mask & empty;
}

// Squares strictly after `square` along direction (dr, dc) on the 8x8 word. Squares beyond a
// smaller board are always empty, so the 8x8 rays serve every size.
constexpr Bitboard ray(int square, int dr, int dc) {
    Bitboard r = 0;
    int row = square / 8 + dr;
    int col = square % 8 + dc;
    while (row >= 0 && row < 8 && col >= 0 && col < 8) {
        r |= Bitboard{1} << (row * 8 + col);
        row += dr;
        col += dc;
    }
    return r;
}

struct Rays {
    // Directions whose bit index grows (E, S, SE, SW), then those whose index shrinks.
    std::array<std::array<Bitboard, 4>, 64> up{};
    std::array<std::array<Bitboard, 4>, 64> down{};
};

constexpr Rays kRays = [] {
    Rays rays{};
    for (int sq = 0; sq < 64; ++sq) {
        rays.up[sq] = {ray(sq, 0, 1), ray(sq, 1, 0), ray(sq, 1, 1), ray(sq, 1, -1)};
        rays.down[sq] = {ray(sq, 0, -1), ray(sq, -1, 0), ray(sq, -1, -1), ray(sq, -1, 1)};
    }
    return rays;
}();

// Flips along a ray of growing bit index: the first square that is not an opponent disc must be
// our own; everything before it on the ray flips.
inline Bitboard flips_up(Bitboard own, Bitboard opponent, Bitboard ray_mask) {
    const Bitboard blockers = ray_mask & ~opponent;
    const Bitboard first = blockers & (~blockers + 1);
    return (first & own) ? ray_mask & (first - 1) : 0;
}

// The same along a ray of shrinking bit index, where the first blocker is the highest bit.
inline Bitboard flips_down(Bitboard own, Bitboard opponent, Bitboard ray_mask) {
    const Bitboard blockers = ray_mask & ~opponent;
    if (blockers == 0) return 0;
    const Bitboard first = Bitboard{1} << (63 - __builtin_clzll(blockers));
    return (first & own) ? ray_mask & ~((first << 1) - 1) : 0;
}

}  // namespace

Bitboard othello_moves(Bitboard own, Bitboard opponent, int size) {
    const SizeMasks& m = kMasks[size];
    const Bitboard empty = m.all & ~(own | opponent);
    return moves_in_direction<1>(own, opponent, empty, m) |
           moves_in_direction<-1>(own, opponent, empty, m) |
           moves_in_direction<8>(own, opponent, empty, m) |
           moves_in_direction<-8>(own, opponent, empty, m) |
           moves_in_direction<9>(own, opponent, empty, m) |
           moves_in_direction<-9>(own, opponent, empty, m) |
           moves_in_direction<7>(own, opponent, empty, m) |
           moves_in_direction<-7>(own, opponent, empty, m);
}

Bitboard othello_flips(Bitboard own, Bitboard opponent, int square) {
    const auto& up = kRays.up[square];
    const auto& down = kRays.down[square];
    return flips_up(own, opponent, up[0]) | flips_up(own, opponent, up[1]) |
           flips_up(own, opponent, up[2]) | flips_up(own, opponent, up[3]) |
           flips_down(own, opponent, down[0]) | flips_down(own, opponent, down[1]) |
           flips_down(own, opponent, down[2]) | flips_down(own, opponent, down[3]);
}

Othello::Othello(int size) {
    if (size < kMinSize || size > kMaxSize) {
        fail("Othello board size must be between 4 and 8, got " + std::to_string(size));
    }
    size_ = static_cast<std::int8_t>(size);
    const int lo = size / 2 - 1;
    const int hi = size / 2;
    // Black (to move) on (lo, hi) and (hi, lo); White on (lo, lo) and (hi, hi).
    own_ = bit(lo * 8 + hi) | bit(hi * 8 + lo);
    opponent_ = bit(lo * 8 + lo) | bit(hi * 8 + hi);
    moves_ = othello_moves(own_, opponent_, size_);
}

Bitboard Othello::valid() const { return kMasks[size_].all; }

int Othello::num_legal_actions() const {
    if (is_terminal(status_)) return 0;
    return moves_ ? popcount(moves_) : 1;
}

bool Othello::is_legal(Action action) const {
    if (is_terminal(status_) || action < 0 || action > pass_action()) return false;
    if (action == pass_action()) return moves_ == 0;
    return (moves_ >> square_of(action)) & 1;
}

void Othello::legal_actions(ActionList<kMaxActions>& out) const {
    if (is_terminal(status_)) return;
    if (moves_ == 0) {
        out.push_back(pass_action());
        return;
    }
    for (Bitboard b = moves_; b;) out.push_back(action_of(pop_lowest_bit(b)));
}

Action Othello::random_action(Rng& rng) const {
    if (moves_ == 0) return pass_action();
    return action_of(random_square(rng));
}

void Othello::apply_random(Rng& rng) {
    if (moves_ == 0) pass();
    else place(random_square(rng));
}

void Othello::apply(Action action) {
    if (action == pass_action()) {
        pass();
    } else {
        place(square_of(action));
    }
}

void Othello::place(int square) {
    const Bitboard flipped = othello_flips(own_, opponent_, square);
    const Bitboard mover = own_ | flipped | bit(square);
    own_ = opponent_ & ~flipped;
    opponent_ = mover;
    to_move_ ^= 1;
    ++ply_;
    update_after_turn();
}

void Othello::pass() {
    std::swap(own_, opponent_);
    to_move_ ^= 1;
    ++ply_;
    update_after_turn();
}

void Othello::update_after_turn() {
    moves_ = othello_moves(own_, opponent_, size_);
    if (moves_ || othello_moves(opponent_, own_, size_)) return;
    const int mine = popcount(own_);
    const int theirs = popcount(opponent_);
    if (mine == theirs) status_ = Status::kDraw;
    else status_ = win_for(mine > theirs ? to_move_ : to_move_ ^ 1);
}

void Othello::encode(float* out) const {
    const int area = size_ * size_;
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) {
            const int square = r * 8 + c;
            out[r * size_ + c] = static_cast<float>((own_ >> square) & 1);
            out[area + r * size_ + c] = static_cast<float>((opponent_ >> square) & 1);
        }
    }
}

Cell Othello::cell(int row, int col) const {
    const int square = row * 8 + col;
    const Bitboard black = to_move_ == 0 ? own_ : opponent_;
    const Bitboard white = to_move_ == 0 ? opponent_ : own_;
    if ((black >> square) & 1) return kFirst;
    if ((white >> square) & 1) return kSecond;
    return kEmpty;
}

int Othello::disc_count(int player) const {
    return popcount(player == to_move_ ? own_ : opponent_);
}

std::string Othello::to_string() const {
    std::vector<std::vector<Cell>> rows(size_, std::vector<Cell>(size_));
    for (int r = 0; r < size_; ++r) {
        for (int c = 0; c < size_; ++c) rows[r][c] = cell(r, c);
    }
    return format_grid(rows, false, true) + status_line(status_, to_move_) + "\n";
}

std::string Othello::action_to_string(Action action) const {
    if (action < 0 || action > pass_action()) {
        fail("action " + std::to_string(action) + " is out of range for Othello " +
             std::to_string(size_) + "x" + std::to_string(size_));
    }
    if (action == pass_action()) return "pass";
    return coord_name(action / size_, action % size_);
}

Action Othello::parse_action(const std::string& text) const {
    if (text == "pass" || text == "PASS" || text == "Pass" || text == "ps" || text == "PS") {
        return pass_action();
    }
    const auto [row, col] = parse_coord(text, size_, size_);
    return row * size_ + col;
}

Othello Othello::from_text(const std::string& text) {
    const ParsedGrid grid = parse_grid(text);
    const int n = static_cast<int>(grid.rows.size());
    if (static_cast<int>(grid.rows.front().size()) != n) {
        fail("an Othello board must be square, got " + std::to_string(n) + " rows of " +
             std::to_string(grid.rows.front().size()));
    }
    Othello state(n);
    const int side = grid.side_to_move < 0 ? 0 : grid.side_to_move;
    Bitboard black = 0;
    Bitboard white = 0;
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            if (grid.rows[r][c] == kFirst) black |= bit(r * 8 + c);
            if (grid.rows[r][c] == kSecond) white |= bit(r * 8 + c);
        }
    }
    state.to_move_ = static_cast<std::int8_t>(side);
    state.own_ = side == 0 ? black : white;
    state.opponent_ = side == 0 ? white : black;
    state.ply_ = static_cast<std::int16_t>(std::max(0, popcount(black | white) - 4));
    state.update_after_turn();
    return state;
}

}  // namespace pyaz
