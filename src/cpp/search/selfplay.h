// Self-play: many games in flight, each with its own search tree; every round each game
// contributes leaves, and all of them are evaluated in one batched call. Records every position
// searched in full (all of them unless playout cap randomisation is on: full_search_prob) (planes, policy target (Search::policy_target: the visit policy, or Gumbel's improved
// policy), the search's root value q, player, ply, plies to the end, game
// id) and, once the game is over, its outcome z and (games with a score: games/score.h) its
// final score margin from that position's player's view.
//
// Threading: in each round the games are shared out among a pool of `threads` workers (capped
// at the machine's hardware threads) for selection and backup; a game is only ever touched by
// one worker at a time; the evaluator runs on the calling thread.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <thread>
#include <vector>

#include "core/rng.h"
#include "core/thread_pool.h"
#include "games/common.h"
#include "games/score.h"
#include "search/evaluator.h"
#include "search/interrupt.h"
#include "search/mcts.h"
#include "search/params.h"

namespace pyaz {

// An evaluation shorter than this (a cheap evaluator, no network) lets the tree workers wait
// for the next round spinning (ThreadPool::set_spin_after).
inline constexpr std::chrono::microseconds kQuickEvaluation{50};

// Everything recorded, flattened: position i's planes start at planes[i * plane_size].
struct SelfPlayRecords {
    std::vector<float> planes;
    std::vector<float> policy;
    std::vector<float> outcome;         // z for the position's player
    std::vector<float> root_value;      // q: the root's mean value for the player to move, when
                                        // the move was chosen (Search::root_value)
    std::vector<float> score;           // the final score margin for the position's player,
                                        // normalised to [-1, 1] (0 without one: games/score.h)
    std::vector<std::int8_t> player;
    std::vector<std::int32_t> ply;
    std::vector<std::int32_t> plies_to_end;
    std::vector<std::int32_t> game_id;
    // Per game, indexed by game id:
    std::vector<std::int8_t> game_status;    // Status as int
    std::vector<std::int32_t> game_length;   // plies, random opening included
    std::vector<std::int32_t> game_opening;  // random opening plies actually played
    std::int64_t evaluator_calls = 0;
    std::int64_t evaluated_leaves = 0;
    std::int64_t full_searches = 0;   // moves searched in full (and recorded)
    std::int64_t cheap_searches = 0;  // moves searched cheaply (playout cap randomisation)
};

template <class Game>
class SelfPlay {
public:
    SelfPlay(const Game& start, const SelfPlayConfig& config);
    // Plays config.games games; `on_game_end(games_done)` runs (on the calling thread) after each;
    // `interrupt` (if any) is polled every round and stops the games by throwing.
    template <class Progress>
    SelfPlayRecords play(BatchEvaluator<Game>& evaluator, Progress&& on_game_end,
                         InterruptPoll* interrupt = nullptr);

private:
    struct Slot {
        std::unique_ptr<Search<Game>> search;
        Game state;
        std::int32_t game_id = -1;
        int searched = 0;         // simulations done for the current move
        int target = 0;           // simulations for the current move (full or cheap search)
        bool full = true;         // the current move is searched in full (and recorded)
        int opening = 0;          // random plies played
        std::size_t first_record = 0;
        std::vector<SearchLeaf<Game>> leaves;
        std::size_t first_result = 0;  // row of leaves[0] in the evaluated batch
        bool active = false;
    };

    void start_game(Slot& slot, std::int32_t game_id, SelfPlayRecords& out);
    // The random plies opening a game: all random_opening_plies, or (random_opening_spread) a
    // uniform draw in 0..random_opening_plies from the game's own opening generator.
    int opening_plies(Rng& opening_rng) const;
    // Decides the next move's search (full or cheap) and prepares the root for it.
    void begin_move(Slot& slot);
    void collect_slot(Slot& slot);
    bool move_if_searched(Slot& slot, SelfPlayRecords& out);
    void record_position(const Slot& slot, SelfPlayRecords& out) const;
    void finish_game(const Slot& slot, SelfPlayRecords& out) const;
    template <class Work>
    void parallel_over_slots(Work&& work);

