// An exact Connect Four solver (a perfect-play oracle) for boards up to 7 columns x 6 rows,
// after the techniques of Pascal Pons' public write-up of his solver (own code):
//   - a bitboard position: the side to move's discs and the occupied cells, one column being
//     height + 1 bits (a guard bit on top, so that line shifts never wrap between columns);
//   - negamax with alpha-beta on the exact score, only over moves that do not hand the
//     opponent an immediate win (a forced block when there is one; a loss when there are two);
//   - a transposition table keyed by discs + occupied (unique per position) taken the same
//     for a position and its mirror image (the smaller of the two keys), storing upper or
//     lower bounds;
//   - moves ordered by the winning cells they create (threats), ties centre-first;
//   - the exact score by iterated null-window searches that halve [min, max].
//
// Score (for the side to move, as Pons): 0 for a draw; a win with the mover's k-th disc of the
// game scores cells/2 + 1 - k (rounded down for an odd number of cells: (cells + 1 - n) / 2
// when the win is the move after n discs in all), so a sooner win is larger; a loss is the
// negative of the opponent's win score.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/bitboard.h"
#include "games/connect_four.h"
#include "search/interrupt.h"

namespace pyaz {

class ConnectFourSolver {
public:
    static constexpr int kMaxWidth = 7;
    static constexpr int kMaxHeight = 6;
    // A prime number of entries (8 bytes each, 64 MiB): keys spread well modulo a prime.
    static constexpr std::size_t kDefaultTableEntries = 8388593;

    explicit ConnectFourSolver(std::size_t table_entries = kDefaultTableEntries);

    // ValueError (std::invalid_argument) for a board above 7 columns x 6 rows or a finished game.
    static void check_solvable(const ConnectFour& state);

    // The exact score of `state` for the side to move. `interrupt` (optional) is polled every
    // few thousand nodes; what its check throws stops the search and, after the table is
    // cleared (bounds from a search cut off part-way may be wrong), leaves the call.
    int solve(const ConnectFour& state, InterruptPoll* interrupt = nullptr);

    // The game-theoretic value for the side to move (+1 win, 0 draw, -1 loss) without the
    // exact score: two null-window searches. Interrupted as solve().
    int value(const ConnectFour& state, InterruptPoll* interrupt = nullptr);

    // For each column, the exact score after playing it, for the player who plays it (nullopt
    // for a full column). Interrupted as solve().
    std::vector<std::optional<int>> move_scores(const ConnectFour& state, InterruptPoll* interrupt = nullptr);

    // Nodes searched since construction (or the last clear()).
    std::int64_t nodes() const { return nodes_; }
    void clear();

    // The bitboard position the solver works on; public so that its helpers need no friends.
    struct Position {
        Bitboard current = 0;  // discs of the side to move
        Bitboard mask = 0;     // occupied cells
        int moves = 0;         // discs played
    };

private:
    void set_geometry(int width, int height);
    Position position_of(const ConnectFour& state) const;

    // Board geometry.
    Bitboard possible_moves(const Position& p) const { return (p.mask + bottom_) & board_; }
    Bitboard winning_cells(Bitboard discs, Bitboard mask) const;
    Bitboard column_cells(int column) const { return column_mask_ << (column * stride_); }
    bool can_win_next(const Position& p) const {
        return (winning_cells(p.current, p.mask) & possible_moves(p)) != 0;
    }
    Bitboard non_losing_moves(const Position& p) const;
    static Position played(const Position& p, Bitboard move) {
        return Position{p.current ^ p.mask, p.mask | move, p.moves + 1};
    }
    int move_score(const Position& p, Bitboard move) const {
        return popcount(winning_cells(p.current | move, p.mask));
    }
    int win_score(int moves) const { return (cells_ + 1 - moves) / 2; }

    // Search.
    int solve_position(const Position& p);
    int value_of_position(const Position& p);
    // Runs `search` with `interrupt` polled; clears the table when it throws.
    template <class Search>
    auto interruptible(InterruptPoll* interrupt, Search&& search) -> decltype(search());
    int negamax(const Position& p, int alpha, int beta);
    int ordered_moves(const Position& p, Bitboard candidates, Bitboard* out) const;
    void count_node();

    // Transposition table: entry = key << 8 | code; code 0 is empty, bit 7 marks a lower bound
    // and bits 0..6 hold score + 64.
    // Mirror images share one key: the smaller of the position's key and its mirror's.
    Bitboard key_of(const Position& p) const;
    Bitboard mirrored(Bitboard columns) const;
    void store(Bitboard key, int score, bool lower_bound);
    bool probe(Bitboard key, int& score, bool& lower_bound) const;

    int width_ = 0;
    int height_ = 0;
    int stride_ = 0;
    int cells_ = 0;
    Bitboard bottom_ = 0;
    Bitboard board_ = 0;
    Bitboard column_mask_ = 0;
    int column_order_[kMaxWidth] = {};
    std::vector<std::uint64_t> table_;
    std::int64_t nodes_ = 0;
    InterruptPoll* interrupt_ = nullptr;
};

}  // namespace pyaz
