// Monte Carlo tree search on one tree, templated on the game: PUCT (AlphaZero), UCB1 (plain UCT)
// or Gumbel AlphaZero selection, virtual loss, several threads, batched leaf evaluation,
// Dirichlet root noise, exact terminal values, tree reuse, and optionally a proving search
// (MCTS-solver).
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
#include <array>
#include <cfloat>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "core/rng.h"
#include "core/thread_pool.h"
#include "games/common.h"
#include "search/evaluator.h"
#include "search/gumbel.h"
#include "search/interrupt.h"
#include "search/params.h"
#include "search/tree.h"

namespace pyaz {

// The fewest nodes a tree for `state`'s game needs: the root and one child per action, so that
// the first simulation always expands the root (a smaller max_nodes leaves a search that can
// never visit a move).
template <class Game>
std::int64_t min_tree_nodes(const Game& state) {
    return 1 + static_cast<std::int64_t>(state.num_actions());
}

// Fails (std::invalid_argument naming max_nodes) unless a tree of `max_nodes` can search `state`.
template <class Game>
void check_tree_room(const Game& state, std::int64_t max_nodes) {
    if (max_nodes < min_tree_nodes(state)) {
        fail("max_nodes must be >= " + std::to_string(min_tree_nodes(state)) + " for a " +
             std::string(Game::kName) + " search (the root and a node per action), got " +
             std::to_string(max_nodes));
    }
}

// Values of one finished simulation for each player (index = player).
struct LeafValue {
    double for_player[2] = {0.0, 0.0};
};

// What a free-running worker keeps to itself: the root's statistics, added up and handed to the
// root now and then, so that the threads do not all write the root's cache line on every
// simulation.
struct WorkerShare {
    std::int32_t root_visits = 0;
    double root_value_sum = 0.0;
};

// A selected leaf waiting for its evaluation: the path from the root and the leaf's state.
template <class Game>
struct SearchLeaf {
    std::vector<std::int32_t> path;    // root first
    std::vector<std::int8_t> movers;   // player who chose the action into path[i]
    Game state;
    WorkerShare* worker = nullptr;     // a free-running worker's own share (null: none)
};

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
    std::vector<Action> principal_variation(int max_depth) const;
    // Root statistics indexed by action (0 for illegal actions).
    std::vector<std::int32_t> visit_counts() const;
    std::vector<float> q_values() const;  // for the player to move at the root; NaN if unvisited
    std::vector<float> priors() const;
    // Value of the root for the player to move there (mean over all its simulations).
    double root_value() const;
    // The proving search (params.solver): the root's proven result for the player to move there,
    // +1 win, 0 draw, -1 loss, or 2 while it is not proven (always 2 without the solver).
    int proven_value() const;
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
    SelectResult select_leaf(Leaf& leaf, bool wait_on_expanding);
    // The child to descend into from `parent`, where `chooser` is to move: PUCT or UCB1 when
    // `plain_` (the hot path, one test of a constant), else with the solver's proofs, forced
    // playouts or Gumbel.
    std::int32_t best_child(std::int32_t parent, int chooser) {
        return plain_ ? scored_child<false>(parent, chooser) : special_child(parent, chooser);
    }
    std::int32_t special_child(std::int32_t parent, int chooser) {
        if (params_.rule == SelectionRule::kGumbel) {
            return parent == 0 ? gumbel_root_child(chooser) : gumbel_child(parent, chooser);
        }
        return scored_child<true>(parent, chooser);
    }
    template <bool kSpecial>
    std::int32_t scored_child(std::int32_t parent, int chooser) const;
    // The solver: proves the nodes on `leaf`'s path above a newly proven end, bottom up, while
    // they can be proven (see try_prove).
    void prove_upwards(const Leaf& leaf);
    // Proves `index` (expanded, `chooser` to move) from its children's proofs if they decide it:
    // a child won by `chooser`, or every child proven (the best of them for `chooser`).
    void try_prove(std::int32_t index, int chooser);
    // The solver's ranking of a child for `chooser`: 0 proven loss, 1 unproven or draw, 2 win
    // (always 1 without the solver).
    int proof_tier(const Node& child, int chooser) const {
        if (!params_.solver) return 1;
        const Status proof = child.proof.load(std::memory_order_relaxed);
        return proof == Status::kOngoing ? 1 : 1 + result_for(proof, chooser);
    }

