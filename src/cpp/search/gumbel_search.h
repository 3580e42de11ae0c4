// Gumbel AlphaZero on the search tree (rule kGumbel; the schedule, the noise and sigma(completed
// Q) are in search/gumbel.h): the root's sequential halving, the deterministic selection below
// the root, the action the halving leaves, and the improved policy pi' that self-play records.
// With the solver, proven wins rank before every other child and proven losses after.
#pragma once

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <vector>

#include "core/rng.h"
#include "games/common.h"
#include "search/gumbel.h"
#include "search/params.h"
#include "search/solver.h"
#include "search/tree.h"

namespace pyaz {

// A node's children as Gumbel sees them: visits (with pending ones as virtual losses when
// asked), log priors, and sigma(completed Q).
template <int kMaxChildren>
struct GumbelChildView {
    GumbelChildView(const Tree& tree, std::int32_t parent, const SearchParams& params, bool with_pending) {
        const Node& node = tree.node(parent);
        nodes = tree.nodes_from(node.first_child);
        const NodeStats* stats = tree.stats_from(node.first_child);
        count = node.num_children;
        for (std::int32_t i = 0; i < count; ++i) {
            const NodeStats::Snapshot seen = stats[i].load();
            const double pending = with_pending ? params.virtual_loss * seen.in_flight : 0.0;
            n[i] = seen.visits + pending;
            w[i] = seen.value_sum - pending;
            prior[i] = nodes[i].prior;
            logit[i] = std::log(std::max(prior[i], static_cast<double>(FLT_MIN)));
            total += n[i];
        }
        completed_sigma(count, n.data(), w.data(), prior.data(), node.value, params.gumbel_c_visit,
                        params.gumbel_c_scale, sigma.data());
    }
    GumbelChildView(const GumbelChildView&) = delete;
    GumbelChildView& operator=(const GumbelChildView&) = delete;

    const Node* nodes = nullptr;  // the children's records
    std::array<double, kMaxChildren> n, w, prior, logit, sigma;
    std::int32_t count = 0;
    double total = 0.0;  // sum_b N(b)
};

// Gumbel's improved policy over a view's children, pi'(i) = softmax(logits + sigma)(i).
template <int kMaxChildren>
class ImprovedPolicy {
public:
    explicit ImprovedPolicy(const GumbelChildView<kMaxChildren>& view) : view_(view) {
        for (std::int32_t i = 0; i < view.count; ++i) top_ = std::max(top_, view.logit[i] + view.sigma[i]);
        for (std::int32_t i = 0; i < view.count; ++i) z_ += std::exp(view.logit[i] + view.sigma[i] - top_);
    }
    double operator()(std::int32_t i) const { return std::exp(view_.logit[i] + view_.sigma[i] - top_) / z_; }

private:
    const GumbelChildView<kMaxChildren>& view_;
    double top_ = -std::numeric_limits<double>::infinity();
    double z_ = 0.0;
};

// pi' over the root's actions (0 for the illegal ones), from the root's view.
template <int kMaxChildren>
std::vector<float> improved_root_policy(const GumbelChildView<kMaxChildren>& view, int num_actions) {
    const ImprovedPolicy<kMaxChildren> improved(view);
    std::vector<float> pi(num_actions, 0.0f);
    for (std::int32_t i = 0; i < view.count; ++i) pi[view.nodes[i].action] = static_cast<float>(improved(i));
    return pi;
}

// A child's rank below the root, higher first: 0 proven loss, 1 proven draw, 2 unproven or
// (without the solver) anything, 3 unproven below the solver's visit floor, 4 proven win. A
// proven draw ranks under the unproven children: its value is exact, so more visits teach
// nothing, and the improved policy can favour it for ever, starving the siblings whose proofs
// decide the node (a livelock found with two threads). And an unproven child below its visit
// floor P(a) * sqrt(sum_b N(b)) (one visit short at least) ranks over the others: once a
// sibling's Q is higher the improved policy gives it ~0 mass for good, yet a loss or a draw is
// proven only when every child is. The floor grows with the node's visits, so every reply is
// searched and proven in the end, and costs a node at most sqrt(sum N) of its visits.
inline int gumbel_tier(const Node& child, int chooser, bool solver, double n, double prior, double sqrt_total) {
    const int proof = proof_tier(child, chooser, solver);
    const bool draw = proof == 1 && child.proof.load(std::memory_order_relaxed) == Status::kDraw;
    const bool starved = proof == 1 && !draw && solver && n + 1.0 <= prior * sqrt_total;
    return proof == 0 ? 0 : draw ? 1 : starved ? 3 : proof == 1 ? 2 : 4;
}

// Below the root: the tree index of argmax_a pi'(a) - N(a) / (1 + sum_b N(b)), pending visits
// counted as virtual losses, within the highest gumbel_tier.
template <int kMaxChildren>
std::int32_t gumbel_child(const Tree& tree, const SearchParams& params, std::int32_t parent, int chooser) {
    const GumbelChildView<kMaxChildren> view(tree, parent, params, true);
    const ImprovedPolicy<kMaxChildren> improved(view);
    std::int32_t best = 0;
    int best_tier = -1;
    double best_score = -std::numeric_limits<double>::infinity();
    const double sqrt_total = std::sqrt(view.total);
    for (std::int32_t i = 0; i < view.count; ++i) {
        const int tier = gumbel_tier(view.nodes[i], chooser, params.solver, view.n[i], view.prior[i], sqrt_total);
        const double score = improved(i) - view.n[i] / (1.0 + view.total);
        if (tier > best_tier || (tier == best_tier && score > best_score)) {
            best_tier = tier;
            best_score = score;
            best = i;
        }
    }
    return tree.node(parent).first_child + best;
}

// A root child's standing in the halving, compared by its solver tier, then its simulations,
// then its score g(a) + logits(a) + sigma(completed Q(a)).
struct HalvingRank {
    int tier = -1;
    std::int32_t simulations = -1;
    double score = -std::numeric_limits<double>::infinity();

