// Othello / Reversi on an n x n board, 4 <= n <= 8, on two 64-bit bitboards.
//
// Squares are bits r*8 + c of one word whatever n is (the unused columns and rows stay empty);
// actions are r*n + c, and n*n is the pass. Start: the standard centred 2x2 block; on odd n the
// block sits on rows/columns n/2-1 and n/2 (as in alpha-zero-general). Black (player 0) moves
// first. Pass is the only legal action when the side to move has no placement but the opponent
// has one; the game ends when neither side can move, and the side with more discs wins.
#pragma once

#include <string>

#include "core/bitboard.h"
#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

class Othello {
public:
    static constexpr int kMinSize = 4;
    static constexpr int kMaxSize = 8;
    static constexpr int kMaxActions = kMaxSize * kMaxSize + 1;
    static constexpr int kNumPlanes = 2;
    static constexpr const char* kName = "othello";
    static constexpr bool kHasScore = true;  // see games/score.h

    explicit Othello(int size = 8);

    int size() const { return size_; }
    int height() const { return size_; }
    int width() const { return size_; }
    int num_actions() const { return size_ * size_ + 1; }
    int num_planes() const { return kNumPlanes; }
    Action pass_action() const { return size_ * size_; }

    Status status() const { return status_; }
    int to_move() const { return to_move_; }
    int ply() const { return ply_; }

    // Placements of the side to move as a bitboard (bit r*8 + c).
    Bitboard placements() const { return moves_; }
    int num_legal_actions() const;
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    Action random_action(Rng& rng) const;

    // Applies a legal action (unchecked; callers validate with is_legal).
    void apply(Action action);
    // Applies a uniformly random legal action; the game must not be over.
    void apply_random(Rng& rng);

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        if (moves_ == 0) {
            Othello child = *this;
            child.pass();
            visit(child);
            return;
        }
        for (Bitboard b = moves_; b;) {
            Othello child = *this;
            child.place(pop_lowest_bit(b));
            visit(child);
        }
    }

    // Network input, C x n x n floats: discs of the side to move, then the opponent's.
    void encode(float* out) const;
    Cell cell(int row, int col) const;
    int disc_count(int player) const;
    // (discs of `player` - discs of the other) / (n * n), in [-1, 1]: the final disc
    // difference as a score target (empty squares count for nobody).
    double final_score(int player) const;

    std::string to_string() const;
    std::string action_to_string(Action action) const;
    Action parse_action(const std::string& text) const;
    // Parses a board; the side to move is Black unless the text says "O to move".
    static Othello from_text(const std::string& text);

private:
    void place(int square);
    void pass();
    void update_after_turn();
    int random_square(Rng& rng) const {
        return nth_set_bit(moves_, static_cast<int>(rng.below(popcount(moves_))));
    }  // recomputes moves and detects the end of the game
    Bitboard valid() const;
    int square_of(Action action) const { return (action / size_) * 8 + action % size_; }
    Action action_of(int square) const { return (square >> 3) * size_ + (square & 7); }

    Bitboard own_ = 0;       // discs of the side to move
    Bitboard opponent_ = 0;  // discs of the other side
    Bitboard moves_ = 0;     // placements of the side to move
    std::int16_t ply_ = 0;
    std::int8_t size_ = 8;
    std::int8_t to_move_ = 0;
    Status status_ = Status::kOngoing;
};

// Placements for `own` against `opponent` on an n x n board (bitboards with 8-bit rows).
Bitboard othello_moves(Bitboard own, Bitboard opponent, int size);
// Discs flipped when `own` places on `square` (any board size: off-board squares are empty).
Bitboard othello_flips(Bitboard own, Bitboard opponent, int square);

}  // namespace pyaz