    // Gumbel. The root's halving: the noise and, per action, the simulations sent to it.
    struct GumbelRoot {
        std::vector<double> noise;         // g(a), 0 without gumbel_noise; empty: not drawn yet
        std::vector<std::int32_t> issued;  // simulations sent to a in this halving
        std::int64_t budget = 0;           // n: simulations of this halving through the root
        std::int64_t sent = 0;             // sum of issued
        int considered = 1;                // m = min(gumbel_actions, legal actions)
    };
    // One node's children as Gumbel sees them: visits (with pending ones as virtual losses when
    // asked), log priors, and sigma(completed Q).
    struct ChildView {
        std::array<double, Game::kMaxActions> n, w, prior, logit, sigma;
        std::int32_t count = 0;
        double total = 0.0;
    };
    void view_children(std::int32_t parent, bool with_pending, ChildView& view) const;
    // Below the root: argmax_a pi'(a) - N(a) / (1 + sum_b N(b)); with the solver, first the
    // unproven children whose visit floor P(a) * sqrt(sum_b N(b)) is at least one visit above
    // their count: it grows with the node's visits, so every reply is searched and proven in
    // the end, and costs a node at most sqrt(sum N) of its visits.
    std::int32_t gumbel_child(std::int32_t parent, int chooser) const;
    // At the root: the best-scoring child among those with the simulation count sequential
    // halving asks for.
    std::int32_t gumbel_root_child(int chooser);
    void plan_halving(std::int64_t budget);  // under gumbel_lock_
    void clear_gumbel();
    // Per action of the root: visit counts (or priors, see policy()), zero for the moves the
    // solver rules out.
    std::vector<double> root_weights() const;
    double first_play_value(std::int32_t parent) const;
    void expand(std::int32_t node_index, const Game& state, const float* priors, float value);
    void backup(const Leaf& leaf, const LeafValue& value);
    void abandon(const Leaf& leaf);
    LeafValue terminal_value(const Game& state) const { return result_value(state.status()); }
    LeafValue result_value(Status result) const;  // the exact value of a finished game
    static LeafValue network_value(const Game& state, float value);
    // The evaluator's value, mixed with a random playout's result when rollout_mix > 0.
    float leaf_value(const Game& state, float evaluated);
    void finish_leaf(Leaf& leaf, const float* priors, float value);
    void expand_root(BatchEvaluator<Game>& evaluator);
    // Evaluates one selected leaf alone, then expands and backs it up (released on error).
    void evaluate_leaf(Leaf& leaf, BatchEvaluator<Game>& evaluator, std::vector<float>& priors,
                       std::uint64_t stream);
    void flush_root_share(WorkerShare& share);
    void run_free(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt);
    void run_batched(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt);
    // Holds the search busy for one run or change of root (throws if it already is).
    class BusyGuard;
    std::int64_t gather(std::int64_t wanted, std::vector<Leaf>& leaves, std::mutex& lock, int threads);
    template <class Work>
    void on_threads(int count, Work&& work);

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
    GumbelRoot gumbel_;
    mutable std::mutex gumbel_lock_;
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
// Implementation

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
    root_noised_ = false;
    tree_full_ = false;
    clear_gumbel();
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
    root_noised_ = false;
    tree_full_ = false;
    clear_gumbel();
}

template <class Game>
LeafValue Search<Game>::result_value(Status result) const {
    LeafValue v;
    for (int p = 0; p < 2; ++p) {
        v.for_player[p] = result == Status::kDraw ? params_.draw_value : result_for(result, p);
    }
    return v;
}

template <class Game>
LeafValue Search<Game>::network_value(const Game& state, float value) {
    LeafValue v;
    v.for_player[state.to_move()] = value;
    v.for_player[1 - state.to_move()] = -value;
    return v;
}

template <class Game>
double Search<Game>::first_play_value(std::int32_t parent) const {
    if (!params_.fpu_relative) return params_.fpu_value;
    const NodeStats::Snapshot p = tree_.stats(parent).load();
    const double parent_q = p.visits > 0 ? -p.value_sum / p.visits : 0.0;
    return parent_q - params_.fpu_value;
}

// One pass over the children: each child's statistics are read once (a snapshot), which halves
// the loads of lines other threads keep writing; scores come from the snapshot. With kSpecial,
// children rank first by a tier, then by score: with the solver, their proof for the chooser (a
// proven win first, a proven loss last: it is taken only when every child is one); with forced
// playouts at the root, a child short of its forced visits before the others (pending visits
// count toward them, so that a batch does not force one child many times).
template <class Game>
template <bool kSpecial>
std::int32_t Search<Game>::scored_child(std::int32_t parent_index, [[maybe_unused]] int chooser) const {
    const Node& parent = tree_.node(parent_index);
    const std::int32_t count = parent.num_children;
    const Node* children = tree_.nodes_from(parent.first_child);
    const NodeStats* stats = tree_.stats_from(parent.first_child);
    std::array<NodeStats::Snapshot, Game::kMaxActions> seen;
    double total = 0.0;
    for (std::int32_t i = 0; i < count; ++i) {
        seen[i] = stats[i].load();
        total += seen[i].visits + params_.virtual_loss * seen[i].in_flight;
    }
    const bool ucb1 = params_.rule == SelectionRule::kUcb1;
    const double sqrt_total = std::sqrt(std::max(total, 1.0));
    const double log_total = ucb1 ? std::log(std::max(total, 1.0)) : 0.0;
    const double fpu = ucb1 ? 0.0 : first_play_value(parent_index);
    std::int32_t best = 0;
    double best_score = -std::numeric_limits<double>::infinity();
    [[maybe_unused]] int best_tier = -1;
    [[maybe_unused]] double forced_total = 0.0;  // sum_b N(b), pending visits included
    [[maybe_unused]] const bool forced = kSpecial && params_.forced_playouts && parent_index == 0;
    if constexpr (kSpecial) {
        for (std::int32_t i = 0; i < count; ++i) forced_total += seen[i].visits + seen[i].in_flight;
    }
    for (std::int32_t i = 0; i < count; ++i) {
        if constexpr (kSpecial) {  // tiers: 0 proven loss, 2 unproven or draw, 3 forced, 4 proven win
            int tier = 2 * proof_tier(children[i], chooser);
            const double had = seen[i].visits + seen[i].in_flight;
            if (forced && tier == 2 && had > 0 &&
                had < std::sqrt(params_.forced_playouts_k * children[i].prior * forced_total)) {
                tier = 3;
            }
            if (tier < best_tier) continue;
            if (tier > best_tier) {
                best_tier = tier;
                best_score = -std::numeric_limits<double>::infinity();
                best = i;
            }
        }
        const double pending = params_.virtual_loss * seen[i].in_flight;
        const double n = seen[i].visits + pending;
        const double w = seen[i].value_sum - pending;
        double score;
        if (ucb1) {
            score = n <= 0 ? std::numeric_limits<double>::infinity()
                           : w / n + params_.c_uct * std::sqrt(log_total / n);
        } else {
            score = (n > 0 ? w / n : fpu) + params_.c_puct * children[i].prior * sqrt_total / (1.0 + n);
        }
        // Ties (e.g. unvisited children under UCB1) go to the higher prior, then the lower action.
        if (score > best_score || (score == best_score && children[i].prior > children[best].prior)) {
            best_score = score;
            best = i;
        }
    }
    return parent.first_child + best;
}

