// Monte Carlo tree search on one tree, templated on the game: the Search class, which ties the
// parts together. Selection is PUCT (AlphaZero) or UCB1 (plain UCT) (search/selection.h), or
// Gumbel AlphaZero's (search/gumbel_search.h); optionally with the proving search, MCTS-solver
// (search/solver.h), and forced playouts with policy target pruning (search/forced_playouts.h).
// The search's own core: virtual loss, several threads, batched leaf evaluation, backup, exact
// terminal values, Dirichlet root noise and tree reuse. This file declares the class and
// defines its root's members (a new root, tree reuse, root noise, the results read at the root,
// from search/search_results.h); search/mcts_simulation.h defines one simulation (selection,
// expansion, backup) and search/mcts_run.h the runs (threads, batches).
//
// Two ways to run, picked by the evaluator:
// - thread-safe (C++) evaluators: `threads` workers each select, evaluate, expand and back up on
//   their own; a worker that meets a leaf another worker is expanding waits for it (seed 004's
//   expansion conflict).
// - batched (Python network) evaluators: in rounds, the workers gather up to `batch_size` leaves
//   under virtual loss (a leaf already pending in the round is a collision and is given back),
//   the calling thread evaluates them in one call, then they are expanded and backed up.
// Thread-safety: run() is not reentrant; call the other members between runs. A run(),
// advance() or set_root() during a run (from the evaluator the run is calling, or from another
// thread) throws std::runtime_error instead of corrupting the tree.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/thread_pool.h"
#include "games/common.h"
#include "search/evaluator.h"
#include "search/forced_playouts.h"
#include "search/gumbel_search.h"
#include "search/interrupt.h"
#include "search/params.h"
#include "search/search_leaf.h"
#include "search/search_results.h"
#include "search/selection.h"
#include "search/solver.h"
#include "search/tree.h"

namespace pyaz {

template <class Game>
class Search {
public:
    Search(const Game& root_state, const SearchParams& params);

    const Game& root_state() const { return root_state_; }
    const SearchParams& params() const { return params_; }
    std::int64_t tree_size() const { return tree_.size(); }
    bool tree_full() const { return tree_full_.load(); }
    std::int64_t collisions() const { return collisions_; }

    // Starts over from `state` with an empty tree (fails, keeping the old root, if `state` needs
    // more than max_nodes; see check_tree_room).
    void set_root(const Game& state);
    // Plays `action` at the root, keeping its subtree (tree reuse).
    void advance(Action action);

    // Runs `simulations` more simulations; `interrupt` (if any) is polled between chunks of
    // simulations and stops the run by throwing (the tree stays consistent).
    void run(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt = nullptr);

    // Step-wise use by drivers that batch many searches (self-play), from one thread per search:
    // collect() selects up to `wanted` leaves under virtual loss (appending those that need an
    // evaluation to `leaves`) and returns how many simulations ended at a terminal node instead;
    // complete() expands and backs up an evaluated leaf; release() gives a leaf back unevaluated.
    std::int64_t collect(std::int64_t wanted, std::vector<SearchLeaf<Game>>& leaves);
    void complete(SearchLeaf<Game>& leaf, const float* priors, float value);
    void release(const SearchLeaf<Game>& leaf);
    // Mixes Dirichlet noise into the root priors once per root (no-op if disabled or unexpanded,
    // and under rule kGumbel, whose root noise is Gumbel's).
    void add_root_noise();
    // The current root gets no Dirichlet noise (a cheap search of playout cap randomisation); the
    // next root (advance, set_root) may again.
    void suppress_root_noise() { root_noised_ = true; }
    // Rule kGumbel: the next `simulations` simulations at this root are one sequential halving
    // (the first of them expands the root when it is still a leaf, and is not part of the
    // halving's budget). run() calls it for its simulations; drivers that use collect() call it
    // at the start of each move. The root's Gumbel noise is drawn once per root. No-op otherwise.
    void plan_root_search(std::int64_t simulations);

