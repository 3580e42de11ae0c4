// Every search and self-play setting, with its default, in one place: the bindings and the
// Python docstrings read the defaults from here. The search defaults are deterministic (no
// noise) so that tests and benchmarks are reproducible; self-play turns the noise on.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>

#include "games/common.h"

namespace pyaz {

enum class SelectionRule : std::uint8_t {
    kPuct,  // Q + c_puct * P * sqrt(sum_b N(s,b)) / (1 + N(s,a))  (seeds 000, 001, 004)
    kUcb1,  // Q + c_uct * sqrt(ln N(s) / N(s,a)), unvisited children first (plain UCT)
    // Gumbel AlphaZero (Danihelka, Guez, Schrittwieser & Silver, ICLR 2022, "Policy improvement
    // by planning with Gumbel"): at the root, Gumbel-top-k sampling of gumbel_actions actions and
    // sequential halving over the simulations; below it, the deterministic selection
    // argmax_a pi'(a) - N(a) / (1 + sum_b N(b)) with pi' = softmax(logits + sigma(completed Q)).
    kGumbel,
};

struct SearchParams {
    SelectionRule rule = SelectionRule::kPuct;
    double c_puct = 1.0;             // seed 001's c; seed 000 uses 3
    double c_uct = 1.4142135623730951;
    double dirichlet_alpha = 0.3;    // root noise shape
    double dirichlet_epsilon = 0.0;  // root noise weight; 0 disables the noise
    double fpu_value = 0.0;          // Q of an unvisited child (first-play urgency) ...
    bool fpu_relative = false;       // ... or, if true, the parent's Q minus fpu_value
    double draw_value = 0.0;         // value of a draw for both players (seed 000: -0.5)
    double virtual_loss = 1.0;       // each pending visit counts as this many lost visits
    double value_decay = 1.0;        // seed 004's winning value decay: a value backed up k
                                     // steps above its leaf counts value_decay^k (1: off)
    int threads = 1;                 // search threads on the one tree
    int batch_size = 8;              // leaves per network call (batched evaluators)
    std::int64_t max_nodes = 2'000'000;  // arena size; when full the tree stops growing
    std::uint64_t seed = 0;
    // MCTS-solver (Winands, Bjornsson & Saito 2008, "Monte-Carlo Tree Search Solver"): game
    // results proven in the tree (terminal nodes; a node with a child that wins for the player to
    // move there; a node whose children are all proven, valued by the best of them) are never
    // searched below, back up their exact value, and decide the move played.
    bool solver = false;
    // Gumbel AlphaZero (rule kGumbel): m = min(gumbel_actions, legal actions) root actions are
    // considered; sigma(q) = (gumbel_c_visit + max_b N(b)) * gumbel_c_scale * q, with q mapped
    // from [-1, 1] to [0, 1]; gumbel_noise draws the root's Gumbel noise g (off: g = 0, the
    // deterministic choice for matches; self-play turns it on).
    int gumbel_actions = 16;
    double gumbel_c_visit = 50.0;
    double gumbel_c_scale = 1.0;
    bool gumbel_noise = false;
    // Forced playouts and policy target pruning (KataGo: Wu 2019, "Accelerating Self-Play
    // Learning in Go", section 3.2; rule kPuct): at the root, a child with at least one visit
    // but fewer than n_forced(c) = sqrt(forced_playouts_k * P(c) * sum_b N(b)) is selected
    // first; the policy target then takes back up to n_forced(c) visits from each child but the
    // most visited c* as long as PUCT(c) stays at most PUCT(c*), and drops the children left
    // with one visit or none (Search::pruned_visit_counts).
    bool forced_playouts = false;
    double forced_playouts_k = 2.0;
    // AlphaGo's mixed leaf evaluation (Silver et al. 2016, "Mastering the game of Go with deep
    // neural networks and tree search", "Searching with policy and value networks", lambda):
    // V(leaf) = (1 - rollout_mix) * v + rollout_mix * z, v the evaluator's value and z the
    // result of one uniformly random playout from the leaf (a draw scores draw_value), played
    // in C++ beside the network; 0 is AlphaZero's v alone, AlphaGo used 0.5.
    double rollout_mix = 0.0;
};

// Fails (std::invalid_argument, naming the option and its value) unless every option is in range;
// NaN never is.
inline void check_search_params(const SearchParams& p) {
    constexpr double kBig = std::numeric_limits<double>::max();
    if (p.threads < 1) fail("threads must be >= 1, got " + std::to_string(p.threads));
    if (p.batch_size < 1) fail("batch_size must be >= 1, got " + std::to_string(p.batch_size));
    if (p.max_nodes < 2) fail("max_nodes must be >= 2, got " + std::to_string(p.max_nodes));
    check_range(p.c_puct, 0, kBig, "c_puct", "a finite number >= 0");
    check_range(p.c_uct, 0, kBig, "c_uct", "a finite number >= 0");
    check_range(p.virtual_loss, 0, kBig, "virtual_loss", "a finite number >= 0");
    check_range(p.fpu_value, -kBig, kBig, "fpu_value", "a finite number");
    // Values live in [-1, 1] (the fixed-point value sums of the tree assume it).
    check_range(p.draw_value, -1, 1, "draw_value", "in [-1, 1]");
    check_range(p.dirichlet_epsilon, 0, 1, "dirichlet_epsilon", "in [0, 1]");
    check_range(p.rollout_mix, 0, 1, "rollout_mix", "in [0, 1]");
    check_range(p.dirichlet_alpha, -kBig, kBig, "dirichlet_alpha", "a finite number");
    if (p.dirichlet_epsilon > 0 && p.dirichlet_alpha <= 0) {
        fail("dirichlet_alpha must be > 0, got " + number_text(p.dirichlet_alpha));
    }
    if (!(p.value_decay > 0 && p.value_decay <= 1)) {  // NaN fails too
        fail("value_decay must be in (0, 1], got " + number_text(p.value_decay));
    }
    if (p.gumbel_actions < 1) fail("gumbel_actions must be >= 1, got " + std::to_string(p.gumbel_actions));
    check_range(p.gumbel_c_visit, 0, kBig, "gumbel_c_visit", "a finite number >= 0");
    check_range(p.gumbel_c_scale, 0, kBig, "gumbel_c_scale", "a finite number >= 0");
    if (!(p.forced_playouts_k > 0 && p.forced_playouts_k <= kBig)) {  // NaN fails too
        fail("forced_playouts_k must be a finite number > 0, got " + number_text(p.forced_playouts_k));
    }
    if (p.forced_playouts && p.rule != SelectionRule::kPuct) {
        fail(std::string("forced_playouts needs rule 'puct' (KataGo's PUCT), got rule '") +
             (p.rule == SelectionRule::kUcb1 ? "uct" : "gumbel") + "'");
    }
}

// Self-play: many games in flight, each with its own tree; moves drawn from pi early, greedy later.
struct SelfPlayConfig {
    SearchParams search;             // per-game tree settings (search.threads is not used)
    std::int64_t games = 1;          // games to play in total
    int parallel_games = 32;         // games in flight at once
    int simulations = 100;           // simulations per move
    int leaves_per_game = 1;         // leaves each game adds to a batch per round (virtual loss)
    int sampling_plies = 30;         // T': moves drawn from pi(temperature) before this ply
    double temperature = 1.0;        // temperature of those draws; later moves are greedy
    int random_opening_plies = 0;    // uniformly random plies first, not searched nor recorded
    bool random_opening_spread = false;  // each game's random plies drawn uniformly in
                                         // 0..random_opening_plies instead of all of them
    int opening_rollback_plies = -1; // plies taken back when the random opening ends the game
                                     // (-1: half of the opening)
    int threads = 1;
    std::uint64_t seed = 0;
    std::int64_t max_positions = 100'000'000;  // guard on the size of the records
    // Playout cap randomisation (KataGo: Wu 2019, "Accelerating Self-Play Learning in Go",
    // section 3.1; there p = 0.25, 600 against 100 visits): each move is a full search of
    // `simulations` with probability full_search_prob, recorded, with root noise; otherwise a
    // cheap search of cheap_simulations (0: simulations / 6, at least 1), not recorded, without
    // Dirichlet noise. 1 (the default) searches every move in full.
    double full_search_prob = 1.0;
    int cheap_simulations = 0;
};

// The simulations of a cheap search (playout cap randomisation).
inline int cheap_simulations(const SelfPlayConfig& c) {
    return c.cheap_simulations > 0 ? c.cheap_simulations : std::max(1, c.simulations / 6);
}

}  // namespace pyaz
