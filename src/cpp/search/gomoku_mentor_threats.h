// Threat-space search for the Gomoku mentor: VCF (victory by continuous fours: every attacking
// move makes a four, so the reply is forced) and VCT (victory by continuous threats: fours and
// open threes; after a three the defender may take any cell that stops the coming open four, or
// counter with a four of its own, and the attacker must win against each).
//
// Both are proofs, not guesses: a line is reported only if the attacker wins against every
// defence the rules allow. The defences tried after a three are a superset of the useful ones:
// the three leaves a cell y where the attacker makes an open four (or two fours) with winning
// cells f1, f2; a defender stone anywhere but y, f1 or f2 that is not itself a four lets the
// attacker play y and win, so only those cells and the defender's fours need searching.
#pragma once

#include <cstdint>
#include <vector>

#include "search/gomoku_mentor_board.h"
#include "search/gomoku_mentor_budget.h"

namespace pyaz::mentor {

// Remembers positions where a threat search failed, keyed by position hash, with the depth it
// failed at (a fail at depth d is a fail at any smaller depth). Cleared by generation.
class FailTable {
public:
    explicit FailTable(int log2_size = 18) : entries_(std::size_t{1} << log2_size) {}

    void new_generation() { ++generation_; }
    bool failed(std::uint64_t key, int depth) const {
        const Entry& e = entries_[key & (entries_.size() - 1)];
        return e.generation == generation_ && e.key == key && e.depth >= depth;
    }
    void store(std::uint64_t key, int depth) {
        Entry& e = entries_[key & (entries_.size() - 1)];
        e = {key, generation_, static_cast<std::int16_t>(depth)};
    }

private:
    struct Entry {
        std::uint64_t key = 0;
        std::uint32_t generation = 0;
        std::int16_t depth = -1;
    };
    std::vector<Entry> entries_;
    std::uint32_t generation_ = 1;
};

// Depth limits: attacking moves of the side to move (fours for VCF, threes and fours for VCT).
struct ThreatLimits {
    int vcf_depth = 12;
    int vct_depth = 6;
    // VCF depth tried at every VCT node (the attacker's own and the defender's counter-VCF).
    int vcf_depth_in_vct = 6;
};

class ThreatSearch {
public:
    ThreatSearch(Board& board, Budget& budget, FailTable& vcf_fails, FailTable& vct_fails,
                 const ThreatLimits& limits)
        : board_(board), budget_(budget), vcf_fails_(vcf_fails), vct_fails_(vct_fails),
          limits_(limits) {}

    // Searches a VCF / VCT for the side to move. On success `line` holds padded cells: the
    // attacker's moves and the defender's replies in turn (one reply of many after a three),
    // ending with the five; the board is left as it was either way.
    // Both deepen iteratively: the shortest line (in attacking moves) within max_depth.
    bool find_vcf(int max_depth, std::vector<int>& line);
    bool find_vct(int max_depth, std::vector<int>& line);

    // The cells where the side to move can stop the opponent's threat of an open four (or of
    // two fours): the smallest set {y, f1, f2} over the opponent's cells y that make one,
    // plus the side to move's own fours. Empty when the opponent has no such cell.
    std::vector<int> defences_against_open_four();

private:
    // What a VCF or VCT node holds before any move is tried: the attacker to move completes a
    // five or has a winning four the defender cannot answer with a five (won, the line
    // recorded), the defender has two fives to stop (lost), or neither (open).
    enum class Verdict { kWon, kLost, kOpen };
    Verdict immediate_verdict();
    bool vcf_node(int depth);
    bool vct_node(int depth);
    bool defend_node(int depth);
    // The cells the side to move tries in a VCT node (all of them make a three or a four).
    std::vector<int> vct_moves() const;
    std::vector<int> four_moves() const;
    void sort_by_strength(std::vector<int>& cells, int colour) const;
    // Records the line: the moves on the board since the search began, then `finish`.
    void record(std::initializer_list<int> finish);
    // Records the win of a side to move with an open four or double four at `cell`.
    void record_winning_four(int cell);
    void play(int cell);
    void undo();

    Board& board_;
    Budget& budget_;
    FailTable& vcf_fails_;
    FailTable& vct_fails_;
    ThreatLimits limits_;
    std::vector<int> path_;
    std::vector<int> found_;
};

}  // namespace pyaz::mentor
