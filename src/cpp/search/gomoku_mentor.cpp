#include "search/gomoku_mentor.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

#include "search/gomoku_mentor_alphabeta.h"
#include "search/gomoku_mentor_board.h"
#include "search/gomoku_mentor_budget.h"
#include "search/gomoku_mentor_threats.h"

namespace pyaz {

struct GomokuMentor::Tables {
    mentor::FailTable vcf{18};
    mentor::FailTable vct{16};
    mentor::MoveTable moves{19};

    // Each call starts afresh, so that a call's result depends only on its input.
    void new_generation() {
        vcf.new_generation();
        vct.new_generation();
        moves.new_generation();
    }
};

namespace {

using mentor::Board;
using mentor::Budget;
using mentor::kNoCell;
using mentor::ThreatSearch;

// Shares of the remaining budget, and node caps so that every phase ends even with no limit.
constexpr double kOwnVcfShare = 0.1;
constexpr double kOwnVctShare = 0.25;
constexpr double kTheirVcfShare = 0.1;
constexpr double kTheirVctShare = 0.15;
constexpr double kRefuteShare = 0.4;
constexpr std::int64_t kVcfNodeCap = 200000;
constexpr std::int64_t kVctNodeCap = 500000;
constexpr std::int64_t kRefuteNodeCap = 2000000;
constexpr int kVcfInVct = 6;
// Moves tried as answers to a VCF / VCT threat (the strongest-looking ones, besides the cells
// of the threat's own line and our fours), and the alpha-beta's root moves.
constexpr std::size_t kVcfAnswers = 40;
constexpr std::size_t kVctAnswers = 24;
constexpr std::size_t kRootWidth = 30;

std::vector<Action> to_actions(const Board& board, const std::vector<int>& cells) {
    std::vector<Action> actions;
    for (int cell : cells) actions.push_back(board.action_of(cell));
    return actions;
}

// The candidate cells, strongest first for the side to move.
std::vector<int> ranked_candidates(const Board& board) {
    std::vector<int> cells;
    for (int cell : board.cells()) {
        if (board.is_candidate(cell)) cells.push_back(cell);
    }
    const int colour = board.to_move();
    std::stable_sort(cells.begin(), cells.end(), [&](int a, int b) {
        return mentor::move_priority(board, colour, a) > mentor::move_priority(board, colour, b);
    });
    return cells;
}

void add_unique(std::vector<int>& cells, int cell) {
    if (std::find(cells.begin(), cells.end(), cell) == cells.end()) cells.push_back(cell);
}

// One choose() call: the steps listed in gomoku_mentor.h, one function each.
class Turn {
public:
    Turn(const GomokuMentorOptions& options, GomokuMentor::Tables& tables, Rng& rng,
         GomokuMentorInfo& info, Board& board, Budget& budget)
        : options_(options), tables_(tables), rng_(rng), info_(info), board_(board),
          budget_(budget), threats_(board, budget, tables.vcf, tables.vct, limits(options)) {}

    int decide() {
        int cell = kNoCell;
        if (opening(cell) || immediate(cell) || own_threat(cell)) return cell;
        std::vector<int> roots = answers_to_threat();
        info_.reason = roots.empty() ? "search" : "defend";
        if (roots.empty()) roots = root_moves();
        return search(roots);
    }

    // Steps 1-5 without the opening and the alpha-beta: the one move that a five or a forced
    // win of ours dictates, else the answers to the opponent's forced win (reason "defend"),
    // else nothing (reason "none"; also "defend" with no answer found: every move loses).
    std::vector<int> forced() {
        int cell = kNoCell;
        if (immediate(cell) || own_threat(cell)) return {cell};
        std::vector<int> answers = answers_to_threat();
        info_.reason = info_.threat.empty() ? "none" : "defend";
        return answers;
    }

private:
    static mentor::ThreatLimits limits(const GomokuMentorOptions& options) {
        return {options.vcf_depth, options.vct_depth, kVcfInVct};
    }

    bool opening(int& cell) {
        if (board_.stone_count() > 0) return false;
        const int centre = board_.size() / 2;
        int row = centre, col = centre;
        if (options_.randomness > 0.0) {  // anywhere in the central 3x3
            row += static_cast<int>(rng_.below(3)) - 1;
            col += static_cast<int>(rng_.below(3)) - 1;
        }
        cell = board_.cell_of(row * board_.size() + col);
        info_.reason = "opening";
        return true;
    }

