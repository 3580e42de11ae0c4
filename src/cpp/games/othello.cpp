#include "games/othello.h"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>

// Runtime dispatch to an AVX2 move generator needs GCC/Clang on x86-64.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define PYAZ_HAS_AVX2_DISPATCH 1
#else
#define PYAZ_HAS_AVX2_DISPATCH 0
#endif

namespace pyaz {
namespace {

constexpr Bitboard kColumnA = 0x0101010101010101ull;

// Squares of the n x n board inside the 8x8 word.
constexpr Bitboard valid_squares(int size) {
    Bitboard row = (Bitboard{1} << size) - 1;
    Bitboard board = 0;
    for (int r = 0; r < size; ++r) board |= row << (8 * r);
    return board;
}

struct SizeMasks {
    Bitboard all;    // squares on the board
    Bitboard inner;  // the board minus its first and last column: the only discs that a
                     // horizontal or diagonal line can flank (and shifting them never wraps)
};

constexpr std::array<SizeMasks, 9> kMasks = [] {
    std::array<SizeMasks, 9> masks{};
    for (int n = Othello::kMinSize; n <= Othello::kMaxSize; ++n) {
        const Bitboard all = valid_squares(n);
        masks[n] = {all, all & ~kColumnA & ~(kColumnA << (n - 1))};
    }
    return masks;
}();

// Squares from which `own` flanks a run of `flankable` discs along +-kStep (both directions at
// once; Kogge-Stone doubling with a "two flankable in a row" mask: 4 steps cover 6 discs).
template <int kStep>
inline Bitboard moves_along(Bitboard own, Bitboard flankable) {
    Bitboard up = flankable & (own << kStep);
    Bitboard down = flankable & (own >> kStep);
    up |= flankable & (up << kStep);
    down |= flankable & (down >> kStep);
    const Bitboard pairs_up = flankable & (flankable << kStep);
    const Bitboard pairs_down = pairs_up >> kStep;
    up |= pairs_up & (up << (2 * kStep));
    down |= pairs_down & (down >> (2 * kStep));
    up |= pairs_up & (up << (2 * kStep));
    down |= pairs_down & (down >> (2 * kStep));
    return (up << kStep) | (down >> kStep);
}

Bitboard moves_scalar(Bitboard own, Bitboard opponent, const SizeMasks& m) {
    const Bitboard inner = opponent & m.inner;
    const Bitboard empty = m.all & ~(own | opponent);
    return (moves_along<1>(own, inner) | moves_along<8>(own, opponent) |
            moves_along<7>(own, inner) | moves_along<9>(own, inner)) &
           empty;
}

#if PYAZ_HAS_AVX2_DISPATCH
// The same computation with the four line directions in the four 64-bit lanes of an AVX2
// register (per-lane shifts); chosen at load time on CPUs that have AVX2.
using Lanes = std::uint64_t __attribute__((vector_size(32)));

__attribute__((target("avx2"))) Bitboard moves_avx2(Bitboard own, Bitboard opponent,
                                                    const SizeMasks& m) {
    const Lanes step = {1, 8, 7, 9};
    const Lanes double_step = {2, 16, 14, 18};
    const Bitboard inner = opponent & m.inner;
    const Lanes flankable = {inner, opponent, inner, inner};
    const Lanes mine = {own, own, own, own};
    Lanes up = flankable & (mine << step);
    Lanes down = flankable & (mine >> step);
    up |= flankable & (up << step);
    down |= flankable & (down >> step);
    const Lanes pairs_up = flankable & (flankable << step);
    const Lanes pairs_down = pairs_up >> step;
    up |= pairs_up & (up << double_step);
    down |= pairs_down & (down >> double_step);
    up |= pairs_up & (up << double_step);
    down |= pairs_down & (down >> double_step);
    const Lanes moves = (up << step) | (down >> step);
    return (moves[0] | moves[1] | moves[2] | moves[3]) & m.all & ~(own | opponent);
}
#endif

// AVX2 is used when the CPU has it, unless PYAZ_DISABLE_AVX2 is set in the environment (the
// tests use that to check the portable code paths against the same counts).
bool use_avx2() {
#if PYAZ_HAS_AVX2_DISPATCH
    return __builtin_cpu_supports("avx2") && std::getenv("PYAZ_DISABLE_AVX2") == nullptr;
#else
    return false;
#endif
}

using MovesFn = Bitboard (*)(Bitboard, Bitboard, const SizeMasks&);

MovesFn pick_moves_impl() {
#if PYAZ_HAS_AVX2_DISPATCH
    if (use_avx2()) return moves_avx2;
#endif
    return moves_scalar;
}

const MovesFn kMovesImpl = pick_moves_impl();

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

Bitboard flips_scalar(Bitboard own, Bitboard opponent, int square) {
    const auto& up = kRays.up[square];
    const auto& down = kRays.down[square];
    return flips_up(own, opponent, up[0]) | flips_up(own, opponent, up[1]) |
           flips_up(own, opponent, up[2]) | flips_up(own, opponent, up[3]) |
           flips_down(own, opponent, down[0]) | flips_down(own, opponent, down[1]) |
           flips_down(own, opponent, down[2]) | flips_down(own, opponent, down[3]);
}

#if PYAZ_HAS_AVX2_DISPATCH
__attribute__((target("avx2"))) inline Lanes load_lanes(const std::array<Bitboard, 4>& words) {
    Lanes lanes;
    std::memcpy(&lanes, words.data(), sizeof lanes);
    return lanes;
}

// flips_up and flips_down for four rays at once. Along a shrinking ray the first blocker is
// the highest bit of the blockers; smearing them downwards marks it and everything below.
__attribute__((target("avx2"))) Bitboard flips_avx2(Bitboard own, Bitboard opponent,
                                                    int square) {
    const Lanes mine = {own, own, own, own};
    const Lanes theirs = {opponent, opponent, opponent, opponent};
    const Lanes zero = {0, 0, 0, 0};
    const Lanes one = {1, 1, 1, 1};

    const Lanes up_rays = load_lanes(kRays.up[square]);
    const Lanes up_blockers = up_rays & ~theirs;
    const Lanes up_first = up_blockers & (zero - up_blockers);
    const Lanes up_flanked = reinterpret_cast<Lanes>((up_first & mine) != zero);
    const Lanes up_flips = up_rays & (up_first - one) & up_flanked;

    const Lanes down_rays = load_lanes(kRays.down[square]);
    const Lanes down_blockers = down_rays & ~theirs;
    Lanes smear = down_blockers | (down_blockers >> 1);
    smear |= smear >> 2;
    smear |= smear >> 4;
    smear |= smear >> 8;
    smear |= smear >> 16;
    smear |= smear >> 32;
    const Lanes down_first = down_blockers & ~(smear >> 1);
    const Lanes down_flanked = reinterpret_cast<Lanes>((down_first & mine) != zero);
    const Lanes down_flips = down_rays & ~smear & down_flanked;

    const Lanes flips = up_flips | down_flips;
    return flips[0] | flips[1] | flips[2] | flips[3];
}
#endif

using FlipsFn = Bitboard (*)(Bitboard, Bitboard, int);

FlipsFn pick_flips_impl() {
#if PYAZ_HAS_AVX2_DISPATCH
    if (use_avx2()) return flips_avx2;
#endif
    return flips_scalar;
}

const FlipsFn kFlipsImpl = pick_flips_impl();

}  // namespace

Bitboard othello_moves(Bitboard own, Bitboard opponent, int size) {
    return kMovesImpl(own, opponent, kMasks[size]);
}

Bitboard othello_flips(Bitboard own, Bitboard opponent, int square) {
    return kFlipsImpl(own, opponent, square);
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

double Othello::final_score(int player) const {
    return double(disc_count(player) - disc_count(1 - player)) / (size_ * size_);
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
    if ((black | white) == 0) fail("an Othello board holds discs (the game starts with 4); this text has none");
    state.to_move_ = static_cast<std::int8_t>(side);
    state.own_ = side == 0 ? black : white;
    state.opponent_ = side == 0 ? white : black;
    state.ply_ = static_cast<std::int16_t>(std::max(0, popcount(black | white) - 4));
    state.update_after_turn();
    return state;
}

}  // namespace pyaz
