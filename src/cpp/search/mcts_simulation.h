// Search's members for one simulation (the class is in search/mcts.h): selection from the root
// down to a leaf, each step's child under virtual loss (a pending visit); the leaf's expansion
// with the evaluator's priors; the backup of its value (seed 004's value decay), or of a
// terminal or proven node's exact value; and the abandon of an unevaluated leaf. Include
// search/mcts.h, which includes this file.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>

#include "games/common.h"
#include "search/mcts.h"

namespace pyaz {

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
                    if (params_.solver) prove_upwards(tree_, leaf.path, leaf.movers);
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
                prove_upwards(tree_, leaf.path, leaf.movers);  // its parent may be decided by it (another thread's proof)
                backup(leaf, result_value(proof, params_.draw_value));
                return SelectResult::kFinished;
            }
        }
    }
}

template <class Game>
std::int32_t Search<Game>::scored_child(std::int32_t parent) const {
    const ChildSnapshot<Game::kMaxActions> children(tree_, parent, params_.virtual_loss);
    const ChildScore score(tree_, params_, parent, children.total);
    return best_scoring_child(children, score);
}

// Children rank first by a tier, then by score. With the solver, their proof for the chooser (a
// proven win first, a proven loss last: it is taken only when every child is one); with forced
// playouts at the root, a child owed forced playouts before the others (pending visits count
// toward them, so that a batch does not force one child many times).
template <class Game>
std::int32_t Search<Game>::tiered_child(std::int32_t parent, int chooser) const {
    const ChildSnapshot<Game::kMaxActions> children(tree_, parent, params_.virtual_loss);
    const ChildScore score(tree_, params_, parent, children.total);
    const bool forced = params_.forced_playouts && parent == 0;
    const double forced_total = forced ? children.total_with_pending() : 0.0;  // sum_b N(b)
    // Tiers: 0 proven loss, 2 unproven or draw, 3 owed forced playouts, 4 proven win.
    return best_scoring_child(children, score, [&](std::int32_t i) {
        const int tier = 2 * proof_tier(children.nodes[i], chooser, params_.solver);
        const bool owed = forced && tier == 2 &&
                          owed_forced_playouts(children.visits_with_pending(i), children.nodes[i].prior,
                                               forced_total, params_.forced_playouts_k);
        return owed ? 3 : tier;
    });
}

template <class Game>
std::int32_t Search<Game>::gumbel_root_child(int chooser) {
    const Node& root = tree_.node(0);
    const GumbelChildView<Game::kMaxActions> view(tree_, 0, params_, false);
    return root.first_child + halving_.send(view, root, root_state_, chooser, params_, rng_);
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

// Takes back a selected leaf's virtual losses (and, under Gumbel, the root's choice).
template <class Game>
void Search<Game>::abandon(const Leaf& leaf) {
    for (std::size_t i = 1; i < leaf.path.size(); ++i) {
        tree_.stats(leaf.path[i]).drop_pending();
    }
    if (params_.rule == SelectionRule::kGumbel && leaf.path.size() > 1) {
        halving_.take_back(tree_.node(leaf.path[1]).action);
    }
}

template <class Game>
float Search<Game>::leaf_value(const Game& state, float evaluated) {
    if (params_.rollout_mix <= 0) return evaluated;
    const std::uint64_t playout = playouts_.fetch_add(1, std::memory_order_relaxed) + 1;
    return rollout_mixed_value(state, evaluated, params_, playout);
}

template <class Game>
void Search<Game>::finish_leaf(Leaf& leaf, const float* priors, float value) {
    const float mixed = leaf_value(leaf.state, value);
    expand(leaf.path.back(), leaf.state, priors, mixed);
    backup(leaf, network_value(leaf.state, mixed));
}

}  // namespace pyaz
