// Forced playouts and policy target pruning (KataGo: Wu 2019, "Accelerating Self-Play Learning
// in Go", section 3.2; SearchParams::forced_playouts, rule kPuct). At the root a child with at
// least one visit but fewer than n_forced(c) = sqrt(forced_playouts_k * P(c) * sum_b N(b)) is
// selected first (Search::tiered_child); the policy target then takes the forced visits back.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "search/params.h"
#include "search/tree.h"

namespace pyaz {

// n_forced(c) for a child of prior P(c) among children with `total` = sum_b N(b) visits.
inline double forced_visits(double k, double prior, double total) { return std::sqrt(k * prior * total); }

// Whether a root child that `had` visits (pending ones included) is owed forced playouts: it has
// at least one, and fewer than n_forced.
inline bool owed_forced_playouts(double had, double prior, double total, double k) {
    return had > 0 && had < forced_visits(k, prior, total);
}

// How many of the n visits (value sum w, prior P) of a child other than the most visited one the
// pruned target keeps, with explore = c_puct * sqrt(sum_b N(b)) and best_puct = PUCT(c*, N(c*)):
// ceil(max(n - n_forced, n_eq)), n_eq solving PUCT(c, n_eq) = best_puct (none taken back if
// PUCT(c, n) already exceeds it); one visit or none left keeps none.
inline double kept_visits(double n, double w, double prior, double forced, double explore, double best_puct) {
    const double q = w / n;
    // PUCT(c, m) <= PUCT(c*) for m >= n_eq; none can go if PUCT(c, N(c)) > PUCT(c*).
    const double n_eq = best_puct > q ? explore * prior / (best_puct - q) - 1.0 : n;
    double kept = n;
    if (q + explore * prior / (1.0 + n) <= best_puct) {
        kept = std::min(n, std::ceil(std::max({n - forced, n_eq, 0.0})));
    }
    return kept <= 1 ? 0 : kept;
}

// Policy target pruning: the root's visit counts indexed by action, each child but the most
// visited c* (lowest action on ties) cut by kept_visits, with T = sum_b N(b) and
// PUCT(c, n) = Q(c) + c_puct * P(c) * sqrt(T) / (1 + n). All zero when no child has a visit.
// The root must be expanded.
inline std::vector<std::int32_t> pruned_root_visits(const Tree& tree, const SearchParams& params,
                                                    int num_actions) {
    const Node& root = tree.node(0);
    const Node* children = tree.nodes_from(root.first_child);
    const NodeStats* stats = tree.stats_from(root.first_child);
    std::vector<NodeStats::Snapshot> seen(root.num_children);
    double total = 0.0;
    std::int32_t best = 0;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        seen[i] = stats[i].load();
        total += seen[i].visits;
        if (seen[i].visits > seen[best].visits) best = i;
    }
    std::vector<std::int32_t> counts(num_actions, 0);
    if (seen[best].visits == 0) return counts;
    const double explore = params.c_puct * std::sqrt(total);
    const double best_puct =
        seen[best].value_sum / seen[best].visits + explore * children[best].prior / (1.0 + seen[best].visits);
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        const double n = seen[i].visits;
        double kept = n;
        if (i != best && n > 0) {
            const double forced = forced_visits(params.forced_playouts_k, children[i].prior, total);
            kept = kept_visits(n, seen[i].value_sum, children[i].prior, forced, explore, best_puct);
        }
        counts[children[i].action] = static_cast<std::int32_t>(kept);
    }
    return counts;
}

// The policy target from the pruned visits: over the actions of positive weight (the root's
// moves the solver keeps), the pruned visits normalised; the weights themselves, normalised,
// when pruning leaves none of them a visit.
inline std::vector<float> pruned_policy(const std::vector<double>& weights,
                                        const std::vector<std::int32_t>& pruned) {
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
