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
#include <vector>

#include "core/rng.h"
#include "games/curling.h"

namespace pyaz::curling {

// Leaf value for team 0 of a position inside an end, and optionally a prior over candidate
// targets for it (empty = use the shot generator).
struct LeafResult {
    double value_team0 = 0.0;
    std::vector<Target> candidates;
    std::vector<double> weights;  // same length as candidates; sampling weights (temperature applied)
};
using LeafEvaluator = std::function<LeafResult(const GameState&)>;

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
// `samples` noisy executions.
Target rule_based_shot(const GameState& state, const NoiseParams& noise, int samples, std::uint64_t seed);

// Runs the search from `root` (which must be inside an end). evaluator = nullptr uses
// house_value_team0 and generate_shots.
KrUctResult kr_uct_search(const GameState& root, const KrUctParams& params, const LeafEvaluator& evaluator);

}  // namespace pyaz::curling