template <class Game>
typename Search<Game>::SelectResult Search<Game>::select_leaf(Leaf& leaf, bool wait_on_expanding) {
    leaf.path.assign(1, 0);
    leaf.movers.assign(1, static_cast<std::int8_t>(1 - root_state_.to_move()));
    leaf.state = root_state_;
    std::int32_t index = 0;
    // The root carries no virtual loss: selection reads only the children's pending visits, and
    // skipping it spares every simulation two atomic updates on the most contended node.
    for (;;) {
        Node& node = tree_.node(index);
        NodeState state = node.state.load(std::memory_order_acquire);
        if (state == NodeState::kTerminal) {
            backup(leaf, terminal_value(leaf.state));
            return SelectResult::kFinished;
        }
        if (state == NodeState::kLeaf) {
            if (node.state.compare_exchange_strong(state, NodeState::kExpanding, std::memory_order_acquire)) {
                if (is_terminal(leaf.state.status())) {
                    node.value = static_cast<float>(terminal_value(leaf.state).for_player[leaf.movers.back()]);
                    if (params_.solver) node.proof.store(leaf.state.status());
                    node.state.store(NodeState::kTerminal, std::memory_order_release);
                    if (params_.solver) prove_upwards(leaf);
                    backup(leaf, terminal_value(leaf.state));
                    return SelectResult::kFinished;
                }
                return SelectResult::kNeedsEvaluation;
            }
        }
        if (state == NodeState::kExpanding) {
            if (!wait_on_expanding) {
                abandon(leaf);
                return SelectResult::kCollision;
            }
            while (node.state.load(std::memory_order_acquire) == NodeState::kExpanding) std::this_thread::yield();
            continue;
        }
        if (state != NodeState::kExpanded) continue;
        const int chooser = leaf.state.to_move();
        index = best_child(index, chooser);
        const Node& child = tree_.node(index);
        tree_.stats(index).add_pending();
        leaf.state.apply(child.action);
        leaf.path.push_back(index);
        leaf.movers.push_back(static_cast<std::int8_t>(chooser));
        if (!plain_ && params_.solver) {  // a proven node is not searched below: its exact value counts
            const Status proof = child.proof.load();
            if (proof != Status::kOngoing) {
                prove_upwards(leaf);  // its parent may be decided by it (another thread's proof)
                backup(leaf, result_value(proof));
                return SelectResult::kFinished;
            }
        }
    }
}

template <class Game>
void Search<Game>::prove_upwards(const Leaf& leaf) {
    for (std::size_t i = leaf.path.size() - 1; i-- > 0;) {
        const Node& node = tree_.node(leaf.path[i]);
        if (node.proof.load() == Status::kOngoing) try_prove(leaf.path[i], leaf.movers[i + 1]);
        if (node.proof.load() == Status::kOngoing) return;
    }
}

// Sequentially consistent loads and stores: of two threads that prove the last two undecided
// children of a node at once, at least one sees both proofs.
template <class Game>
void Search<Game>::try_prove(std::int32_t index, int chooser) {
    Node& node = tree_.node(index);
    if (node.state.load() != NodeState::kExpanded) return;
    int best = -2;  // the best proven result among the children, for the chooser
    bool all_proven = true;
    for (std::int32_t i = 0; i < node.num_children && best < 1; ++i) {
        const Status proof = tree_.node(node.first_child + i).proof.load();
        if (proof == Status::kOngoing) all_proven = false;
        else best = std::max(best, result_for(proof, chooser));
    }
    if (best < 1 && !all_proven) return;
    const Status result = best == 1 ? win_for(chooser) : best == 0 ? Status::kDraw : win_for(1 - chooser);
    Status unproven = Status::kOngoing;
    node.proof.compare_exchange_strong(unproven, result);  // a proof, once made, stays
}

