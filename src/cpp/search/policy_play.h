// Policy play (seed 003, ZetaGo): many games in flight with no tree search. Every step, the
// games whose side to move is seated with policy k are encoded into one batch and policy k is
// called once for all of them; each game then samples its move from the policy's softmax over
// its legal actions. Records the positions of one chosen policy (the learner) for
// policy-gradient training.
//
// Actions: the board points r * n + c, the pass n * n (the game's own pass), and resign
// n * n + 1, which ends the game as a loss for the side that plays it. Illegal moves (occupied
// points, simple ko, suicide) are masked out before the softmax; pass and resign are always legal
// (resign only with allow_resign).
//
// Planes: seed 003's three (black stones, white stones, empty points), in absolute colours.
//
// Threading: everything runs on the calling thread; the policy is called once per step and seat.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

// A policy for the driver: logits[i * num_actions + a] for each of `batch` positions given as
// three-plane inputs planes[i * 3 * n * n ...]. `legal` holds the same positions' masks.
class BatchPolicy {
public:
    virtual ~BatchPolicy() = default;
    virtual void logits(const std::vector<float>& planes, const std::vector<std::uint8_t>& legal,
                        int batch, float* out) = 0;
};

struct PolicyPlayConfig {
    bool allow_resign = true;
    double temperature = 1.0;  // 0: always the most probable legal action
    std::uint64_t seed = 0;
};

// The recorded positions (of the recorded seat only) and the per-game results.
struct PolicyPlayRecords {
    std::vector<float> planes;           // (N, 3, n, n)
    std::vector<std::uint8_t> legal;     // (N, n * n + 2)
    std::vector<std::int32_t> action;    // (N)
    std::vector<std::int8_t> player;     // colour that moved, 0 Black, 1 White
    std::vector<std::int32_t> game_id;   // (N)
    std::vector<std::int32_t> ply;       // (N) plies since the game's start
    // Per game:
    std::vector<std::int8_t> game_status;  // Status as int
    std::vector<std::int8_t> resigned;     // the colour that resigned, or -1
    std::vector<std::int32_t> game_length;  // plies played (the resignation included)
    std::int64_t policy_calls = 0;
};

inline int policy_actions(int size) { return size * size + 2; }

// Seed 003's input planes: black, white, empty.
template <class Game>
void encode_colour_planes(const Game& state, float* out) {
    const int n = state.size();
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) {
            const Cell cell = state.cell(r, c);
            const int i = r * n + c;
            out[i] = cell == Cell::kFirst ? 1.0f : 0.0f;
            out[n * n + i] = cell == Cell::kSecond ? 1.0f : 0.0f;
            out[2 * n * n + i] = cell == Cell::kEmpty ? 1.0f : 0.0f;
        }
    }
}

// 1 for the legal actions of the policy's action space (points, pass, resign).
template <class Game>
void legal_policy_mask(const Game& state, bool allow_resign, std::uint8_t* out) {
    const int points = state.size() * state.size();
    for (int a = 0; a < points; ++a) out[a] = state.is_legal(a) ? 1 : 0;
    out[points] = 1;
    out[points + 1] = allow_resign ? 1 : 0;
}

// Samples from softmax(logits / temperature) over the legal actions (argmax at temperature 0).
inline int sample_masked(const float* logits, const std::uint8_t* legal, int count, double temperature,
                         Rng& rng) {
    int best = -1;
    for (int a = 0; a < count; ++a) {
        if (legal[a] && (best < 0 || logits[a] > logits[best])) best = a;
    }
    if (temperature <= 0.0 || best < 0) return best;
    double total = 0.0;
    thread_local std::vector<double> weights;
    weights.assign(count, 0.0);
    for (int a = 0; a < count; ++a) {
        if (!legal[a]) continue;
        weights[a] = std::exp((double(logits[a]) - logits[best]) / temperature);
        total += weights[a];
    }
    double u = rng.uniform() * total;
    for (int a = 0; a < count; ++a) {
        if (!legal[a]) continue;
        u -= weights[a];
        if (u < 0.0) return a;
    }
    return best;
}

template <class Game>
class PolicyPlay {
public:
    // seats[2 * g + colour]: the index in `policies` of the policy that plays colour in game g;
    // the positions where `record_seat` is to move are recorded (-1: none).
    PolicyPlay(std::vector<Game> starts, std::vector<int> seats, int num_policies, int record_seat,
               const PolicyPlayConfig& config);

    PolicyPlayRecords play(const std::vector<BatchPolicy*>& policies);

private:
    struct Slot {
        Game state;
        int start_ply = 0;
        int resigned = -1;
        bool over = false;
    };

    bool step(const std::vector<BatchPolicy*>& policies, PolicyPlayRecords& out);
    void play_seat(int seat, BatchPolicy& policy, const std::vector<int>& games, PolicyPlayRecords& out);
    void record(int game, int action, PolicyPlayRecords& out, std::size_t row) const;
    void finish(PolicyPlayRecords& out) const;

    std::vector<Slot> slots_;
    std::vector<int> seats_;
    int num_policies_;
    int record_seat_;
    PolicyPlayConfig config_;
    Rng rng_;
    // The batch being evaluated.
    std::vector<float> planes_;
    std::vector<std::uint8_t> legal_;
    std::vector<float> logits_;
};