    bool immediate(int& cell) {
        const int colour = board_.to_move();
        if (board_.count(colour, mentor::kFiveThreat) > 0) {
            cell = board_.find(colour, mentor::kFiveThreat);
            info_.reason = "win";
            return true;
        }
        if (board_.count(colour ^ 1, mentor::kFiveThreat) > 0) {
            cell = board_.find(colour ^ 1, mentor::kFiveThreat);
            info_.reason = "block";
            return true;
        }
        return false;
    }

    bool own_threat(int& cell) {
        std::vector<int> line;
        budget_.begin_phase(kOwnVcfShare, kVcfNodeCap);
        bool found = threats_.find_vcf(options_.vcf_depth, line);
        info_.reason = "vcf";
        if (!found) {
            budget_.begin_phase(kOwnVctShare, kVctNodeCap);
            found = threats_.find_vct(options_.vct_depth, line);
            info_.reason = "vct";
        }
        budget_.end_phase();
        if (!found) return false;
        info_.line = to_actions(board_, line);
        cell = line.front();
        return true;
    }

    // If the opponent, were it to move, would win by VCF (else VCT): the moves after which it
    // no longer would. Empty when there is no such threat, or no answer was found.
    std::vector<int> answers_to_threat() {
        std::vector<int> line;
        board_.pass();
        budget_.begin_phase(kTheirVcfShare, kVcfNodeCap);
        const bool vcf = threats_.find_vcf(options_.vcf_depth, line);
        bool vct = false;
        if (!vcf) {
            budget_.begin_phase(kTheirVctShare, kVctNodeCap);
            vct = threats_.find_vct(options_.vct_depth, line);
        }
        budget_.end_phase();
        board_.undo();
        if (!vcf && !vct) return {};
        info_.threat = to_actions(board_, line);

        std::vector<int> tries = ranked_candidates(board_);
        tries.resize(std::min(tries.size(), vcf ? kVcfAnswers : kVctAnswers));
        for (int cell : line) add_unique(tries, cell);
        for (int cell : board_.cells()) {
            if (board_.threat(board_.to_move(), cell) >= mentor::kFour) add_unique(tries, cell);
        }
        std::vector<int> answers;
        budget_.begin_phase(kRefuteShare, kRefuteNodeCap);
        for (int cell : tries) {
            const bool threatened = threatened_after(cell, vct);
            if (budget_.stopped()) {  // unknown: not an answer, and the rest untried
                info_.answers_complete = false;
                break;
            }
            if (!threatened) answers.push_back(cell);
        }
        budget_.end_phase();
        return answers;
    }

    // Whether the opponent still wins by VCF (or VCT) after our move at `cell`. A four of ours
    // only delays: the opponent's forced block is played and the threat asked again.
    bool threatened_after(int cell, bool vct) {
        const int colour = board_.to_move();
        board_.play(cell);
        std::array<int, 8> fives{};
        const bool four = board_.fives_near(colour, cell, fives) == 1;
        if (four) {
            board_.play(fives[0]);
            board_.pass();
        }
        std::vector<int> line;
        const bool threatened = vct ? threats_.find_vct(options_.vct_depth, line)
                                    : threats_.find_vcf(options_.vcf_depth, line);
        if (four) {
            board_.undo();
            board_.undo();
        }
        board_.undo();
        return threatened;
    }

    std::vector<int> root_moves() const {
        std::vector<int> moves = ranked_candidates(board_);
        if (moves.size() > kRootWidth) moves.resize(kRootWidth);
        if (moves.empty()) {  // cannot happen with a stone on the board, but stay safe
            for (int cell : board_.cells()) {
                if (board_.is_empty(cell)) moves.push_back(cell);
            }
        }
        return moves;
    }

    int search(const std::vector<int>& roots) {
        const int margin = static_cast<int>(std::lround(options_.randomness * GomokuMentor::kRandomMargin));
        const int max_depth = options_.max_depth > 0 ? options_.max_depth : mentor::kMaxPly;
        mentor::AlphaBeta alpha_beta(board_, budget_, tables_.moves, threats_);
        const mentor::RootResult result = alpha_beta.run(roots, max_depth, margin);
        info_.depth = result.depth;
        info_.score = result.score;
        info_.root_moves = static_cast<int>(roots.size());
        for (const auto& [cell, score] : result.scores) info_.root_scores.emplace_back(board_.action_of(cell), score);
        return pick(result, margin);
    }

