// The Gomoku mentor's alpha-beta: iterative deepening principal variation search over the moves
// near the stones, ordered by pattern strength and cut to the strongest few below the root, with
// forced moves (blocking a five) played without using depth, and a transposition table.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "search/gomoku_mentor_board.h"
#include "search/gomoku_mentor_budget.h"
#include "search/gomoku_mentor_threats.h"

namespace pyaz::mentor {

constexpr int kWin = 1000000;       // a win at ply p scores kWin - p
constexpr int kInfinity = 2 * kWin;
constexpr int kMaxPly = 64;

// Alpha-beta results by position: score, bound, depth and the best move (for ordering).
class MoveTable {
public:
    enum Bound : std::uint8_t { kExact, kLower, kUpper };
    struct Entry {
        std::uint64_t key = 0;
        std::uint32_t generation = 0;
        std::int32_t score = 0;
        std::int16_t depth = 0;
        std::int16_t move = kNoCell;
        Bound bound = kExact;
    };

    explicit MoveTable(int log2_size = 19) : entries_(std::size_t{1} << log2_size) {}
    void new_generation() { ++generation_; }
    const Entry* probe(std::uint64_t key) const {
        const Entry& e = entries_[key & (entries_.size() - 1)];
        return e.generation == generation_ && e.key == key ? &e : nullptr;
    }
    void store(std::uint64_t key, int depth, int score, Bound bound, int move) {
        Entry& e = entries_[key & (entries_.size() - 1)];
        e = {key, generation_, score, static_cast<std::int16_t>(depth), static_cast<std::int16_t>(move),
             bound};
    }

private:
    std::vector<Entry> entries_;
    std::uint32_t generation_ = 1;
};

// Priority of a move for the side `colour`: its own threat and the opponent's threat it takes
// away, then the pattern worth of the cell to both.
int move_priority(const Board& board, int colour, int cell);

struct RootResult {
    int move = kNoCell;
    int score = 0;
    int depth = 0;  // last completed iteration
    // (cell, score) of the root moves from the last completed iteration; scores below the
    // best minus the margin are upper bounds only.
    std::vector<std::pair<int, int>> scores;
};

class AlphaBeta {
public:
    AlphaBeta(Board& board, Budget& budget, MoveTable& table, ThreatSearch& threats)
        : board_(board), budget_(budget), table_(table), threats_(threats) {}

    // Searches the root moves (non-empty) to max_depth or until the budget stops it. With
    // margin > 0, every root move scoring within `margin` of the best gets an exact score.
    RootResult run(std::vector<int> root_moves, int max_depth, int margin);

private:
    int search(int depth, int alpha, int beta, int ply);
    // True (with the score) when the side to move has won or lost already: a five to play, two
    // opponent fives to face, or an open four to make against no opponent five.
    bool decided(int ply, int& score) const;
    int leaf_value() const;
    void generate(int ply, int table_move, std::vector<int>& out);
    // Searches one root move; returns false if the budget stopped it.
    bool search_root_move(int move, int depth, int floor, bool first, int& score);

    Board& board_;
    Budget& budget_;
    MoveTable& table_;
    ThreatSearch& threats_;
    std::array<std::vector<int>, kMaxPly + 1> moves_;
};

}  // namespace pyaz::mentor