template <class Game>
PolicyPlay<Game>::PolicyPlay(std::vector<Game> starts, std::vector<int> seats, int num_policies,
                             int record_seat, const PolicyPlayConfig& config)
    : seats_(std::move(seats)), num_policies_(num_policies), record_seat_(record_seat), config_(config),
      rng_(config.seed) {
    if (starts.empty()) fail("policy play needs at least one start position");
    if (seats_.size() != 2 * starts.size()) {
        fail("seats must give two policies per game (" + std::to_string(2 * starts.size()) +
             " entries), got " + std::to_string(seats_.size()));
    }
    if (num_policies_ < 1) fail("policy play needs at least one policy");
    for (int seat : seats_) {
        if (seat < 0 || seat >= num_policies_) {
            fail("seat " + std::to_string(seat) + " names no policy (there are " +
                 std::to_string(num_policies_) + ")");
        }
    }
    if (record_seat_ < -1 || record_seat_ >= num_policies_) {
        fail("record_seat must be -1 or a policy index, got " + std::to_string(record_seat_));
    }
    if (config_.temperature < 0) fail("temperature must be >= 0");
    const int size = starts.front().size();
    for (Game& start : starts) {
        if (start.size() != size) fail("every start position must have the same board size");
        Slot slot{start, start.ply(), -1, is_terminal(start.status())};
        slots_.push_back(std::move(slot));
    }
}

template <class Game>
PolicyPlayRecords PolicyPlay<Game>::play(const std::vector<BatchPolicy*>& policies) {
    if (static_cast<int>(policies.size()) != num_policies_) fail("policy play got the wrong number of policies");
    PolicyPlayRecords out;
    while (step(policies, out)) {
    }
    finish(out);
    return out;
}

// One ply of every unfinished game, each policy called once for its games; false when all are over.
template <class Game>
bool PolicyPlay<Game>::step(const std::vector<BatchPolicy*>& policies, PolicyPlayRecords& out) {
    std::vector<std::vector<int>> games(num_policies_);
    for (std::size_t g = 0; g < slots_.size(); ++g) {
        if (slots_[g].over) continue;
        games[seats_[2 * g + slots_[g].state.to_move()]].push_back(static_cast<int>(g));
    }
    bool any = false;
    for (int seat = 0; seat < num_policies_; ++seat) {
        if (games[seat].empty()) continue;
        any = true;
        play_seat(seat, *policies[seat], games[seat], out);
        ++out.policy_calls;
    }
    return any;
}

template <class Game>
void PolicyPlay<Game>::play_seat(int seat, BatchPolicy& policy, const std::vector<int>& games,
                                 PolicyPlayRecords& out) {
    const int n = slots_[games.front()].state.size();
    const int actions = policy_actions(n);
    const std::size_t plane_size = 3 * std::size_t(n) * n;
    const int batch = static_cast<int>(games.size());
    planes_.assign(batch * plane_size, 0.0f);
    legal_.assign(std::size_t(batch) * actions, 0);
    logits_.assign(std::size_t(batch) * actions, 0.0f);
    for (int i = 0; i < batch; ++i) {
        const Game& state = slots_[games[i]].state;
        encode_colour_planes(state, planes_.data() + i * plane_size);
        legal_policy_mask(state, config_.allow_resign, legal_.data() + std::size_t(i) * actions);
    }
    policy.logits(planes_, legal_, batch, logits_.data());
    for (int i = 0; i < batch; ++i) {
        Slot& slot = slots_[games[i]];
        const std::size_t row = std::size_t(i);
        const int action = sample_masked(logits_.data() + row * actions, legal_.data() + row * actions, actions,
                                         config_.temperature, rng_);
        if (seat == record_seat_) record(games[i], action, out, row);
        if (action == actions - 1) {
            slot.resigned = slot.state.to_move();
            slot.over = true;
            continue;
        }
        slot.state.apply(action);
        slot.over = is_terminal(slot.state.status());
    }
}

template <class Game>
void PolicyPlay<Game>::record(int game, int action, PolicyPlayRecords& out, std::size_t row) const {
    const Game& state = slots_[game].state;
    const int actions = policy_actions(state.size());
    const std::size_t plane_size = 3 * std::size_t(state.size()) * state.size();
    out.planes.insert(out.planes.end(), planes_.begin() + row * plane_size, planes_.begin() + (row + 1) * plane_size);
    out.legal.insert(out.legal.end(), legal_.begin() + row * actions, legal_.begin() + (row + 1) * actions);
    out.action.push_back(action);
    out.player.push_back(static_cast<std::int8_t>(state.to_move()));
    out.game_id.push_back(game);
    out.ply.push_back(state.ply() - slots_[game].start_ply);
}

template <class Game>
void PolicyPlay<Game>::finish(PolicyPlayRecords& out) const {
    for (const Slot& slot : slots_) {
        const Status status = slot.resigned >= 0 ? win_for(1 - slot.resigned) : slot.state.status();
        out.game_status.push_back(static_cast<std::int8_t>(status));
        out.resigned.push_back(static_cast<std::int8_t>(slot.resigned));
        out.game_length.push_back(slot.state.ply() - slot.start_ply + (slot.resigned >= 0 ? 1 : 0));
    }
}

}  // namespace pyaz
