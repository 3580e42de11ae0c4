// Go on an n x n board, 5 <= n <= 19, with Tromp-Taylor area scoring.
//
// Board: a padded mailbox. Point (r, c) is index (r + 1) * (n + 1) + c; the column c = n and
// the rows above and below the board are border points, so every board point has four
// neighbours at -1, +1, -(n + 1) and +(n + 1) with no bounds checks. Stones form chains kept
// as circular linked lists with a head; each chain counts pseudo-liberties (empty neighbours
// counted once per adjacent stone) with their sum and sum of squares, so "in atari" (all
// pseudo-liberties are one point) is an O(1) test and a move updates only its neighbours.
//
// Actions are r*n + c with row 0 at the top (as in every pyaz game; the GTP name of row r is
// n - r, so action 0 is "A<n>"), and n*n is the pass. Rules:
// - captures; suicide is illegal, or with allow_suicide legal for groups of two or more stones
//   (a lone stone without liberties never is: it would leave the board unchanged);
// - simple ko always: a single stone that just captured a single stone cannot be retaken at once;
// - with superko, positional superko: no stone move may recreate an earlier board (Zobrist
//   hashes of every board since the start, stones only);
// - two consecutive passes end the game, and so does reaching max_game_length actions (passes
//   included; the default is 3*n*n); the result is the Tromp-Taylor area score at that point:
//   stones plus empty regions that reach only one colour, Black minus White minus komi.
// Random playouts are uniform over the legal actions, pass included (own eyes get filled too);
// that is why random games need the length cap.
//
// One capacity (19x19 plus border) serves every size: moves and playouts touch only the points
// of the board in use, while a copy moves the whole object (about 10 KB).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

struct GoRules {
    std::optional<double> komi;         // empty: Go::default_komi(size)
    bool superko = false;               // positional superko
    bool allow_suicide = false;         // multi-stone suicide legal (Tromp-Taylor, New Zealand)
    std::optional<int> max_game_length; // empty: Go::default_max_game_length(size)
    int history = 0;                    // earlier positions in encode(), 0..Go::kMaxHistory
};

class Go {
public:
    static constexpr int kMinSize = 5;
    static constexpr int kMaxSize = 19;
    static constexpr int kMaxActions = kMaxSize * kMaxSize + 1;
    static constexpr int kMaxPoints = (kMaxSize + 2) * (kMaxSize + 1);
    static constexpr int kNumPlanes = 4;  // without history planes
    static constexpr int kMaxHistory = 7;
    static constexpr const char* kName = "go";
    static constexpr bool kHasScore = true;  // see games/score.h

    // 7.5 from 9x9 up; 0 below (seed 003 plays 5x5 with komi 0, as its Pachi setup did).
    static double default_komi(int size) { return size >= 9 ? 7.5 : 0.0; }
    static int default_max_game_length(int size) { return 3 * size * size; }

    explicit Go(int size = 9, const GoRules& rules = GoRules{});

    int size() const { return size_; }
    int height() const { return size_; }
    int width() const { return size_; }
    int num_actions() const { return size_ * size_ + 1; }
    int num_planes() const { return kNumPlanes + 2 * history_; }
    Action pass_action() const { return size_ * size_; }
    double komi() const { return komi_; }
    bool superko() const { return superko_; }
    bool allow_suicide() const { return allow_suicide_; }
    int max_game_length() const { return max_game_length_; }
    int history() const { return history_; }
    GoRules rules() const;

    Status status() const { return status_; }
    int to_move() const { return to_move_; }
    int ply() const { return ply_; }
    int consecutive_passes() const { return passes_; }
    // Stones that `player` has captured (suicided stones count for the opponent).
    int captures(int player) const { return captures_[player]; }
    // The point the side to move may not play because of the simple ko rule, or kNoAction.
    Action ko_action() const { return ko_point_ < 0 ? kNoAction : action_of(ko_point_); }
    // Zobrist hash of the stones on the board (not the side to move).
    std::uint64_t board_hash() const { return hash_; }

    int num_legal_actions() const;
    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    Action random_action(Rng& rng) const;

    // Applies a legal action (unchecked; callers validate with is_legal).
    void apply(Action action) {
        if (action == pass_action()) pass();
        else play(point_of(action));
    }
    // Applies a uniformly random legal action (pass included); the game must not be over.
    void apply_random(Rng& rng);

    // Calls visit(child) for the state after each legal action, in action order.
    template <class Visit>
    void for_each_child(Visit&& visit) const {
        if (is_terminal(status_)) return;
        for (int r = 0; r < size_; ++r) {
            for (int p = point_of_cell(r, 0), end = p + size_; p < end; ++p) {
                if (color_[p] != kEmpty || !is_legal_on_empty(p)) continue;
                Go child = *this;
                child.play(p);
                visit(child);
            }
        }
        Go child = *this;
        child.pass();
        visit(child);
    }

    // Planes (n x n each): stones of the side to move, the opponent's, empty points, and a
    // constant plane that is 1 when Black is to move (komi is White's); then, with history h,
    // the side to move's and the opponent's stones 1, 2, .., h actions ago (all zero before
    // the start; a pass repeats the board).
    void encode(float* out) const;
    Cell cell(int row, int col) const { return static_cast<Cell>(color_[point_of_cell(row, col)]); }