// Seed 004's winning value decay: the node k steps above the leaf gets the leaf's value times
// value_decay^k (the edge into the leaf itself k = 0), so that near outcomes outweigh far ones.
template <class Game>
void Search<Game>::backup(const Leaf& leaf, const LeafValue& value) {
    double scale = 1.0;
    for (std::size_t i = leaf.path.size() - 1; i >= 1; --i) {
        tree_.stats(leaf.path[i]).add_visits(1, scale * value.for_player[leaf.movers[i]], true);
        scale *= params_.value_decay;
    }
    const double root_value = scale * value.for_player[leaf.movers[0]];
    if (leaf.worker == nullptr) {
        tree_.stats(0).add_visits(1, root_value, false);
    } else {
        ++leaf.worker->root_visits;
        leaf.worker->root_value_sum += root_value;
    }
}

template <class Game>
void Search<Game>::abandon(const Leaf& leaf) {
    for (std::size_t i = 1; i < leaf.path.size(); ++i) {
        tree_.stats(leaf.path[i]).drop_pending();
    }
    if (params_.rule == SelectionRule::kGumbel && leaf.path.size() > 1) {  // the root's choice too
        const std::lock_guard<std::mutex> guard(gumbel_lock_);
        const Action action = tree_.node(leaf.path[1]).action;
        if (!gumbel_.issued.empty() && gumbel_.issued[action] > 0) {
            --gumbel_.issued[action];
            --gumbel_.sent;
        }
    }
}

template <class Game>
void Search<Game>::expand(std::int32_t node_index, const Game& state, const float* priors, float value) {
    Node& node = tree_.node(node_index);
    node.value = value;
    ActionList<Game::kMaxActions> actions;
    state.legal_actions(actions);
    const std::int32_t first = tree_.allocate(actions.size());
    if (first < 0) {  // the arena is full: the node stays a leaf, its value still counts
        tree_full_ = true;
        node.state.store(NodeState::kLeaf, std::memory_order_release);
        return;
    }
    double total = 0.0;
    for (Action a : actions) total += std::max(0.0f, priors[a]);
    for (int i = 0; i < actions.size(); ++i) {
        Node& child = tree_.node(first + i);
        child.action = actions[i];
        const double weight = std::max(0.0f, priors[actions[i]]);
        child.prior = static_cast<float>(total > 0 ? weight / total : 1.0 / actions.size());
    }
    node.first_child = first;
    node.num_children = actions.size();
    node.state.store(NodeState::kExpanded, std::memory_order_release);
}

template <class Game>
float Search<Game>::leaf_value(const Game& state, float evaluated) {
    const double mix = params_.rollout_mix;
    if (mix <= 0) return evaluated;
    const std::uint64_t playout = playouts_.fetch_add(1, std::memory_order_relaxed) + 1;
    Rng rng(params_.seed ^ (0xD6E8FEB86659FD93ull * playout));
    const Status end = random_playout(state, rng);
    const double z = end == Status::kDraw ? params_.draw_value : result_for(end, state.to_move());
    return static_cast<float>((1 - mix) * evaluated + mix * z);
}

template <class Game>
void Search<Game>::finish_leaf(Leaf& leaf, const float* priors, float value) {
    const float mixed = leaf_value(leaf.state, value);
    expand(leaf.path.back(), leaf.state, priors, mixed);
    backup(leaf, network_value(leaf.state, mixed));
}

template <class Game>
std::int64_t Search<Game>::collect(std::int64_t wanted, std::vector<SearchLeaf<Game>>& leaves) {
    if (is_terminal(root_state_.status())) fail("the game at the root is over; there is nothing to search");
    std::mutex unused;  // one worker: gather runs on the calling thread
    return gather(wanted, leaves, unused, 1);
}

template <class Game>
void Search<Game>::complete(SearchLeaf<Game>& leaf, const float* priors, float value) {
    finish_leaf(leaf, priors, value);
    if (leaf.path.size() == 1) add_root_noise();
}

