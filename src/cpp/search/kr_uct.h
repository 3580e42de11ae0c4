// Kernel-regression UCT for curling (Yee et al. 2016; seed 002's KR-DL-UCT, Algorithm 1), a
// hand-made shot generator and the rule-based player built on it.
//
// Actions are target stop positions (x, y, spin) (see curling.h). Children of a node are
// executed actions with noise-free successors; the execution noise enters only through the
// Gaussian kernel K(a, b) = exp(-(dx^2 / sx^2 + dy^2 / sy^2) / 2) between same-spin actions:
//   E(a) = sum_b K(a, b) v_b / sum_b K(a, b) n_b     (kernel regression of the value)
//   W(a) = sum_b K(a, b) n_b                           (kernel density, the "visit count")
// Selection maximises E(a) + C sqrt(ln sum_b W(b) / W(a)); the final move is argmax W.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/rng.h"
#include "games/curling.h"
#include "search/interrupt.h"

namespace pyaz::curling {

// Leaf value for team 0 of a position inside an end, and optionally a prior over candidate
// targets for it (empty = use the shot generator).
struct LeafResult {
    double value_team0 = 0.0;
    std::vector<Target> candidates;
    std::vector<double> weights;  // same length as candidates; sampling weights (temperature applied)
};
using LeafEvaluator = std::function<LeafResult(const GameState&)>;
// One call for many leaves: one result per state, in order.
using BatchLeafEvaluator = std::function<std::vector<LeafResult>(const std::vector<GameState>&)>;

struct KrUctParams {
    int simulations = 400;
    double c_ucb = 0.1;        // seed 002 (Yee et al. used 1.0)
    double sigma_x = 0.0725;   // kernel = GAT execution noise at the tee
    double sigma_y = 0.29;
    int initial_actions = 20;  // k actions drawn from the prior (or all generated ones)
    double widening = 1.0;     // recurse while sum n < widening * |A|^2, else add an action
    int new_action_samples = 10;
    double new_action_scale = 1.0;  // Gaussian around the selected action, in kernel sigmas
    int max_depth = 16;             // plies below the root (the search never leaves the end)
    // Finished ends (16 stones thrown) are valued by the evaluator instead of the house score,
    // so that a win-rate evaluator can turn the real end score into a win probability.
    bool evaluate_finished_ends = false;
    // Without an evaluator: leaves are valued by a rollout of up to this many shots (Yee et al.
    // used 5), each a uniformly random generated shot thrown with GAT execution noise, then
    // the house score; 0 values a leaf by its house score as it stands.
    int rollout_shots = 0;
    // Leaves gathered per round before one evaluator call. 1 = the sequential search of
    // Algorithm 1 (each leaf evaluated before the next descent). With more, every descent that
    // reaches an unevaluated leaf leaves a virtual visit on its path (reward = the edge's mean
    // minus virtual_loss, for the mover), reverted when the leaf's value arrives; a round ends
    // early when a descent meets a leaf that is still waiting.
    int leaves_per_round = 1;
    double virtual_loss = 1.0;
    std::uint64_t seed = 0;
};

struct RootChild {
    Target action;
    double visits = 0.0;
    double mean = 0.0;            // plain mean value of its own visits (for the mover)
    double kernel_value = 0.0;    // E(a)
    double kernel_visits = 0.0;   // W(a)
};

struct KrUctResult {
    Target best;
    std::vector<RootChild> children;
};

// Draws, guards, hits and peels for the side to move (targets, both spins).
std::vector<Target> generate_shots(const GameState& state);

// Static value for team 0: the house score as if the end finished now.
double house_value_team0(const GameState& state);

// Greedy one-shot player: the generated shot with the best mean house value for the mover over
// `samples` noisy executions. `interrupt` (if any) is polled between executions.
Target rule_based_shot(const GameState& state, const NoiseParams& noise, int samples, std::uint64_t seed,
                       InterruptPoll* interrupt = nullptr);

// A search that stops whenever leaves wait for the evaluator, so that leaves of many searches
// can share one evaluator call: gather() runs simulations until params.leaves_per_round leaves
// wait (or the simulations are spent) and returns their states; supply() gives their values.
class KrUctSearch {
public:
    // with_evaluator = false: house-score (or rollout) leaves and the built-in shot generator.
    // `interrupt` (if any) is polled before every descent and stops the search by throwing.
    KrUctSearch(const GameState& root, const KrUctParams& params, bool with_evaluator,
                InterruptPoll* interrupt = nullptr);
    ~KrUctSearch();
    KrUctSearch(KrUctSearch&&) noexcept;
    KrUctSearch& operator=(KrUctSearch&&) noexcept;

    // States of the leaves now waiting (empty once the search is done).
    const std::vector<GameState>& gather();
    // One result per state gather() returned, in order.
    void supply(const std::vector<LeafResult>& results);
    bool done() const;
    KrUctResult result() const;

private:
    class Impl;
    std::unique_ptr<Impl> impl_;
};

// Runs the search from `root` (which must be inside an end). evaluator = nullptr uses
// house_value_team0 and generate_shots. `interrupt` as for KrUctSearch.
KrUctResult kr_uct_search(const GameState& root, const KrUctParams& params, const LeafEvaluator& evaluator,
                          InterruptPoll* interrupt = nullptr);

struct BatchStats {
    long long calls = 0;   // evaluator calls
    long long leaves = 0;  // states evaluated
    int max_batch = 0;
};

// Many searches in flight (roots[i] with params[i]): every round, each unfinished search
// gathers its leaves and all of them go to the evaluator in one call. Each search's result is
// the one kr_uct_search gives with the same params and a per-leaf evaluator that agrees.
std::vector<KrUctResult> kr_uct_search_many(const std::vector<GameState>& roots, const std::vector<KrUctParams>& params,
                                            const BatchLeafEvaluator& evaluator, BatchStats* stats = nullptr,
                                            InterruptPoll* interrupt = nullptr);

}  // namespace pyaz::curling