    // The principal variation: from the root, the most visited child of each expanded node
    // (ties: the first), while it has visits, at most max_depth moves.
    std::vector<Action> principal_variation(int max_depth) const { return most_visited_line(tree_, max_depth); }
    // Root statistics indexed by action (0 for illegal actions).
    std::vector<std::int32_t> visit_counts() const { return root_visit_counts(tree_, root_state_.num_actions()); }
    // For the player to move at the root; NaN if unvisited.
    std::vector<float> q_values() const { return root_q_values(tree_, root_state_.num_actions()); }
    std::vector<float> priors() const { return root_priors(tree_, root_state_.num_actions()); }
    // Value of the root for the player to move there (mean over all its simulations).
    double root_value() const { return root_mean_value(tree_); }
    // The proving search (params.solver): the root's proven result for the player to move there,
    // +1 win, 0 draw, -1 loss, or 2 while it is not proven (always 2 without the solver).
    int proven_value() const { return proven_result(tree_.node(0).proof.load(), root_state_.to_move()); }
    std::int32_t root_visits() const { return tree_.stats(0).visits(); }
    // Visit-count policy pi ~ N^(1/temperature); temperature 0 puts all mass on the most
    // visited action (lowest action on ties). When the root is expanded but no child has a visit
    // yet (one simulation: it expanded the root), the priors stand in for the visit counts, so
    // that the smallest search still gives a move. Fails only before any simulation. With the
    // solver, the proven results filter the moves first: if some moves are proven wins for the
    // player to move, only they get mass; otherwise proven losses get none unless every move is
    // one.
    std::vector<float> policy(double temperature) const;
    // Samples from policy(temperature), or the most visited action when temperature is 0 (under
    // rule kGumbel: gumbel_action(), which policy(0) also puts its mass on).
    Action choose_action(double temperature, Rng& rng) const;
    // Rule kGumbel: the action sequential halving leaves, i.e. among the actions with the most
    // simulations in the last halving, the argmax of g(a) + logits(a) + sigma(completed Q(a))
    // (with the solver, a proven win before anything and a proven loss after anything). Before
    // any halving (one simulation, which expanded the root) every action is a survivor: the
    // argmax of g + logits. Fails before any simulation.
    Action gumbel_action() const;
    // Gumbel's improved policy pi' = softmax(logits + sigma(completed Q)) over the legal root
    // actions (any rule; logits = log priors). Fails before any simulation.
    std::vector<float> improved_policy() const;
    // Forced playouts' policy target pruning (KataGo, section 3.2): the root's visit counts,
    // with c* the most visited child (lowest action on ties), T = sum_b N(b) and
    // PUCT(c, n) = Q(c) + c_puct * P(c) * sqrt(T) / (1 + n): every other visited child keeps
    // ceil(max(N(c) - n_forced(c), n_eq)) of its N(c) visits, n_eq solving PUCT(c, n_eq) =
    // PUCT(c*, N(c*)) (none taken back if PUCT(c, N(c)) already exceeds it), and a child left
    // with one visit or none keeps none. Any rule and setting. Fails before any simulation.
    std::vector<std::int32_t> pruned_visit_counts() const;
    // What self-play records as the policy target: improved_policy() under rule kGumbel; else
    // the visits normalised (policy(1)), pruned (pruned_visit_counts) with forced_playouts.
    std::vector<float> policy_target() const;
    // A fresh seed for each evaluator a caller builds (e.g. one random-rollout stream per run),
    // so that successive searches do not replay the same random numbers.
    std::uint64_t next_stream_seed() { return params_.seed + 0x9E3779B97F4A7C15ull * ++streams_; }
    // Sum of pending visits over the tree: 0 whenever no search is running.
    std::int64_t pending_visits() const;

private:
    using Leaf = SearchLeaf<Game>;
    enum class SelectResult { kNeedsEvaluation, kFinished, kCollision };

    // `params` once they are in range and leave room for the root's children (or a failure).
    static const SearchParams& checked_params(const SearchParams& params, const Game& root_state) {
        check_search_params(params);
        check_tree_room(root_state, params.max_nodes);
        return params;
    }
    void reset_root(const Game& state);  // set_root without the busy check
    // A new root (reset or advanced to): its Dirichlet and Gumbel noise, halving and tree-full
    // flag start over.
    void forget_old_root();
    // Fails unless a simulation has expanded the root.
    void require_expanded_root() const;

    // Selection.
    SelectResult select_leaf(Leaf& leaf, bool wait_on_expanding);
    // The child to descend into from `parent`, where `chooser` is to move: PUCT or UCB1 when
    // `plain_` (the hot path, one test of a constant), else with the solver's proofs, forced
    // playouts or Gumbel.
    std::int32_t best_child(std::int32_t parent, int chooser) {
        return plain_ ? scored_child(parent) : special_child(parent, chooser);
    }
    std::int32_t special_child(std::int32_t parent, int chooser) {
        if (params_.rule != SelectionRule::kGumbel) return tiered_child(parent, chooser);
        if (parent == 0) return gumbel_root_child(chooser);
        return gumbel_child<Game::kMaxActions>(tree_, params_, parent, chooser);
    }
    std::int32_t scored_child(std::int32_t parent) const;
    std::int32_t tiered_child(std::int32_t parent, int chooser) const;
    std::int32_t gumbel_root_child(int chooser);