template <class Game>
void Search<Game>::release(const SearchLeaf<Game>& leaf) {
    tree_.node(leaf.path.back()).state.store(NodeState::kLeaf);
    abandon(leaf);
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

// Runs work(0) .. work(count - 1) at once on the search's own thread pool (started on first use
// and kept, so that back-to-back searches and rounds do not start threads each time; capped at
// the machine's hardware threads), the calling thread taking part; rethrows the first error.
template <class Game>
template <class Work>
void Search<Game>::on_threads(int count, Work&& work) {
    if (count <= 1) {
        work(0);
        return;
    }
    if (!pool_ || pool_->size() < std::min<int>(count, hardware_threads())) {
        pool_ = std::make_unique<ThreadPool>(count);
    }
    pool_->for_each(count, [&](std::int64_t id) { work(static_cast<int>(id)); });
}

template <class Game>
void Search<Game>::expand_root(BatchEvaluator<Game>& evaluator) {
    Leaf leaf{{}, {}, root_state_};
    if (select_leaf(leaf, false) != SelectResult::kNeedsEvaluation) return;
    std::vector<float> priors(root_state_.num_actions());
    evaluate_leaf(leaf, evaluator, priors, 0);
}

template <class Game>
void Search<Game>::evaluate_leaf(Leaf& leaf, BatchEvaluator<Game>& evaluator,
                                 std::vector<float>& priors, std::uint64_t stream) {
    float value = 0.0f;
    try {
        evaluator.evaluate_one(leaf.state, priors.data(), &value, stream);
    } catch (...) {
        release(leaf);
        throw;
    }
    finish_leaf(leaf, priors.data(), value);
}

template <class Game>
void Search<Game>::run(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt) {
    const BusyGuard busy(*this, "Search.run");
    if (simulations < 0) fail("simulations must be >= 0");
    if (is_terminal(root_state_.status())) fail("the game at the root is over; there is nothing to search");
    if (simulations == 0) return;
    plan_root_search(simulations);
    if (tree_.node(0).state.load() == NodeState::kLeaf) {
        expand_root(evaluator);
        --simulations;
    }
    add_root_noise();
    if (evaluator.thread_safe()) run_free(simulations, evaluator, interrupt);
    else run_batched(simulations, evaluator, interrupt);
}

template <class Game>
void Search<Game>::flush_root_share(WorkerShare& share) {
    if (share.root_visits > 0) tree_.stats(0).add_visits(share.root_visits, share.root_value_sum, false);
    share.root_visits = 0;
    share.root_value_sum = 0.0;
}

// Each worker claims simulations in small chunks and tallies the root's statistics itself
// (flushed after every chunk), so that the only cache lines the threads share on every
// simulation are those of the nodes they pass through.
template <class Game>
void Search<Game>::run_free(std::int64_t simulations, BatchEvaluator<Game>& evaluator,
                            InterruptPoll* interrupt) {
    std::atomic<std::int64_t> claimed{0};
    const std::int64_t chunk = std::clamp<std::int64_t>(simulations / (16 * params_.threads), 1, 32);
    on_threads(params_.threads, [&](int worker) {
        Leaf leaf{{}, {}, root_state_};
        WorkerShare share;
        leaf.worker = &share;
        std::vector<float> priors(root_state_.num_actions());
        // Evaluator streams: worker in the high bits, the worker's own count below (one thread
        // with a fixed seed replays the same streams).
        std::uint64_t stream = (static_cast<std::uint64_t>(worker) << 40) + 1;
        try {
            for (;;) {
                if (interrupt != nullptr && interrupt->poll()) break;
                const std::int64_t first = claimed.fetch_add(chunk, std::memory_order_relaxed);
                if (first >= simulations) break;
                const std::int64_t last = std::min(first + chunk, simulations);
                for (std::int64_t i = first; i < last; ++i) {
                    if (select_leaf(leaf, true) != SelectResult::kNeedsEvaluation) continue;
                    evaluate_leaf(leaf, evaluator, priors, stream++);
                }
                flush_root_share(share);
            }
        } catch (...) {
            flush_root_share(share);
            throw;
        }
    });
}

template <class Game>
std::int64_t Search<Game>::gather(std::int64_t wanted, std::vector<Leaf>& leaves, std::mutex& lock,
                                  int threads) {
    std::atomic<std::int64_t> claimed{0};  // simulations reserved by a thread before selecting
    std::atomic<std::int64_t> attempts{0};
    std::atomic<std::int64_t> finished{0};
    std::atomic<std::int64_t> collided{0};
    const std::int64_t max_attempts = 2 * wanted;
    on_threads(static_cast<int>(std::min<std::int64_t>(threads, wanted)), [&](int) {
        Leaf leaf{{}, {}, root_state_};
        while (attempts.fetch_add(1, std::memory_order_relaxed) < max_attempts) {
            if (claimed.fetch_add(1) >= wanted) return;
            const SelectResult result = select_leaf(leaf, false);
            if (result == SelectResult::kFinished) {
                finished.fetch_add(1);
            } else if (result == SelectResult::kCollision) {
                collided.fetch_add(1);
                claimed.fetch_sub(1);
            } else {
                std::lock_guard<std::mutex> guard(lock);
                leaves.push_back(leaf);
            }
        }
    });
    collisions_ += collided.load();
    return finished.load();
}

template <class Game>
void Search<Game>::run_batched(std::int64_t simulations, BatchEvaluator<Game>& evaluator,
                               InterruptPoll* interrupt) {
    std::vector<Leaf> leaves;
    std::vector<const Game*> states;
    std::vector<float> priors;
    std::vector<float> values;
    std::mutex lock;
    std::int64_t done = 0;
    while (done < simulations) {
        if (interrupt != nullptr && interrupt->poll()) break;
        leaves.clear();
        const std::int64_t wanted = std::min<std::int64_t>(params_.batch_size, simulations - done);
        done += gather(wanted, leaves, lock, params_.threads);
        if (leaves.empty()) continue;
        states.clear();
        for (const Leaf& leaf : leaves) states.push_back(&leaf.state);
        priors.assign(leaves.size() * root_state_.num_actions(), 0.0f);
        values.assign(leaves.size(), 0.0f);
        try {
            evaluator.evaluate(states, priors.data(), values.data());
        } catch (...) {
            for (const Leaf& leaf : leaves) release(leaf);
            throw;
        }
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            finish_leaf(leaves[i], priors.data() + i * root_state_.num_actions(), values[i]);
        }
        done += static_cast<std::int64_t>(leaves.size());
    }
}

