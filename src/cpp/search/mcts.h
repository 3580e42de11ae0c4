// Monte Carlo tree search on one tree, templated on the game: PUCT (AlphaZero) or UCB1 (plain
// UCT) selection, virtual loss, several threads, batched leaf evaluation, Dirichlet root noise,
// exact terminal values and tree reuse.
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
    // Mixes Dirichlet noise into the root priors once per root (no-op if disabled or unexpanded).
    void add_root_noise();

    // Root statistics indexed by action (0 for illegal actions).
    std::vector<std::int32_t> visit_counts() const;
    std::vector<float> q_values() const;  // for the player to move at the root; NaN if unvisited
    std::vector<float> priors() const;
    // Value of the root for the player to move there (mean over all its simulations).
    double root_value() const;
    std::int32_t root_visits() const { return tree_.stats(0).visits(); }
    // Visit-count policy pi ~ N^(1/temperature); temperature 0 puts all mass on the most
    // visited action (lowest action on ties). When the root is expanded but no child has a visit
    // yet (one simulation: it expanded the root), the priors stand in for the visit counts, so
    // that the smallest search still gives a move. Fails only before any simulation.
    std::vector<float> policy(double temperature) const;
    // Samples from policy(temperature), or the most visited action when temperature is 0.
    Action choose_action(double temperature, Rng& rng) const;
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
    std::int32_t best_child(std::int32_t parent) const;
    double first_play_value(std::int32_t parent) const;
    void expand(std::int32_t node_index, const Game& state, const float* priors);
    void backup(const Leaf& leaf, const LeafValue& value);
    void abandon(const Leaf& leaf);
    LeafValue terminal_value(const Game& state) const;
    static LeafValue network_value(const Game& state, float value);
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
    Game root_state_;
    Tree tree_;
    Tree spare_;
    Rng rng_;
    bool root_noised_ = false;
    std::atomic<bool> tree_full_{false};
    std::int64_t collisions_ = 0;
    std::uint64_t streams_ = 0;
    std::unique_ptr<ThreadPool> pool_;
    std::atomic<bool> busy_{false};
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
}

template <class Game>
LeafValue Search<Game>::terminal_value(const Game& state) const {
    LeafValue v;
    for (int p = 0; p < 2; ++p) {
        v.for_player[p] = state.status() == Status::kDraw ? params_.draw_value
                                                          : result_for(state.status(), p);
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
// the loads of lines other threads keep writing; scores come from the snapshot.
template <class Game>
std::int32_t Search<Game>::best_child(std::int32_t parent_index) const {
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
    for (std::int32_t i = 0; i < count; ++i) {
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
                    node.terminal_value = static_cast<float>(terminal_value(leaf.state).for_player[leaf.movers.back()]);
                    node.state.store(NodeState::kTerminal, std::memory_order_release);
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
        index = best_child(index);
        const Node& child = tree_.node(index);
        tree_.stats(index).add_pending();
        leaf.state.apply(child.action);
        leaf.path.push_back(index);
        leaf.movers.push_back(static_cast<std::int8_t>(chooser));
    }
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
}

template <class Game>
void Search<Game>::expand(std::int32_t node_index, const Game& state, const float* priors) {
    Node& node = tree_.node(node_index);
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
void Search<Game>::finish_leaf(Leaf& leaf, const float* priors, float value) {
    expand(leaf.path.back(), leaf.state, priors);
    backup(leaf, network_value(leaf.state, value));
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
    if (root_noised_ || params_.dirichlet_epsilon <= 0 || root.state.load() != NodeState::kExpanded) return;
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
std::vector<float> Search<Game>::policy(double temperature) const {
    check_range(temperature, 0, std::numeric_limits<double>::max(), "temperature", "a finite number >= 0");
    std::vector<double> counts(root_state_.num_actions(), 0.0);
    const Node& root = tree_.node(0);
    if (root.state.load() != NodeState::kExpanded) fail("no simulations have been run at the root yet");
    bool visited = false;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        visited = visited || tree_.stats(root.first_child + i).visits() > 0;
    }
    for (std::int32_t i = 0; i < root.num_children; ++i) {  // visits, else priors (see above)
        const std::int32_t child = root.first_child + i;
        counts[tree_.node(child).action] =
            visited ? static_cast<double>(tree_.stats(child).visits()) : static_cast<double>(tree_.node(child).prior);
    }
    std::vector<float> pi(counts.size(), 0.0f);
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

}  // namespace pyaz