    // Expansion and backup.
    void expand(std::int32_t node_index, const Game& state, const float* priors, float value);
    void backup(const Leaf& leaf, const LeafValue& value);
    void abandon(const Leaf& leaf);
    LeafValue terminal_value(const Game& state) const { return result_value(state.status(), params_.draw_value); }
    // The evaluator's value, mixed with a random playout's result when rollout_mix > 0.
    float leaf_value(const Game& state, float evaluated);
    void finish_leaf(Leaf& leaf, const float* priors, float value);

    // Running: free-running workers or batched rounds.
    void expand_root(BatchEvaluator<Game>& evaluator);
    // Evaluates one selected leaf alone, then expands and backs it up (released on error).
    void evaluate_leaf(Leaf& leaf, BatchEvaluator<Game>& evaluator, std::vector<float>& priors,
                       std::uint64_t stream);
    void flush_root_share(WorkerShare& share);
    void run_free(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt);
    void run_batched(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt);
    std::int64_t gather(std::int64_t wanted, std::vector<Leaf>& leaves, std::mutex& lock, int threads);
    template <class Work>
    void on_threads(int count, Work&& work);
    // Holds the search busy for one run or change of root (throws if it already is).
    class BusyGuard;

    // Per action of the root: visit counts (or priors, see policy()), zero for the moves the
    // solver rules out.
    std::vector<double> root_weights() const {
        require_expanded_root();
        return root_move_weights(tree_, root_state_.to_move(), root_state_.num_actions(), params_.solver);
    }

    SearchParams params_;
    bool plain_;  // no solver, forced playouts nor Gumbel: selection is PUCT's or UCB1's alone
    Game root_state_;
    Tree tree_;
    Tree spare_;
    Rng rng_;
    bool root_noised_ = false;
    std::atomic<bool> tree_full_{false};
    std::int64_t collisions_ = 0;
    std::uint64_t streams_ = 0;
    std::atomic<std::uint64_t> playouts_{0};  // rollout_mix's playouts: each its own stream
    std::unique_ptr<ThreadPool> pool_;
    std::atomic<bool> busy_{false};
    SequentialHalving<Game> halving_;  // rule kGumbel: the root's noise and halving
};

template <class Game>
class Search<Game>::BusyGuard {
public:
    BusyGuard(Search& search, const char* what) : busy_(search.busy_) {
        if (busy_.exchange(true)) {
            throw std::runtime_error(std::string(what) +
                                     " called while this search is running: the evaluator (or another "
                                     "thread) called back into the search that is calling it; use a "
                                     "separate Search object");
        }
    }
    ~BusyGuard() { busy_.store(false); }
    BusyGuard(const BusyGuard&) = delete;
    BusyGuard& operator=(const BusyGuard&) = delete;

private:
    std::atomic<bool>& busy_;
};

// ---------------------------------------------------------------------------------------------
// The root: construction, a new root, tree reuse, root noise

template <class Game>
Search<Game>::Search(const Game& root_state, const SearchParams& params)
    : params_(checked_params(params, root_state)),
      plain_(!params.solver && !params.forced_playouts && params.rule != SelectionRule::kGumbel),
      root_state_(root_state),
      tree_(params.max_nodes),
      spare_(1),
      rng_(params.seed) {}

template <class Game>
void Search<Game>::set_root(const Game& state) {
    const BusyGuard busy(*this, "Search.set_root");
    check_tree_room(state, params_.max_nodes);
    reset_root(state);
}

template <class Game>
void Search<Game>::reset_root(const Game& state) {
    root_state_ = state;
    tree_.reset(params_.max_nodes);
    forget_old_root();
}

template <class Game>
void Search<Game>::forget_old_root() {
    root_noised_ = false;
    tree_full_ = false;
    halving_.clear();
}

template <class Game>
void Search<Game>::advance(Action action) {
    const BusyGuard busy(*this, "Search.advance");
    if (!root_state_.is_legal(action)) fail("advance: action " + std::to_string(action) + " is not legal at the root");
    Game next = root_state_;
    next.apply(action);
    const Node& root = tree_.node(0);
    std::int32_t kept = -1;
    if (root.state.load() == NodeState::kExpanded) {
        for (std::int32_t i = 0; i < root.num_children; ++i) {
            if (tree_.node(root.first_child + i).action == action) kept = root.first_child + i;
        }
    }
    if (kept < 0) {
        reset_root(next);
        return;
    }
    tree_.keep_subtree(kept, spare_);
    root_state_ = next;
    forget_old_root();
}

template <class Game>
void Search<Game>::add_root_noise() {
    Node& root = tree_.node(0);
    if (root_noised_ || params_.dirichlet_epsilon <= 0 || params_.rule == SelectionRule::kGumbel ||
        root.state.load() != NodeState::kExpanded) {
        return;
    }
    std::gamma_distribution<double> gamma(params_.dirichlet_alpha, 1.0);
    std::vector<double> noise(root.num_children);
    double total = 0.0;
    for (double& x : noise) total += (x = gamma(rng_));
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        Node& child = tree_.node(root.first_child + i);
        const double share = total > 0 ? noise[i] / total : 1.0 / root.num_children;
        child.prior = static_cast<float>((1 - params_.dirichlet_epsilon) * child.prior +
                                         params_.dirichlet_epsilon * share);
    }
    root_noised_ = true;
}