    // The best move, or with a margin a uniform pick among the moves scoring within it.
    int pick(const mentor::RootResult& result, int margin) {
        info_.candidates = 1;
        constexpr int kMateBound = mentor::kWin - 1000;
        if (margin <= 0 || result.score > kMateBound || result.score < -kMateBound) return result.move;
        std::vector<int> close;
        for (const auto& [cell, score] : result.scores) {
            if (score >= result.score - margin) close.push_back(cell);
        }
        if (close.empty()) return result.move;
        info_.candidates = static_cast<int>(close.size());
        return close[rng_.below(static_cast<std::uint32_t>(close.size()))];
    }

    const GomokuMentorOptions& options_;
    GomokuMentor::Tables& tables_;
    Rng& rng_;
    GomokuMentorInfo& info_;
    Board& board_;
    Budget& budget_;
    ThreatSearch threats_;
};

// One call's setup around `step(turn)`: fresh tables, the state's board, the options' budget,
// and the nodes and time it took in `info`.
template <class Step>
auto run_turn(const GomokuMentorOptions& options, GomokuMentor::Tables& tables, Rng& rng,
              GomokuMentorInfo& info, const Gomoku& state, const std::function<bool()>& interrupted,
              Step step) {
    tables.new_generation();
    Board board(state);
    Budget budget(options.max_nodes, options.time_ms, interrupted);
    info = GomokuMentorInfo{};
    Turn turn(options, tables, rng, info, board, budget);
    auto cells = step(turn);
    info.nodes = budget.nodes();
    info.time_ms = budget.elapsed_ms();
    return to_actions(board, cells);
}

// forced_moves()'s result and info read as a verdict (GomokuMentor::read_threats).
ThreatReading reading_of(const GomokuMentorInfo& info, const Gomoku& state, std::vector<Action> moves) {
    const auto reading = [&moves](ThreatVerdict verdict) { return ThreatReading{verdict, std::move(moves)}; };
    if (info.reason == "win") return reading(ThreatVerdict::kWin);
    if (info.reason == "vcf") return reading(ThreatVerdict::kVcf);
    if (info.reason == "vct") return reading(ThreatVerdict::kVct);
    if (info.reason == "block") {
        const bool two_fives = Board(state).count(state.to_move() ^ 1, mentor::kFiveThreat) >= 2;
        return two_fives ? ThreatReading{ThreatVerdict::kLost, {}} : reading(ThreatVerdict::kBlock);
    }
    if (info.reason == "defend") {
        if (!info.answers_complete) return {ThreatVerdict::kUnproven, {}};
        return moves.empty() ? ThreatReading{ThreatVerdict::kLost, {}} : reading(ThreatVerdict::kDefend);
    }
    return {ThreatVerdict::kNone, {}};
}

}  // namespace

GomokuMentor::GomokuMentor(const GomokuMentorOptions& options)
    : options_(options), tables_(std::make_unique<Tables>()), rng_(options.seed) {
    if (!(options.time_ms >= 0.0) || !std::isfinite(options.time_ms)) {
        fail("time_ms must be a finite number >= 0, got " + std::to_string(options.time_ms));
    }
    check_time_ms(options.time_ms);
    if (options.max_nodes < 0) fail("max_nodes must be >= 0, got " + std::to_string(options.max_nodes));
    if (options.max_depth < 0 || options.max_depth > mentor::kMaxPly) {
        fail("max_depth must be in 0..64, got " + std::to_string(options.max_depth));
    }
    if (options.time_ms == 0.0 && options.max_nodes == 0 && options.max_depth == 0) {
        fail("GomokuMentor needs a limit: time_ms, max_nodes or max_depth must be > 0");
    }
    if (!(options.randomness >= 0.0 && options.randomness <= 1.0)) {
        fail("randomness must be in [0, 1], got " + std::to_string(options.randomness));
    }
    if (options.vcf_depth < 1 || options.vcf_depth > 30) {
        fail("vcf_depth must be in 1..30, got " + std::to_string(options.vcf_depth));
    }
    if (options.vct_depth < 0 || options.vct_depth > 12) {
        fail("vct_depth must be in 0..12, got " + std::to_string(options.vct_depth));
    }
}

GomokuMentor::~GomokuMentor() = default;

void GomokuMentor::check_time_ms(double time_ms) {
    if (time_ms > kMaxTimeMs) fail("time_ms must be at most 86400000 (a day), got " + number_text(time_ms));
}

void GomokuMentor::check_playable(const Gomoku& state) {
    if (state.size() < kMinSize || state.size() > kMaxSize) {
        fail("GomokuMentor plays boards of size 9..15, got size " + std::to_string(state.size()));
    }
    if (state.line_length() != 5) {
        fail("GomokuMentor plays free-style Gomoku (line_length 5), got line_length " +
             std::to_string(state.line_length()));
    }
    if (is_terminal(state.status())) {
        fail("the game is over (" + status_line(state.status(), state.to_move()) +
             "); GomokuMentor has no move to choose");
    }
}

std::vector<int> GomokuMentor::threat_map(const Gomoku& state, int colour) {
    if (colour != 0 && colour != 1) fail("colour must be 0 or 1, got " + std::to_string(colour));
    if (state.size() < kMinSize || state.size() > kMaxSize || state.line_length() != 5) {
        fail("GomokuMentor plays free-style Gomoku (line_length 5) on boards of size 9..15, got size " +
             std::to_string(state.size()) + " line_length " + std::to_string(state.line_length()));
    }
    const Board board(state);
    std::vector<int> codes;
    for (int cell : board.cells()) codes.push_back(board.threat(colour, cell));
    return codes;
}

Action GomokuMentor::choose(const Gomoku& state, const std::function<bool()>& interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    check_playable(state);
    const auto step = [](Turn& turn) { return std::vector<int>{turn.decide()}; };
    return run_turn(options_, *tables_, rng_, info_, state, interrupted, step).front();
}

std::vector<Action> GomokuMentor::forced_moves(const Gomoku& state, const std::function<bool()>& interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    check_playable(state);
    const auto step = [](Turn& turn) { return turn.forced(); };
    return run_turn(options_, *tables_, rng_, info_, state, interrupted, step);
}

const char* threat_verdict_name(ThreatVerdict verdict) {
    static constexpr std::array<const char*, kNumThreatVerdicts> kNames = {
        "none", "win", "block", "vcf", "vct", "defend", "lost", "unproven"};
    return kNames.at(static_cast<std::size_t>(verdict));
}

ThreatReading GomokuMentor::read_threats(const Gomoku& state, const std::function<bool()>& interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    check_playable(state);
    const auto step = [](Turn& turn) { return turn.forced(); };
    std::vector<Action> moves = run_turn(options_, *tables_, rng_, info_, state, interrupted, step);
    return reading_of(info_, state, std::move(moves));
}

ThreatVerdict GomokuMentor::threat_search_planes(const Gomoku& state, float* out,
                                                 const std::function<bool()>& interrupted) {
    const int cells = state.size() * state.size();
    std::fill(out, out + kThreatSearchPlanes * cells, 0.0F);
    if (is_terminal(state.status())) return ThreatVerdict::kNone;
    const ThreatReading reading = read_threats(state, interrupted);
    const ThreatVerdict verdict = reading.verdict;
    const bool won = verdict == ThreatVerdict::kWin || verdict == ThreatVerdict::kVcf || verdict == ThreatVerdict::kVct;
    const bool dictated = won || verdict == ThreatVerdict::kBlock;
    float* moves_plane = dictated ? out : verdict == ThreatVerdict::kDefend ? out + cells : nullptr;
    if (moves_plane != nullptr) {
        for (Action move : reading.moves) moves_plane[move] = 1.0F;
    }
    float* flag_plane = won ? out + 2 * cells : verdict == ThreatVerdict::kLost ? out + 3 * cells : nullptr;
    if (flag_plane != nullptr) std::fill(flag_plane, flag_plane + cells, 1.0F);
    return verdict;
}

std::vector<Action> GomokuMentor::find_vcf(const Gomoku& state, int max_depth, std::int64_t max_nodes,
                                           const std::function<bool()>& interrupted) {
    std::lock_guard<std::mutex> lock(mutex_);
    check_playable(state);
    tables_->new_generation();
    Board board(state);
    Budget budget(max_nodes, 0.0, interrupted);
    ThreatSearch threats(board, budget, tables_->vcf, tables_->vct, {max_depth, 0, kVcfInVct});
    std::vector<int> line;
    if (!threats.find_vcf(max_depth, line)) return {};
    return to_actions(board, line);
}

std::vector<Action> GomokuMentor::find_vct(const Gomoku& state, int max_depth, std::int64_t max_nodes,
                                           double time_ms, const std::function<bool()>& interrupted) {
    check_time_ms(time_ms);
    std::lock_guard<std::mutex> lock(mutex_);
    check_playable(state);
    tables_->new_generation();
    Board board(state);
    Budget budget(max_nodes, time_ms, interrupted);
    ThreatSearch threats(board, budget, tables_->vcf, tables_->vct,
                         {options_.vcf_depth, max_depth, kVcfInVct});
    std::vector<int> line;
    if (!threats.find_vct(max_depth, line)) return {};
    return to_actions(board, line);
}

}  // namespace pyaz