    // Tromp-Taylor area of each colour: its stones plus the empty regions reaching only it.
    std::array<int, 2> area() const;
    // Black's area minus White's minus komi; positive means Black is ahead.
    double score() const;
    // score() from `player`'s view (komi included) / (n * n), clipped to [-1, 1].
    double final_score(int player) const;

    std::string to_string() const;
    // GTP vertex names: column letters A.. without I, row numbers from 1 at the bottom; "pass".
    std::string action_to_string(Action action) const;
    Action parse_action(const std::string& text) const;
    // Parses a board (str() output or bare rows of '.XO', '+' also empty); the side to move
    // is Black unless the text says "O to move".
    static Go from_text(const std::string& text, const GoRules& rules = GoRules{});
    // A start position with these rules and setup stones (SGF AB/AW), `to_move` to play.
    Go with_stones(const std::vector<Action>& black, const std::vector<Action>& white,
                   int to_move) const;

private:
    static constexpr std::int8_t kBorder = 3;
    static constexpr std::int16_t kNoPoint = -1;

    // Stones of one position as bit sets over actions (bit r*n + c), for history planes.
    struct Position {
        std::array<std::array<std::uint64_t, 6>, 2> stones;  // [player][word]

        void flip(int player, Action action) {
            stones[player][action >> 6] ^= std::uint64_t{1} << (action & 63);
        }
    };

    struct Chain {
        std::uint16_t pseudo_liberties;
        std::uint16_t stones;
        std::uint32_t liberty_sum;
        std::uint32_t liberty_sum_squares;

        void add_liberty(int point) {
            ++pseudo_liberties;
            liberty_sum += static_cast<std::uint32_t>(point);
            liberty_sum_squares += static_cast<std::uint32_t>(point * point);
        }
        void remove_liberty(int point) {
            --pseudo_liberties;
            liberty_sum -= static_cast<std::uint32_t>(point);
            liberty_sum_squares -= static_cast<std::uint32_t>(point * point);
        }
        // Exactly one liberty: all pseudo-liberties are the same point (n * sum(p^2) == sum(p)^2).
        bool in_atari() const {
            return std::uint64_t{pseudo_liberties} * liberty_sum_squares ==
                   std::uint64_t{liberty_sum} * liberty_sum;
        }
    };

    int point_of_cell(int row, int col) const { return (row + 1) * stride_ + col; }
    int point_of(Action action) const { return point_of_cell(action / size_, action % size_); }
    Action action_of(int point) const { return (point / stride_ - 1) * size_ + point % stride_; }
    std::array<int, 4> neighbours(int point) const {
        return {point - stride_, point - 1, point + 1, point + stride_};
    }
    bool is_stone(int point) const { return color_[point] == kFirst || color_[point] == kSecond; }
    static std::int8_t color_of(int player) { return static_cast<std::int8_t>(player + 1); }
    Chain& chain_at(int point) { return chains_[head_[point]]; }
    const Chain& chain_at(int point) const { return chains_[head_[point]]; }

    // Legality of a stone of the side to move on an empty point: ko, suicide, superko.
    bool is_legal_on_empty(int point) const;
    bool is_superko(int point) const;
    std::uint64_t chain_hash(int point) const;
    bool passes_suicide_rule(int point) const;
    void swap_empties(int i, int j);

    void play(int point);
    void pass();
    void end_turn();
    // Puts a stone and merges it with its own neighbours (no captures): play and setup.
    void add_stone(int point, std::int8_t color);
    void join_chains_around(int point, std::int8_t color);
    void merge_chain_into(int head, int other_head);
    // Removes the chain through `point`; returns its number of stones.
    int remove_chain(int point);
    void place_on_empty(int point, std::int8_t color);
    void clear_point(int point);
    void finish_game();
    void encode_history(float* out) const;

    std::array<std::int8_t, kMaxPoints> color_{};    // kEmpty, kFirst, kSecond or kBorder
    std::array<std::int16_t, kMaxPoints> head_{};    // chain head of a stone
    std::array<std::int16_t, kMaxPoints> next_{};    // next stone of its chain (circular)
    std::array<Chain, kMaxPoints> chains_{};         // valid at chain heads
    std::array<std::int16_t, kMaxSize * kMaxSize> empties_{};  // empty points, any order
    std::array<std::int16_t, kMaxPoints> empty_index_{};       // position in empties_
    std::vector<std::uint64_t> superko_hashes_;      // board hashes so far (superko only)
    std::array<Position, kMaxHistory> past_{};       // before action i: past_[i % kMaxHistory]
    Position now_{};                                 // kept only with history > 0
    std::uint64_t hash_ = 0;
    double komi_ = 7.5;
    std::array<int, 2> captures_{};
    int max_game_length_ = 0;
    int history_ = 0;
    int ply_ = 0;
    std::int16_t num_empty_ = 0;
    std::int16_t ko_point_ = kNoPoint;
    std::int8_t size_ = 9;
    std::int8_t stride_ = 10;
    std::int8_t to_move_ = 0;
    std::int8_t passes_ = 0;
    bool superko_ = false;
    bool allow_suicide_ = false;
    Status status_ = Status::kOngoing;
};

}  // namespace pyaz