template <class Game>
std::vector<Action> Search<Game>::principal_variation(int max_depth) const {
    std::vector<Action> line;
    std::int32_t node_index = 0;
    while (static_cast<int>(line.size()) < max_depth) {
        const Node& node = tree_.node(node_index);
        if (node.state.load() != NodeState::kExpanded) break;
        std::int32_t best = -1;
        std::int64_t most = 0;
        for (std::int32_t i = 0; i < node.num_children; ++i) {
            const std::int64_t visits = tree_.stats(node.first_child + i).visits();
            if (visits > most) {
                most = visits;
                best = node.first_child + i;
            }
        }
        if (best < 0) break;
        line.push_back(tree_.node(best).action);
        node_index = best;
    }
    return line;
}

template <class Game>
std::vector<std::int32_t> Search<Game>::visit_counts() const {
    std::vector<std::int32_t> counts(root_state_.num_actions(), 0);
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) return counts;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        counts[tree_.node(root.first_child + i).action] = tree_.stats(root.first_child + i).visits();
    }
    return counts;
}

template <class Game>
std::vector<float> Search<Game>::q_values() const {
    std::vector<float> q(root_state_.num_actions(), std::numeric_limits<float>::quiet_NaN());
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) return q;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        const NodeStats::Snapshot stats = tree_.stats(root.first_child + i).load();
        if (stats.visits > 0) q[tree_.node(root.first_child + i).action] = static_cast<float>(stats.value_sum / stats.visits);
    }
    return q;
}

template <class Game>
std::vector<float> Search<Game>::priors() const {
    std::vector<float> p(root_state_.num_actions(), 0.0f);
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) return p;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        const Node& child = tree_.node(root.first_child + i);
        p[child.action] = child.prior;
    }
    return p;
}

template <class Game>
double Search<Game>::root_value() const {
    const NodeStats::Snapshot stats = tree_.stats(0).load();
    return stats.visits > 0 ? -stats.value_sum / stats.visits : 0.0;
}

template <class Game>
int Search<Game>::proven_value() const {
    const Status proof = tree_.node(0).proof.load();
    return proof == Status::kOngoing ? 2 : result_for(proof, root_state_.to_move());
}

template <class Game>
std::vector<double> Search<Game>::root_weights() const {
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
    // The solver's filter: the proven wins if any, else the moves not proven lost if any.
    std::vector<int> tier(root.num_children, 1);  // 0 proven loss, 1 unproven or draw, 2 proven win
    if (params_.solver) {
        for (std::int32_t i = 0; i < root.num_children; ++i) {
            const Status proof = tree_.node(root.first_child + i).proof.load();
            if (proof != Status::kOngoing) tier[i] = 1 + result_for(proof, root_state_.to_move());
        }
    }
    const int keep = *std::max_element(tier.begin(), tier.end());
    bool visited = false;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        if (tier[i] >= keep) visited = visited || tree_.stats(root.first_child + i).visits() > 0;
    }
    std::vector<double> counts(root_state_.num_actions(), 0.0);
    for (std::int32_t i = 0; i < root.num_children; ++i) {  // visits, else priors (see policy())
        if (tier[i] < keep) continue;
        const std::int32_t child = root.first_child + i;
        counts[tree_.node(child).action] =
            visited ? static_cast<double>(tree_.stats(child).visits()) : static_cast<double>(tree_.node(child).prior);
    }
    if (*std::max_element(counts.begin(), counts.end()) <= 0) {  // kept moves of prior 0, unvisited
        for (std::int32_t i = 0; i < root.num_children; ++i) {
            if (tier[i] >= keep) counts[tree_.node(root.first_child + i).action] = 1.0;
        }
    }
    return counts;
}

template <class Game>
std::vector<float> Search<Game>::policy(double temperature) const {
    check_range(temperature, 0, std::numeric_limits<double>::max(), "temperature", "a finite number >= 0");
    const std::vector<double> counts = root_weights();
    std::vector<float> pi(counts.size(), 0.0f);
    if (temperature == 0 && params_.rule == SelectionRule::kGumbel) {
        pi[gumbel_action()] = 1.0f;
        return pi;
    }
    const auto best = std::max_element(counts.begin(), counts.end());
    if (temperature == 0) {  // *best > 0 from here on: the priors of an expansion sum to 1
        pi[best - counts.begin()] = 1.0f;
        return pi;
    }
    // N^(1/t) scaled by the largest count first, so that small temperatures do not overflow.
    double total = 0.0;
    std::vector<double> weights(counts.size(), 0.0);
    for (std::size_t a = 0; a < counts.size(); ++a) {
        if (counts[a] > 0) total += (weights[a] = std::pow(counts[a] / *best, 1.0 / temperature));
    }
    for (std::size_t a = 0; a < counts.size(); ++a) pi[a] = static_cast<float>(weights[a] / total);
    return pi;
}

template <class Game>
Action Search<Game>::choose_action(double temperature, Rng& rng) const {
    if (temperature == 0 && params_.rule == SelectionRule::kGumbel) return gumbel_action();
    const std::vector<float> pi = policy(temperature);
    if (temperature == 0) return static_cast<Action>(std::max_element(pi.begin(), pi.end()) - pi.begin());
    double x = rng.uniform();
    Action last = 0;
    for (std::size_t a = 0; a < pi.size(); ++a) {
        if (pi[a] <= 0) continue;
        last = static_cast<Action>(a);
        x -= pi[a];
        if (x < 0) return last;
    }
    return last;
}

