// Every search and self-play setting, with its default, in one place: the bindings and the
// Python docstrings read the defaults from here. The search defaults are deterministic (no
// noise) so that tests and benchmarks are reproducible; self-play turns the noise on.
#pragma once

#include <cstdint>

namespace pyaz {

enum class SelectionRule : std::uint8_t {
    kPuct,  // Q + c_puct * P * sqrt(sum_b N(s,b)) / (1 + N(s,a))  (seeds 000, 001, 004)
    kUcb1,  // Q + c_uct * sqrt(ln N(s) / N(s,a)), unvisited children first (plain UCT)
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
};

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
    int opening_rollback_plies = -1; // plies taken back when the random opening ends the game
                                     // (-1: half of the opening)
    int threads = 1;
    std::uint64_t seed = 0;
    std::int64_t max_positions = 100'000'000;  // guard on the size of the records
};

}  // namespace pyaz
