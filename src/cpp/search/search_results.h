// What a search leaves at its root, read between runs: the principal variation, the root's visit
// counts, Q values and priors, its mean value, and the visit-count policy with the solver's
// filter. Search's members of the same meaning (visit_counts, policy, ...) call these.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/rng.h"
#include "games/common.h"
#include "search/solver.h"
#include "search/tree.h"

namespace pyaz {

// From the root, the most visited child of each expanded node (ties: the first), while it has
// visits, at most max_depth moves.
inline std::vector<Action> most_visited_line(const Tree& tree, int max_depth) {
    std::vector<Action> line;
    std::int32_t node_index = 0;
    while (static_cast<int>(line.size()) < max_depth) {
        const Node& node = tree.node(node_index);
        if (node.state.load() != NodeState::kExpanded) break;
        std::int32_t best = -1;
        std::int64_t most = 0;
        for (std::int32_t i = 0; i < node.num_children; ++i) {
            const std::int64_t visits = tree.stats(node.first_child + i).visits();
            if (visits > most) {
                most = visits;
                best = node.first_child + i;
            }
        }
        if (best < 0) break;
        line.push_back(tree.node(best).action);
        node_index = best;
    }
    return line;
}

// Calls visit(child, stats) for each child of the root, if it is expanded.
template <class Visit>
void for_each_root_child(const Tree& tree, Visit&& visit) {
    const Node& root = tree.node(0);
    if (root.state.load() != NodeState::kExpanded) return;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        visit(tree.node(root.first_child + i), tree.stats(root.first_child + i));
    }
}

// The root's children's visits, indexed by action (0 for illegal actions).
inline std::vector<std::int32_t> root_visit_counts(const Tree& tree, int num_actions) {
    std::vector<std::int32_t> counts(num_actions, 0);
    for_each_root_child(tree, [&](const Node& child, const NodeStats& stats) { counts[child.action] = stats.visits(); });
    return counts;
}

// The root's children's Q for the player to move at the root, indexed by action (NaN unvisited).
inline std::vector<float> root_q_values(const Tree& tree, int num_actions) {
    std::vector<float> q(num_actions, std::numeric_limits<float>::quiet_NaN());
    for_each_root_child(tree, [&](const Node& child, const NodeStats& stats) {
        const NodeStats::Snapshot seen = stats.load();
        if (seen.visits > 0) q[child.action] = static_cast<float>(seen.value_sum / seen.visits);
    });
    return q;
}

// The root's children's priors, indexed by action (0 for illegal actions).
inline std::vector<float> root_priors(const Tree& tree, int num_actions) {
    std::vector<float> p(num_actions, 0.0f);
    for_each_root_child(tree, [&](const Node& child, const NodeStats&) { p[child.action] = child.prior; });
    return p;
}

// The root's value for the player to move there: the mean over all its simulations (0 before any).
inline double root_mean_value(const Tree& tree) {
    const NodeStats::Snapshot stats = tree.stats(0).load();
    return stats.visits > 0 ? -stats.value_sum / stats.visits : 0.0;
}

// Per action of the (expanded) root: the visit counts of the moves the solver keeps (see
// root_proof_tiers), 0 for the others. When none of them has a visit yet (the one simulation
// expanded the root), their priors stand in, and when those are all 0, 1 each.
inline std::vector<double> root_move_weights(const Tree& tree, int to_move, int num_actions, bool solver) {
    const Node& root = tree.node(0);
    const std::vector<int> tier = root_proof_tiers(tree, to_move, solver);
    const int keep = *std::max_element(tier.begin(), tier.end());
    bool visited = false;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        if (tier[i] >= keep) visited = visited || tree.stats(root.first_child + i).visits() > 0;
    }
    std::vector<double> counts(num_actions, 0.0);
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        if (tier[i] < keep) continue;
        const std::int32_t child = root.first_child + i;
        counts[tree.node(child).action] =
            visited ? static_cast<double>(tree.stats(child).visits()) : static_cast<double>(tree.node(child).prior);
    }
    if (*std::max_element(counts.begin(), counts.end()) <= 0) {  // kept moves of prior 0, unvisited
        for (std::int32_t i = 0; i < root.num_children; ++i) {
            if (tier[i] >= keep) counts[tree.node(root.first_child + i).action] = 1.0;
        }
    }
    return counts;
}

// pi ~ counts^(1/temperature); temperature 0 puts all mass on the largest count (lowest action on
// ties). The largest count must be positive.
inline std::vector<float> visit_policy(const std::vector<double>& counts, double temperature) {
    std::vector<float> pi(counts.size(), 0.0f);
    const auto best = std::max_element(counts.begin(), counts.end());
    if (temperature == 0) {
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

// An action drawn from `pi` (the last action of positive mass if rounding leaves some over).
inline Action sample_action(const std::vector<float>& pi, Rng& rng) {
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

}  // namespace pyaz