template <class Game>
std::int64_t Search<Game>::pending_visits() const {
    std::int64_t total = 0;
    for (std::int64_t i = 0; i < tree_.size(); ++i) total += tree_.stats(static_cast<std::int32_t>(i)).in_flight();
    return total;
}

// ---------------------------------------------------------------------------------------------
// Gumbel AlphaZero (see search/gumbel.h)

template <class Game>
void Search<Game>::clear_gumbel() {
    const std::lock_guard<std::mutex> guard(gumbel_lock_);
    gumbel_ = GumbelRoot{};
}

template <class Game>
void Search<Game>::plan_root_search(std::int64_t simulations) {
    if (params_.rule != SelectionRule::kGumbel) return;
    const bool leaf = tree_.node(0).state.load() == NodeState::kLeaf;
    const std::lock_guard<std::mutex> guard(gumbel_lock_);
    plan_halving(std::max<std::int64_t>(0, simulations - (leaf ? 1 : 0)));
}

template <class Game>
void Search<Game>::plan_halving(std::int64_t budget) {
    const int num_actions = root_state_.num_actions();
    if (gumbel_.noise.empty()) {
        gumbel_.noise.assign(num_actions, 0.0);
        if (params_.gumbel_noise) {
            for (double& g : gumbel_.noise) g = gumbel_sample(rng_);
        }
    }
    ActionList<Game::kMaxActions> actions;
    root_state_.legal_actions(actions);
    gumbel_.issued.assign(num_actions, 0);
    gumbel_.budget = budget;
    gumbel_.sent = 0;
    gumbel_.considered = std::max(1, std::min(params_.gumbel_actions, actions.size()));
}

template <class Game>
void Search<Game>::view_children(std::int32_t parent, bool with_pending, ChildView& view) const {
    const Node& node = tree_.node(parent);
    const Node* children = tree_.nodes_from(node.first_child);
    const NodeStats* stats = tree_.stats_from(node.first_child);
    view.count = node.num_children;
    view.total = 0.0;
    for (std::int32_t i = 0; i < view.count; ++i) {
        const NodeStats::Snapshot seen = stats[i].load();
        const double pending = with_pending ? params_.virtual_loss * seen.in_flight : 0.0;
        view.n[i] = seen.visits + pending;
        view.w[i] = seen.value_sum - pending;
        view.prior[i] = children[i].prior;
        view.logit[i] = std::log(std::max(view.prior[i], static_cast<double>(FLT_MIN)));
        view.total += view.n[i];
    }
    completed_sigma(view.count, view.n.data(), view.w.data(), view.prior.data(), node.value,
                    params_.gumbel_c_visit, params_.gumbel_c_scale, view.sigma.data());
}

template <class Game>
std::int32_t Search<Game>::gumbel_child(std::int32_t parent_index, int chooser) const {
    const Node& parent = tree_.node(parent_index);
    const Node* children = tree_.nodes_from(parent.first_child);
    ChildView view;
    view_children(parent_index, true, view);
    double top = -std::numeric_limits<double>::infinity();
    for (std::int32_t i = 0; i < view.count; ++i) top = std::max(top, view.logit[i] + view.sigma[i]);
    double z = 0.0;
    for (std::int32_t i = 0; i < view.count; ++i) z += std::exp(view.logit[i] + view.sigma[i] - top);
    std::int32_t best = 0;
    int best_tier = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    const double sqrt_total = std::sqrt(view.total);
    for (std::int32_t i = 0; i < view.count; ++i) {
        // Below the root a proven draw ranks under the unproven children: its value is exact, so
        // more visits teach nothing, and the improved policy can favour it for ever, starving
        // the siblings whose proofs decide the node (a livelock found with two threads). And an
        // unproven child below its solver floor ranks over the others: once a sibling's Q is
        // higher the improved policy gives it ~0 mass for good, yet a loss or a draw is proven
        // only when every child is.
        const int proof = proof_tier(children[i], chooser);
        const bool draw = proof == 1 && children[i].proof.load(std::memory_order_relaxed) == Status::kDraw;
        const bool starved =
            proof == 1 && !draw && params_.solver && view.n[i] + 1.0 <= view.prior[i] * sqrt_total;
        const int tier = proof == 0 ? 0 : draw ? 1 : starved ? 3 : proof == 1 ? 2 : 4;
        const double improved = std::exp(view.logit[i] + view.sigma[i] - top) / z;
        const double score = improved - view.n[i] / (1.0 + view.total);
        if (tier > best_tier || (tier == best_tier && score > best_score)) {
            best_tier = tier;
            best_score = score;
            best = i;
        }
    }
    return parent.first_child + best;
}