    bool beats(const HalvingRank& other) const {
        if (tier != other.tier) return tier > other.tier;
        if (simulations != other.simulations) return simulations > other.simulations;
        return score > other.score;
    }
};

// The root's sequential halving: the Gumbel noise g(a), drawn once per root, and the simulations
// sent to each action in the current halving. Thread-safe: every worker selecting at the root
// goes through it.
template <class Game>
class SequentialHalving {
public:
    using RootView = GumbelChildView<Game::kMaxActions>;

    // Forgets the root's noise and halving (a new root).
    void clear() {
        const std::lock_guard<std::mutex> guard(lock_);
        noise_.clear();
        issued_.clear();
        budget_ = 0;
        sent_ = 0;
        considered_ = 1;
    }

    // Starts a halving of `budget` simulations through `root` (drawing its noise first, from
    // `rng`, if it has none yet).
    void plan(std::int64_t budget, const Game& root, const SearchParams& params, Rng& rng) {
        const std::lock_guard<std::mutex> guard(lock_);
        plan_locked(budget, root, params, rng);
    }

    // Sends a simulation through the root (`root_node`, viewed without pending visits) and
    // returns the view index of its child: among the children with the simulation count the
    // schedule asks for, the best-scoring one (planning a halving of 0 first if none is planned).
    // Off the schedule (only if no action has the wanted count, or the solver has proven the
    // root) the most simulated action, the halving's survivor, takes it.
    std::int32_t send(const RootView& view, const Node& root_node, const Game& root, int chooser,
                      const SearchParams& params, Rng& rng) {
        const std::lock_guard<std::mutex> guard(lock_);
        if (issued_.empty()) plan_locked(0, root, params, rng);
        const bool proven = params.solver && root_node.proof.load() != Status::kOngoing;
        const std::int64_t wanted = considered_visit(considered_, budget_, sent_);
        std::int32_t best = -1;
        HalvingRank best_rank;
        for (std::int32_t i = 0; i < view.count; ++i) {
            const Action a = view.nodes[i].action;
            const std::int32_t issued = issued_[a];
            HalvingRank rank;
            rank.tier = proof_tier(view.nodes[i], chooser, params.solver);
            rank.simulations = proven ? 0 : issued == wanted ? std::numeric_limits<std::int32_t>::max() : issued;
            rank.score = noise_[a] + view.logit[i] + view.sigma[i];
            if (rank.beats(best_rank)) {
                best_rank = rank;
                best = i;
            }
        }
        ++issued_[view.nodes[best].action];
        ++sent_;
        return best;
    }

    // Takes back a simulation sent to `action` that was released unevaluated.
    void take_back(Action action) {
        const std::lock_guard<std::mutex> guard(lock_);
        if (!issued_.empty() && issued_[action] > 0) {
            --issued_[action];
            --sent_;
        }
    }

    // The action the halving leaves: among the actions with the most simulations in the last
    // halving, the argmax of g(a) + logits(a) + sigma(completed Q(a)), within the highest solver
    // tier for `to_move` (the root's player). Before any halving every action is a survivor.
    Action survivor(const RootView& view, int to_move, bool solver) const {
        const std::lock_guard<std::mutex> guard(lock_);
        Action best = kNoAction;
        HalvingRank best_rank;
        for (std::int32_t i = 0; i < view.count; ++i) {
            const Action a = view.nodes[i].action;
            HalvingRank rank;
            rank.tier = proof_tier(view.nodes[i], to_move, solver);
            rank.simulations = issued_.empty() ? 0 : issued_[a];
            rank.score = (noise_.empty() ? 0.0 : noise_[a]) + view.logit[i] + view.sigma[i];
            if (rank.beats(best_rank)) {
                best_rank = rank;
                best = a;
            }
        }
        return best;
    }

private:
    void plan_locked(std::int64_t budget, const Game& root, const SearchParams& params, Rng& rng) {
        const int num_actions = root.num_actions();
        if (noise_.empty()) {
            noise_.assign(num_actions, 0.0);
            if (params.gumbel_noise) {
                for (double& g : noise_) g = gumbel_sample(rng);
            }
        }
        ActionList<Game::kMaxActions> actions;
        root.legal_actions(actions);
        issued_.assign(num_actions, 0);
        budget_ = budget;
        sent_ = 0;
        considered_ = std::max(1, std::min(params.gumbel_actions, actions.size()));
    }

    mutable std::mutex lock_;
    std::vector<double> noise_;          // g(a), 0 without gumbel_noise; empty: not drawn yet
    std::vector<std::int32_t> issued_;   // simulations sent to a in this halving
    std::int64_t budget_ = 0;            // n: simulations of this halving through the root
    std::int64_t sent_ = 0;              // sum of issued_
    int considered_ = 1;                 // m = min(gumbel_actions, legal actions)
};

}  // namespace pyaz
