#include "search/connect_four_solver.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pyaz {
namespace {

constexpr std::int64_t kPollEveryNodes = 4096;  // InterruptPoll itself runs its check every 20 ms
constexpr std::uint64_t kLowerBoundFlag = 0x80;
constexpr int kScoreOffset = 64;

std::string size_name(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

}  // namespace

ConnectFourSolver::ConnectFourSolver(std::size_t table_entries) {
    if (table_entries == 0) fail("the solver's table needs at least one entry");
    table_.assign(table_entries, 0);
}

void ConnectFourSolver::check_solvable(const ConnectFour& state) {
    if (state.width() > kMaxWidth || state.height() > kMaxHeight) {
        fail("the Connect Four solver takes boards up to 7 columns x 6 rows (width x height), got " +
             size_name(state.width(), state.height()));
    }
    if (is_terminal(state.status())) {
        fail("the Connect Four game is over (ply " + std::to_string(state.ply()) +
             "): there is nothing to solve");
    }
}

void ConnectFourSolver::clear() {
    std::fill(table_.begin(), table_.end(), 0);
    nodes_ = 0;
}

void ConnectFourSolver::set_geometry(int width, int height) {
    if (width == width_ && height == height_) return;
    // Keys of different geometries mean different positions: start a fresh table.
    std::fill(table_.begin(), table_.end(), 0);
    width_ = width;
    height_ = height;
    stride_ = height + 1;
    cells_ = width * height;
    column_mask_ = bit(height) - 1;
    bottom_ = 0;
    for (int c = 0; c < width; ++c) bottom_ |= bit(c * stride_);
    board_ = bottom_ * column_mask_;
    // Centre first, then alternately left and right of it.
    for (int i = 0; i < width; ++i) {
        const int step = (i + 1) / 2;
        column_order_[i] = width / 2 + (i % 2 == 1 ? -step : step);
    }
}

ConnectFourSolver::Position ConnectFourSolver::position_of(const ConnectFour& state) const {
    Position p;
    const Cell mover = state.to_move() == 0 ? kFirst : kSecond;
    for (int c = 0; c < width_; ++c) {
        for (int level = 0; level < height_; ++level) {  // level 0 is the bottom cell
            const Cell cell = state.cell(height_ - 1 - level, c);
            if (cell == kEmpty) break;
            const Bitboard b = bit(c * stride_ + level);
            p.mask |= b;
            if (cell == mover) p.current |= b;
        }
    }
    p.moves = state.ply();
    return p;
}

// Empty cells where one more disc of `discs` would complete four: vertical (three below), then
// for each other direction the three patterns of three discs around the gap.
Bitboard ConnectFourSolver::winning_cells(Bitboard discs, Bitboard mask) const {
    Bitboard wins = (discs << 1) & (discs << 2) & (discs << 3);
    const int shifts[3] = {stride_, stride_ - 1, stride_ + 1};  // horizontal and diagonals
    for (const int s : shifts) {
        Bitboard pair = (discs << s) & (discs << (2 * s));
        wins |= pair & (discs << (3 * s));
        wins |= pair & (discs >> s);
        pair = (discs >> s) & (discs >> (2 * s));
        wins |= pair & (discs << s);
        wins |= pair & (discs >> (3 * s));
    }
    return wins & (board_ ^ mask);
}

// The playable cells that do not let the opponent win at once: only the block when the
// opponent threatens one cell, none when it threatens two, never the cell below its threat.
Bitboard ConnectFourSolver::non_losing_moves(const Position& p) const {
    Bitboard possible = possible_moves(p);
    const Bitboard opponent_wins = winning_cells(p.current ^ p.mask, p.mask);
    const Bitboard forced = possible & opponent_wins;
    if (forced) {
        if (forced & (forced - 1)) return 0;
        possible = forced;
    }
    return possible & ~(opponent_wins >> 1);
}

// Writes the moves among `candidates` best first (most winning cells created, ties centre
// first) and returns how many.
int ConnectFourSolver::ordered_moves(const Position& p, Bitboard candidates, Bitboard* out) const {
    int scores[kMaxWidth];
    int count = 0;
    for (int i = 0; i < width_; ++i) {
        const Bitboard move = candidates & column_cells(column_order_[i]);
        if (!move) continue;
        const int score = move_score(p, move);
        int j = count++;
        for (; j > 0 && scores[j - 1] < score; --j) {  // stable insertion: equal scores keep order
            scores[j] = scores[j - 1];
            out[j] = out[j - 1];
        }
        scores[j] = score;
        out[j] = move;
    }
    return count;
}

void ConnectFourSolver::count_node() {
    ++nodes_;
    if (interrupt_ && nodes_ % kPollEveryNodes == 0 && interrupt_->poll()) {
        throw std::runtime_error("the Connect Four solver was stopped");  // by another thread
    }
}

// The score within [alpha, beta] as a fail-soft bound: <= alpha means at most that, >= beta at
// least that. The side to move must not have an immediate win (callers check it first).
int ConnectFourSolver::negamax(const Position& p, int alpha, int beta) {
    count_node();
    const Bitboard candidates = non_losing_moves(p);
    if (!candidates) return -win_score(p.moves + 1);  // every move lets the opponent win
    if (p.moves >= cells_ - 2) return 0;  // no win left for either side in the last two cells

    // The opponent cannot win with its next disc (only with its second, after p.moves + 3
    // discs in all), nor can we with this one (only with our next, after p.moves + 2).
    const int lowest = -win_score(p.moves + 3);
    if (alpha < lowest && (alpha = lowest) >= beta) return alpha;
    const int highest = win_score(p.moves + 2);
    if (beta > highest && alpha >= (beta = highest)) return beta;

    const Bitboard key = key_of(p);
    int bound = 0;
    bool lower_bound = false;
    if (probe(key, bound, lower_bound)) {
        if (lower_bound && alpha < bound && (alpha = bound) >= beta) return alpha;
        if (!lower_bound && beta > bound && alpha >= (beta = bound)) return beta;
    }

    Bitboard moves[kMaxWidth];
    const int count = ordered_moves(p, candidates, moves);
    for (int i = 0; i < count; ++i) {
        const int score = -negamax(played(p, moves[i]), -beta, -alpha);
        if (score >= beta) {
            store(key, score, true);
            return score;
        }
        alpha = std::max(alpha, score);
    }
    store(key, alpha, false);
    return alpha;
}

// The exact score, by null-window searches that each halve the [lowest, highest] window
// (probing nearer zero first, where most scores are).
int ConnectFourSolver::solve_position(const Position& p) {
    if (can_win_next(p)) return win_score(p.moves);
    int lowest = -win_score(p.moves + 1);
    int highest = win_score(p.moves + 2);
    while (lowest < highest) {
        int middle = lowest + (highest - lowest) / 2;
        if (middle <= 0 && lowest / 2 < middle) middle = lowest / 2;
        else if (middle >= 0 && highest / 2 > middle) middle = highest / 2;
        const int score = negamax(p, middle, middle + 1);
        if (score <= middle) highest = score;
        else lowest = score;
    }
    return lowest;
}

// Bounds stored by a search cut off part-way may be wrong, so an interrupted search clears
// the table.
template <class Search>
auto ConnectFourSolver::interruptible(InterruptPoll* interrupt, Search&& search) -> decltype(search()) {
    interrupt_ = interrupt;
    try {
        auto result = search();
        interrupt_ = nullptr;
        return result;
    } catch (...) {
        interrupt_ = nullptr;
        std::fill(table_.begin(), table_.end(), 0);
        throw;
    }
}

int ConnectFourSolver::solve(const ConnectFour& state, InterruptPoll* interrupt) {
    check_solvable(state);
    set_geometry(state.width(), state.height());
    const Position p = position_of(state);
    return interruptible(interrupt, [&] { return solve_position(p); });
}

// Win when a score above 0 is proved, else loss when one below 0 is, else a draw.
int ConnectFourSolver::value_of_position(const Position& p) {
    if (can_win_next(p)) return 1;
    if (negamax(p, 0, 1) > 0) return 1;
    return negamax(p, -1, 0) < 0 ? -1 : 0;
}

int ConnectFourSolver::value(const ConnectFour& state, InterruptPoll* interrupt) {
    check_solvable(state);
    set_geometry(state.width(), state.height());
    const Position p = position_of(state);
    return interruptible(interrupt, [&] { return value_of_position(p); });
}

std::vector<std::optional<int>> ConnectFourSolver::move_scores(const ConnectFour& state,
                                                               InterruptPoll* interrupt) {
    check_solvable(state);
    set_geometry(state.width(), state.height());
    const Position p = position_of(state);
    const Bitboard wins = winning_cells(p.current, p.mask);
    const Bitboard key = p.current + p.mask;
    const bool symmetric = key == mirrored(key);
    return interruptible(interrupt, [&] {
        std::vector<std::optional<int>> found(width_);
        for (int c = 0; c < width_; ++c) {
            const Bitboard move = possible_moves(p) & column_cells(c);
            if (!move) continue;
            if (symmetric && c > width_ - 1 - c) found[c] = found[width_ - 1 - c];  // mirror move
            else if (move & wins) found[c] = win_score(p.moves);
            else if (p.moves + 1 == cells_) found[c] = 0;
            else found[c] = -solve_position(played(p, move));
        }
        return found;
    });
}

// current + mask stays within each column's stride bits (current is a subset of mask, and a
// column's mask is a run from the bottom), so the key's columns can be reversed as they are.
Bitboard ConnectFourSolver::mirrored(Bitboard columns) const {
    const Bitboard column = bit(stride_) - 1;
    Bitboard image = 0;
    for (int c = 0; c < width_; ++c) {
        image |= ((columns >> (c * stride_)) & column) << ((width_ - 1 - c) * stride_);
    }
    return image;
}

Bitboard ConnectFourSolver::key_of(const Position& p) const {
    const Bitboard key = p.current + p.mask;
    return std::min(key, mirrored(key));
}

void ConnectFourSolver::store(Bitboard key, int score, bool lower_bound) {
    const std::uint64_t code =
        static_cast<std::uint64_t>(score + kScoreOffset) | (lower_bound ? kLowerBoundFlag : 0);
    table_[key % table_.size()] = key << 8 | code;
}

bool ConnectFourSolver::probe(Bitboard key, int& score, bool& lower_bound) const {
    const std::uint64_t entry = table_[key % table_.size()];
    if ((entry & 0xFF) == 0 || (entry >> 8) != key) return false;
    lower_bound = (entry & kLowerBoundFlag) != 0;
    score = static_cast<int>(entry & 0x7F) - kScoreOffset;
    return true;
}

}  // namespace pyaz