template <class Game>
std::int32_t Search<Game>::gumbel_root_child(int chooser) {
    const Node& root = tree_.node(0);
    const Node* children = tree_.nodes_from(root.first_child);
    ChildView view;
    view_children(0, false, view);
    const std::lock_guard<std::mutex> guard(gumbel_lock_);
    if (gumbel_.issued.empty()) plan_halving(0);
    // A proven root (the solver) needs no halving: its best proven child takes the simulations.
    const bool proven = params_.solver && root.proof.load() != Status::kOngoing;
    const std::int64_t wanted = considered_visit(gumbel_.considered, gumbel_.budget, gumbel_.sent);
    std::int32_t best = -1;
    int best_tier = -1;
    std::int32_t best_issued = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (std::int32_t i = 0; i < view.count; ++i) {
        const Action a = children[i].action;
        const int tier = proof_tier(children[i], chooser);
        const std::int32_t issued = gumbel_.issued[a];
        // Off the schedule (only if no action has the wanted count, or the root is proven),
        // the most simulated action is the halving's survivor.
        const std::int32_t rank = proven ? 0 : issued == wanted ? std::numeric_limits<std::int32_t>::max() : issued;
        const double score = gumbel_.noise[a] + view.logit[i] + view.sigma[i];
        if (tier > best_tier || (tier == best_tier && (rank > best_issued || (rank == best_issued && score > best_score)))) {
            best_tier = tier;
            best_issued = rank;
            best_score = score;
            best = i;
        }
    }
    ++gumbel_.issued[children[best].action];
    ++gumbel_.sent;
    return root.first_child + best;
}

template <class Game>
Action Search<Game>::gumbel_action() const {
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
    const Node* children = tree_.nodes_from(root.first_child);
    ChildView view;
    view_children(0, false, view);
    const std::lock_guard<std::mutex> guard(gumbel_lock_);
    Action best = kNoAction;
    int best_tier = -1;
    std::int32_t best_issued = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (std::int32_t i = 0; i < view.count; ++i) {
        const Action a = children[i].action;
        const int tier = proof_tier(children[i], root_state_.to_move());
        const std::int32_t issued = gumbel_.issued.empty() ? 0 : gumbel_.issued[a];
        const double score = (gumbel_.noise.empty() ? 0.0 : gumbel_.noise[a]) + view.logit[i] + view.sigma[i];
        if (tier > best_tier || (tier == best_tier && (issued > best_issued || (issued == best_issued && score > best_score)))) {
            best_tier = tier;
            best_issued = issued;
            best_score = score;
            best = a;
        }
    }
    return best;
}

template <class Game>
std::vector<float> Search<Game>::improved_policy() const {
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
    const Node* children = tree_.nodes_from(root.first_child);
    ChildView view;
    view_children(0, false, view);
    double top = -std::numeric_limits<double>::infinity();
    for (std::int32_t i = 0; i < view.count; ++i) top = std::max(top, view.logit[i] + view.sigma[i]);
    std::vector<double> weights(view.count);
    double z = 0.0;
    for (std::int32_t i = 0; i < view.count; ++i) z += (weights[i] = std::exp(view.logit[i] + view.sigma[i] - top));
    std::vector<float> pi(root_state_.num_actions(), 0.0f);
    for (std::int32_t i = 0; i < view.count; ++i) pi[children[i].action] = static_cast<float>(weights[i] / z);
    return pi;
}

template <class Game>
std::vector<std::int32_t> Search<Game>::pruned_visit_counts() const {
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
    const Node* children = tree_.nodes_from(root.first_child);
    const NodeStats* stats = tree_.stats_from(root.first_child);
    std::vector<NodeStats::Snapshot> seen(root.num_children);
    double total = 0.0;
    std::int32_t best = 0;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        seen[i] = stats[i].load();
        total += seen[i].visits;
        if (seen[i].visits > seen[best].visits) best = i;
    }
    const double explore = params_.c_puct * std::sqrt(total);
    const auto puct = [&](std::int32_t i, double n) {
        return seen[i].value_sum / seen[i].visits + explore * children[i].prior / (1.0 + n);
    };
    std::vector<std::int32_t> counts(root_state_.num_actions(), 0);
    if (seen[best].visits == 0) return counts;
    const double best_puct = puct(best, seen[best].visits);
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        const double n = seen[i].visits;
        double kept = n;
        if (i != best && n > 0) {
            const double forced = std::sqrt(params_.forced_playouts_k * children[i].prior * total);
            const double q = seen[i].value_sum / n;
            // PUCT(c, m) <= PUCT(c*) for m >= n_eq; none can go if PUCT(c, N(c)) > PUCT(c*).
            const double n_eq = best_puct > q ? explore * children[i].prior / (best_puct - q) - 1.0 : n;
            if (puct(i, n) <= best_puct) kept = std::min(n, std::ceil(std::max({n - forced, n_eq, 0.0})));
            if (kept <= 1) kept = 0;
        }
        counts[children[i].action] = static_cast<std::int32_t>(kept);
    }
    return counts;
}

template <class Game>
std::vector<float> Search<Game>::policy_target() const {
    if (params_.rule == SelectionRule::kGumbel) return improved_policy();
    if (!params_.forced_playouts) return policy(1.0);
    std::vector<double> weights = root_weights();  // the solver's filter, or the priors
    const std::vector<std::int32_t> pruned = pruned_visit_counts();
    double total = 0.0;
    for (std::size_t a = 0; a < weights.size(); ++a) total += weights[a] > 0 ? pruned[a] : 0;
    std::vector<float> pi(weights.size(), 0.0f);
    for (std::size_t a = 0; a < weights.size(); ++a) {
        const double w = total > 0 ? (weights[a] > 0 ? pruned[a] : 0) : weights[a];
        pi[a] = static_cast<float>(w);
    }
    double sum = 0.0;
    for (float x : pi) sum += x;
    for (float& x : pi) x = static_cast<float>(x / sum);
    return pi;
}

}  // namespace pyaz