    Game start_;
    SelfPlayConfig config_;
    std::vector<Slot> slots_;
    std::unique_ptr<ThreadPool> pool_;
    Rng rng_;
};

template <class Game>
SelfPlay<Game>::SelfPlay(const Game& start, const SelfPlayConfig& config)
    : start_(start), config_(config), rng_(config.seed) {
    if (config.games < 0) fail("games must be >= 0");
    if (config.parallel_games < 1) fail("parallel_games must be >= 1");
    if (config.simulations < 1) fail("simulations must be >= 1");
    if (config.leaves_per_game < 1) fail("leaves_per_game must be >= 1");
    if (config.threads < 1) fail("threads must be >= 1");
    check_range(config.temperature, 0, std::numeric_limits<double>::max(), "temperature",
                "a finite number >= 0");
    if (config.random_opening_plies < 0) fail("random_opening_plies must be >= 0");
    if (!(config.full_search_prob > 0 && config.full_search_prob <= 1)) {  // NaN fails too
        fail("full_search_prob must be in (0, 1], got " + number_text(config.full_search_prob));
    }
    if (config.cheap_simulations < 0 || config.cheap_simulations > config.simulations) {
        fail("cheap_simulations must be in [0, simulations] = [0, " + std::to_string(config.simulations) +
             "] (0: simulations / 6), got " + std::to_string(config.cheap_simulations));
    }
    check_search_params(config.search);
    check_tree_room(start, config.search.max_nodes);
    if (is_terminal(start.status())) fail("the start position is already over");
}

template <class Game>
void SelfPlay<Game>::start_game(Slot& slot, std::int32_t game_id, SelfPlayRecords& out) {
    slot.game_id = game_id;
    slot.state = start_;
    // Random opening (the curriculum's unrecorded plies). If random play ends the game, take
    // back opening_rollback_plies (at least one) and start searching from there.
    Rng opening_rng(config_.seed ^ (0xA24BAED4963EE407ull * (std::uint64_t(game_id) + 1)));
    std::vector<Game> history{start_};
    const int random_plies = opening_plies(opening_rng);
    for (int i = 0; i < random_plies && !is_terminal(slot.state.status()); ++i) {
        slot.state.apply_random(opening_rng);
        history.push_back(slot.state);
    }
    if (is_terminal(slot.state.status())) {
        const std::size_t played = history.size() - 1;
        const std::size_t wanted = config_.opening_rollback_plies < 0
                                       ? played / 2
                                       : static_cast<std::size_t>(config_.opening_rollback_plies);
        const std::size_t back = std::min(played, std::max<std::size_t>(1, wanted));
        slot.state = history[history.size() - 1 - back];
    }
    slot.opening = slot.state.ply() - start_.ply();
    SearchParams params = config_.search;
    params.seed = config_.search.seed + 7919ull * (std::uint64_t(game_id) + 1);
    if (!slot.search) slot.search = std::make_unique<Search<Game>>(slot.state, params);
    else slot.search->set_root(slot.state);
    begin_move(slot);
    slot.first_record = out.player.size();
    slot.active = true;
}

template <class Game>
int SelfPlay<Game>::opening_plies(Rng& opening_rng) const {
    const int most = config_.random_opening_plies;
    if (!config_.random_opening_spread || most == 0) return most;
    return static_cast<int>(opening_rng.below(static_cast<std::uint32_t>(most) + 1));
}

// Playout cap randomisation draws from rng_ only when it is on (full_search_prob < 1), so that
// the default leaves every other draw as it was.
template <class Game>
void SelfPlay<Game>::begin_move(Slot& slot) {
    slot.full = config_.full_search_prob >= 1 || rng_.uniform() < config_.full_search_prob;
    slot.target = slot.full ? config_.simulations : cheap_simulations(config_);
    if (slot.full) slot.search->add_root_noise();  // now if the root is expanded, else on expansion
    else slot.search->suppress_root_noise();
    slot.search->plan_root_search(slot.target);
    slot.searched = 0;
}

template <class Game>
void SelfPlay<Game>::collect_slot(Slot& slot) {
    slot.leaves.clear();
    if (!slot.active) return;
    const int wanted = std::min(config_.leaves_per_game, slot.target - slot.searched);
    slot.searched += static_cast<int>(slot.search->collect(wanted, slot.leaves));
}

template <class Game>
void SelfPlay<Game>::record_position(const Slot& slot, SelfPlayRecords& out) const {
    const Game& s = slot.search->root_state();
    const std::size_t plane_size = std::size_t(s.num_planes()) * s.height() * s.width();
    const std::size_t offset = out.planes.size();
    out.planes.resize(offset + plane_size);
    s.encode(out.planes.data() + offset);
    const std::vector<float> pi = slot.search->policy_target();
    out.policy.insert(out.policy.end(), pi.begin(), pi.end());
    out.player.push_back(static_cast<std::int8_t>(s.to_move()));
    out.ply.push_back(s.ply() - start_.ply());
    out.game_id.push_back(slot.game_id);
    out.outcome.push_back(0.0f);
    out.root_value.push_back(static_cast<float>(slot.search->root_value()));
    out.score.push_back(0.0f);
    out.plies_to_end.push_back(0);
}

template <class Game>
void SelfPlay<Game>::finish_game(const Slot& slot, SelfPlayRecords& out) const {
    const Status end = slot.state.status();
    const std::int32_t length = slot.state.ply() - start_.ply();
    for (std::size_t i = slot.first_record; i < out.player.size(); ++i) {
        if (out.game_id[i] != slot.game_id) continue;
        out.outcome[i] = end == Status::kDraw ? static_cast<float>(config_.search.draw_value)
                                              : static_cast<float>(result_for(end, out.player[i]));
        out.plies_to_end[i] = length - out.ply[i];
        out.score[i] = final_score(slot.state, out.player[i]);
    }
    out.game_status[slot.game_id] = static_cast<std::int8_t>(end);
    out.game_length[slot.game_id] = length;
    out.game_opening[slot.game_id] = slot.opening;
}

// After the move's simulations: record, choose (sampled before T', greedy after; under rule
// kGumbel, the action sequential halving leaves, its Gumbel noise being the sampling), advance.
// Returns true when the game ended.
template <class Game>
bool SelfPlay<Game>::move_if_searched(Slot& slot, SelfPlayRecords& out) {
    if (!slot.active || slot.searched < slot.target) return false;
    if (slot.full) {
        record_position(slot, out);
        ++out.full_searches;
    } else {
        ++out.cheap_searches;
    }
    const int ply = slot.state.ply() - start_.ply();
    const double temperature = ply < config_.sampling_plies ? config_.temperature : 0.0;
    const Action action = config_.search.rule == SelectionRule::kGumbel ? slot.search->gumbel_action()
                                                                         : slot.search->choose_action(temperature, rng_);
    slot.search->advance(action);
    slot.state = slot.search->root_state();
    if (!is_terminal(slot.state.status())) {
        begin_move(slot);
        return false;
    }
    slot.active = false;
    return true;
}

template <class Game>
template <class Work>
void SelfPlay<Game>::parallel_over_slots(Work&& work) {
    pool_->for_each(static_cast<std::int64_t>(slots_.size()),
                    [&](std::int64_t i) { work(slots_[static_cast<std::size_t>(i)]); });
}

template <class Game>
template <class Progress>
SelfPlayRecords SelfPlay<Game>::play(BatchEvaluator<Game>& evaluator, Progress&& on_game_end,
                                     InterruptPoll* interrupt) {
    SelfPlayRecords out;
    pool_ = std::make_unique<ThreadPool>(config_.threads);
    out.game_status.assign(config_.games, 0);
    out.game_length.assign(config_.games, 0);
    out.game_opening.assign(config_.games, 0);
    slots_.clear();
    slots_.resize(static_cast<std::size_t>(std::min<std::int64_t>(config_.parallel_games, config_.games)));
    std::int32_t next_game = 0;
    for (Slot& slot : slots_) start_game(slot, next_game++, out);
    std::int64_t done = 0;
    std::vector<const Game*> states;
    std::vector<float> priors;
    std::vector<float> values;
    // The workers wait between their phases spinning until an evaluation proves slow (a
    // network): then its own threads need the cores, and workers spinning while the owner
    // finishes the moves took 25% of the self-play speed of 2 tree threads beside 2 ONNX
    // Runtime threads on a 2-core machine. Each evaluation decides for the rounds after it.
    pool_->set_spin_after(true);
    while (done < config_.games) {
        if (interrupt != nullptr) interrupt->poll();
        parallel_over_slots([&](Slot& slot) { collect_slot(slot); });
        states.clear();
        for (Slot& slot : slots_) {
            for (const auto& leaf : slot.leaves) states.push_back(&leaf.state);
        }
        if (!states.empty()) {
            const int num_actions = start_.num_actions();
            priors.assign(states.size() * num_actions, 0.0f);
            values.assign(states.size(), 0.0f);
            const auto evaluation_began = std::chrono::steady_clock::now();
            try {
                evaluator.evaluate(states, priors.data(), values.data());
            } catch (...) {
                for (Slot& slot : slots_) {
                    for (const auto& leaf : slot.leaves) slot.search->release(leaf);
                }
                throw;
            }
            const auto evaluation_took = std::chrono::steady_clock::now() - evaluation_began;
            pool_->set_spin_after(evaluation_took < kQuickEvaluation);
            ++out.evaluator_calls;
            out.evaluated_leaves += static_cast<std::int64_t>(states.size());
            std::size_t offset = 0;
            for (Slot& slot : slots_) {
                slot.first_result = offset;
                offset += slot.leaves.size();
            }
            parallel_over_slots([&](Slot& slot) {
                slot.searched += static_cast<int>(slot.leaves.size());
                for (std::size_t i = 0; i < slot.leaves.size(); ++i) {
                    const std::size_t row = slot.first_result + i;
                    slot.search->complete(slot.leaves[i], priors.data() + row * num_actions, values[row]);
                }
            });
        }
        for (Slot& slot : slots_) {
            if (!move_if_searched(slot, out)) continue;
            finish_game(slot, out);
            ++done;
            on_game_end(done);
            if (static_cast<std::int64_t>(out.player.size()) > config_.max_positions) {
                fail("self-play produced more than max_positions records");
            }
            if (next_game < config_.games) start_game(slot, next_game++, out);
        }
    }
    return out;
}

}  // namespace pyaz
