// The classic selection rules: PUCT (AlphaZero), Q + c_puct * P * sqrt(sum_b N(b)) / (1 + N),
// an unvisited child valued by first-play urgency; and UCB1 (plain UCT),
// Q + c_uct * sqrt(ln sum_b N(b) / N), unvisited children first. Visits in flight count as
// virtual losses: virtual_loss lost visits each. The search may rank the children by a tier
// before the score (the solver's proofs, forced playouts: Search::tiered_child).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "search/params.h"
#include "search/tree.h"

namespace pyaz {

// PUCT's score of a child of value `q` (for the player choosing), prior and n visits, among
// children with sqrt_total = sqrt(sum_b N(b)).
inline double puct_score(double q, double prior, double n, double sqrt_total, double c_puct) {
    return q + c_puct * prior * sqrt_total / (1.0 + n);
}

// UCB1's score of a child of value sum w over n visits, among children with
// log_total = ln(sum_b N(b)); an unvisited child scores +infinity.
inline double ucb1_score(double w, double n, double log_total, double c_uct) {
    return n <= 0 ? std::numeric_limits<double>::infinity() : w / n + c_uct * std::sqrt(log_total / n);
}

// First-play urgency: PUCT's Q of an unvisited child of `parent`, fpu_value, or with fpu_relative
// the parent's Q for the player choosing there minus fpu_value.
inline double first_play_value(const Tree& tree, const SearchParams& params, std::int32_t parent) {
    if (!params.fpu_relative) return params.fpu_value;
    const NodeStats::Snapshot p = tree.stats(parent).load();
    const double parent_q = p.visits > 0 ? -p.value_sum / p.visits : 0.0;
    return parent_q - params.fpu_value;
}

// A node's children as selection reads them: each child's statistics are read once (a snapshot),
// which halves the loads of lines other threads keep writing; scores come from the snapshot.
template <int kMaxChildren>
struct ChildSnapshot {
    ChildSnapshot(const Tree& tree, std::int32_t parent, double virtual_loss)
        : first(tree.node(parent).first_child),
          count(tree.node(parent).num_children),
          nodes(tree.nodes_from(first)) {
        // Locals, not the members, so that they stay in registers while `seen` is written.
        const NodeStats* stats = tree.stats_from(first);
        const std::int32_t size = count;
        double sum = 0.0;
        for (std::int32_t i = 0; i < size; ++i) {
            seen[i] = stats[i].load();
            sum += seen[i].visits + virtual_loss * seen[i].in_flight;
        }
        total = sum;
    }
    ChildSnapshot(const ChildSnapshot&) = delete;
    ChildSnapshot& operator=(const ChildSnapshot&) = delete;

    // Child i's visits, its pending ones counted once each.
    double visits_with_pending(std::int32_t i) const { return seen[i].visits + seen[i].in_flight; }
    // sum_b N(b), pending visits counted once each.
    double total_with_pending() const {
        double sum = 0.0;
        for (std::int32_t i = 0; i < count; ++i) sum += seen[i].visits + seen[i].in_flight;
        return sum;
    }

    const std::int32_t first;  // the tree index of child 0
    const std::int32_t count;
    const Node* const nodes;
    std::array<NodeStats::Snapshot, kMaxChildren> seen;
    double total = 0.0;  // sum_b N(b), each pending visit counted as virtual_loss visits
};

// PUCT's or UCB1's score (params.rule) of the children of one node, from their snapshots.
class ChildScore {
public:
    // `total` is the children's sum_b N(b), pending visits counted as virtual losses.
    ChildScore(const Tree& tree, const SearchParams& params, std::int32_t parent, double total)
        : ucb1_(params.rule == SelectionRule::kUcb1),
          virtual_loss_(params.virtual_loss),
          c_(ucb1_ ? params.c_uct : params.c_puct),
          sqrt_total_(std::sqrt(std::max(total, 1.0))),
          log_total_(ucb1_ ? std::log(std::max(total, 1.0)) : 0.0),
          fpu_(ucb1_ ? 0.0 : first_play_value(tree, params, parent)) {}

    double operator()(const NodeStats::Snapshot& seen, double prior) const {
        const double pending = virtual_loss_ * seen.in_flight;
        const double n = seen.visits + pending;
        const double w = seen.value_sum - pending;
        if (ucb1_) return ucb1_score(w, n, log_total_, c_);
        return puct_score(n > 0 ? w / n : fpu_, prior, n, sqrt_total_, c_);
    }

private:
    bool ucb1_;
    double virtual_loss_;
    double c_;  // c_uct or c_puct
    double sqrt_total_;
    double log_total_;
    double fpu_;
};

// Every child in one tier: selection by score alone (the hot path, with no test per child).
struct NoTiers {
    int operator()(std::int32_t) const { return 0; }
};

// The tree index of the child to descend into: the highest tier (tier_of(i), an int), then the
// best score; ties go to the higher prior, then the lower action (e.g. unvisited children under
// UCB1). Children below the best tier so far are not scored.
template <int kMaxChildren, class TierOf = NoTiers>
inline std::int32_t best_scoring_child(const ChildSnapshot<kMaxChildren>& children, const ChildScore& score,
                                       TierOf&& tier_of = {}) {
    const Node* nodes = children.nodes;
    const std::int32_t count = children.count;
    std::int32_t best = 0;
    [[maybe_unused]] int best_tier = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    for (std::int32_t i = 0; i < count; ++i) {
        if constexpr (!std::is_same_v<std::decay_t<TierOf>, NoTiers>) {
            const int tier = tier_of(i);
            if (tier < best_tier) continue;
            if (tier > best_tier) {
                best_tier = tier;
                best_score = -std::numeric_limits<double>::infinity();
                best = i;
            }
        }
        const double s = score(children.seen[i], nodes[i].prior);
        if (s > best_score || (s == best_score && nodes[i].prior > nodes[best].prior)) {
            best_score = s;
            best = i;
        }
    }
    return children.first + best;
}

}  // namespace pyaz