template <class Game>
void Search<Game>::plan_root_search(std::int64_t simulations) {
    if (params_.rule != SelectionRule::kGumbel) return;
    const bool leaf = tree_.node(0).state.load() == NodeState::kLeaf;
    halving_.plan(std::max<std::int64_t>(0, simulations - (leaf ? 1 : 0)), root_state_, params_, rng_);
}

// ---------------------------------------------------------------------------------------------
// Results at the root (see search_results.h, gumbel_search.h, forced_playouts.h)

template <class Game>
void Search<Game>::require_expanded_root() const {
    if (tree_.node(0).state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
}

template <class Game>
std::vector<float> Search<Game>::policy(double temperature) const {
    check_range(temperature, 0, std::numeric_limits<double>::max(), "temperature", "a finite number >= 0");
    const std::vector<double> counts = root_weights();
    if (temperature == 0 && params_.rule == SelectionRule::kGumbel) {
        std::vector<float> pi(counts.size(), 0.0f);
        pi[gumbel_action()] = 1.0f;
        return pi;
    }
    return visit_policy(counts, temperature);  // the largest count > 0: priors sum to 1
}

template <class Game>
Action Search<Game>::choose_action(double temperature, Rng& rng) const {
    if (temperature == 0 && params_.rule == SelectionRule::kGumbel) return gumbel_action();
    const std::vector<float> pi = policy(temperature);
    if (temperature == 0) return static_cast<Action>(std::max_element(pi.begin(), pi.end()) - pi.begin());
    return sample_action(pi, rng);
}

template <class Game>
Action Search<Game>::gumbel_action() const {
    require_expanded_root();
    const GumbelChildView<Game::kMaxActions> view(tree_, 0, params_, false);
    return halving_.survivor(view, root_state_.to_move(), params_.solver);
}

template <class Game>
std::vector<float> Search<Game>::improved_policy() const {
    require_expanded_root();
    const GumbelChildView<Game::kMaxActions> view(tree_, 0, params_, false);
    return improved_root_policy(view, root_state_.num_actions());
}

template <class Game>
std::vector<std::int32_t> Search<Game>::pruned_visit_counts() const {
    require_expanded_root();
    return pruned_root_visits(tree_, params_, root_state_.num_actions());
}

template <class Game>
std::vector<float> Search<Game>::policy_target() const {
    if (params_.rule == SelectionRule::kGumbel) return improved_policy();
    if (!params_.forced_playouts) return policy(1.0);
    const std::vector<double> weights = root_weights();  // the solver's filter, or the priors
    return pruned_policy(weights, pruned_visit_counts());
}

template <class Game>
std::int64_t Search<Game>::pending_visits() const {
    std::int64_t total = 0;
    for (std::int64_t i = 0; i < tree_.size(); ++i) total += tree_.stats(static_cast<std::int32_t>(i)).in_flight();
    return total;
}

}  // namespace pyaz

// The rest of Search's members, by part (one class over several files, as KataGo's search):
#include "search/mcts_simulation.h"  // one simulation: selection, expansion, backup
#include "search/mcts_run.h"         // running: free-running workers, batched rounds, step-wise
