// The Gomoku mentor of seed 004 (AlphaGomoku, section IV-C: "a rule-based tree search Gomoku AI
// as the mentor"): a free-style Gomoku player built from line patterns, threat-space search and
// a shallow alpha-beta. Its games are the networks' imitation data, and it is their yardstick.
//
// One move, in this order (each step only if the ones before found nothing):
//   1. "win":    complete a five.
//   2. "block":  take the opponent's winning cell.
//   3. "vcf":    the first move of a victory by continuous fours.
//   4. "vct":    the first move of a victory by continuous threats (threes and fours); it is a
//                proof against every defence, so it comes before defending.
//   5. "defend": the opponent would win by VCF (or VCT) if it were to move: search only the
//                moves after which it no longer does (when there are some).
//   6. "search": iterative-deepening alpha-beta (principal variation search, a transposition
//                table on Zobrist keys, moves ordered and pruned by pattern strength) within the
//                time and node limits. With `randomness` > 0 it picks at random among the moves
//                scoring within a margin of the best, so that mentor-vs-mentor games differ.
// Free-style rules: line_length 5 on boards 9..15, overlines winning or not (the board's rule).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "games/gomoku.h"

namespace pyaz {

struct GomokuMentorOptions {
    double time_ms = 1000.0;    // per move; 0: no time limit
    std::int64_t max_nodes = 0;  // per move, all phases together; 0: no node limit
    int max_depth = 0;           // alpha-beta depth; 0: as deep as the limits allow (up to 64)
    // 0: deterministic. Otherwise moves scoring within randomness * kRandomMargin of the best
    // (an open three is worth about kRandomMargin) are candidates, picked uniformly.
    double randomness = 0.0;
    std::uint64_t seed = 0;
    int vcf_depth = 12;  // attacking fours in a VCF
    int vct_depth = 6;   // attacking threes and fours in a VCT
};

// What the last choose() did.
struct GomokuMentorInfo {
    std::string reason;             // "opening", "win", "block", "vcf", "vct", "defend", "search",
                                    // "none" (forced_moves only)
    int depth = 0;                  // completed alpha-beta depth (0 if it did not run)
    std::int64_t nodes = 0;         // nodes of every phase
    int score = 0;                  // alpha-beta score for the mover (wins near +-1,000,000)
    double time_ms = 0.0;
    std::vector<Action> line;       // the forced line when reason is vcf / vct
    std::vector<Action> threat;     // the opponent's forced line that "defend" answered
    bool answers_complete = true;   // false: the budget ran out before every answer was tried
    int root_moves = 0;             // moves the alpha-beta chose among
    int candidates = 0;             // moves within the random margin (1 when deterministic)
    // (action, score) of the root moves in the last completed alpha-beta iteration, best
    // first; a score below the best minus the random margin is only an upper bound.
    std::vector<std::pair<Action, int>> root_scores;
};

// How read_threats() reads a position; the names (threat_verdict_name) are Python's.
enum class ThreatVerdict : int { kNone, kWin, kBlock, kVcf, kVct, kDefend, kLost, kUnproven };
constexpr int kNumThreatVerdicts = 8;
const char* threat_verdict_name(ThreatVerdict verdict);

struct ThreatReading {
    ThreatVerdict verdict = ThreatVerdict::kNone;
    std::vector<Action> moves;
};

constexpr int kThreatSearchPlanes = 4;

class GomokuMentor {
public:
    static constexpr int kMinSize = 9;
    static constexpr int kMaxSize = 15;
    static constexpr int kRandomMargin = 400;
    static constexpr int kWinScore = 1000000;
    static constexpr double kMaxTimeMs = 86'400'000.0;  // a day: the largest time_ms taken

    // Fails (std::invalid_argument naming time_ms) if time_ms > kMaxTimeMs (a larger one would
    // overflow the clock's deadline into an instant move).
    static void check_time_ms(double time_ms);

    explicit GomokuMentor(const GomokuMentorOptions& options);
    ~GomokuMentor();
    GomokuMentor(const GomokuMentor&) = delete;
    GomokuMentor& operator=(const GomokuMentor&) = delete;

    const GomokuMentorOptions& options() const { return options_; }

    // The mentor's move. ValueError (std::invalid_argument) for a finished game or a board the
    // mentor does not play (size outside 9..15, line_length other than 5). `interrupted` is
    // polled every few milliseconds; when it returns true the search stops and the best move
    // so far is returned (the caller raises).
    Action choose(const Gomoku& state, const std::function<bool()>& interrupted = {});
    // A copy, taken under the lock (a call from another thread may be writing it).
    GomokuMentorInfo last_info() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return info_;
    }

    // The threat analysis of choose() without its opening book and alpha-beta, within the same
    // limits: the one move that a five or a forced win dictates (reason "win", "block", "vcf",
    // "vct"), else the moves after which the opponent no longer wins by force ("defend"; empty
    // when none of the moves tried does: the strongest 24 (VCT) or 40 (VCF) candidates, the
    // threat's cells and our fours; incomplete unless info.answers_complete), else none
    // ("none"). Same input errors as choose().
    std::vector<Action> forced_moves(const Gomoku& state, const std::function<bool()>& interrupted = {});

    // forced_moves() read as a verdict and its moves: a five, a block or a forced win dictates
    // one move (kWin, kBlock, kVcf, kVct); kDefend and every move that stops the opponent's
    // forced win; kLost (no move tried stops it, or the opponent has two fives to complete);
    // kUnproven (the budget ran out before every answer was tried: proves nothing); kNone.
    // Same input errors as choose().
    ThreatReading read_threats(const Gomoku& state, const std::function<bool()>& interrupted = {});

    // The threat-search planes of pyaz.nets.threat_search for `state` (kThreatSearchPlanes
    // planes of size*size floats, written whole into `out`): the move a kWin / kBlock / kVcf /
    // kVct dictates; the moves of kDefend; ones when a forced win is ours; ones when kLost.
    // A finished game gets zeros and kNone. Same input errors as choose() otherwise.
    ThreatVerdict threat_search_planes(const Gomoku& state, float* out,
                                       const std::function<bool()>& interrupted = {});

    // A VCF / VCT for the side to move as actions (attacker, reply, attacker, ..., the five), or
    // empty if none was found within the limits. Same input errors as choose().
    std::vector<Action> find_vcf(const Gomoku& state, int max_depth, std::int64_t max_nodes,
                                 const std::function<bool()>& interrupted = {});
    std::vector<Action> find_vct(const Gomoku& state, int max_depth, std::int64_t max_nodes,
                                 double time_ms, const std::function<bool()>& interrupted = {});

    // Throws std::invalid_argument naming the problem if the mentor cannot play `state`.
    static void check_playable(const Gomoku& state);

    // What a stone of `colour` would make on each cell, r*n + c order (occupied: kQuiet): the
    // mentor::Threat codes 0 quiet, 1 three, 2 three-three, 3 four, 4 four-three, 5 open four
    // or double four, 6 five. Same input errors as choose() except that the game may be over.
    static std::vector<int> threat_map(const Gomoku& state, int colour);

    struct Tables;  // the search tables (gomoku_mentor.cpp), kept between calls to save allocations

private:
    mutable std::mutex mutex_;  // one call at a time: the tables and info_ are shared
    GomokuMentorOptions options_;
    std::unique_ptr<Tables> tables_;
    Rng rng_;
    GomokuMentorInfo info_;
};

}  // namespace pyaz
