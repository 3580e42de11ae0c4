// One simulation as the search carries it: the leaf it selected (the path from the root, who
// chose each step, the leaf's state) and the values it backs up: a finished game's exact result,
// the evaluator's value, or that value mixed with a random playout's result (rollout_mix).
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "games/common.h"
#include "games/playouts.h"
#include "search/params.h"

namespace pyaz {

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

// The exact value of a finished game (or a proven result) for each player; a draw is worth
// draw_value to both.
inline LeafValue result_value(Status result, double draw_value) {
    LeafValue v;
    for (int p = 0; p < 2; ++p) {
        v.for_player[p] = result == Status::kDraw ? draw_value : result_for(result, p);
    }
    return v;
}

// The evaluator's `value` of `state` (for the player to move there) for each player.
template <class Game>
LeafValue network_value(const Game& state, float value) {
    LeafValue v;
    v.for_player[state.to_move()] = value;
    v.for_player[1 - state.to_move()] = -value;
    return v;
}

// AlphaGo's mixed leaf evaluation (SearchParams::rollout_mix): the evaluator's value of `state`
// mixed with the result of one uniformly random playout from it, the search's `playout`-th
// (each playout draws from its own stream of the search's seed).
template <class Game>
float rollout_mixed_value(const Game& state, float evaluated, const SearchParams& params,
                          std::uint64_t playout) {
    const double mix = params.rollout_mix;
    Rng rng(params.seed ^ (0xD6E8FEB86659FD93ull * playout));
    const Status end = random_playout(state, rng);
    const double z = end == Status::kDraw ? params.draw_value : result_for(end, state.to_move());
    return static_cast<float>((1 - mix) * evaluated + mix * z);
}

}  // namespace pyaz
