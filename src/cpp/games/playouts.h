// Game-generic helpers used by tests and benchmarks: perft (move-path enumeration) and uniformly
// random playouts. Templated on the game so that move generation inlines. Each takes an optional
// InterruptPoll (polled every few thousand nodes or once per game), which stops it by throwing.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "games/common.h"
#include "search/interrupt.h"

namespace pyaz {

// Number of action sequences of length `depth` from `state`. With count_finished false a game
// that ends before `depth` contributes nothing (Edax's convention); with true it counts as one
// leaf at every deeper depth (the widely published Othello table). The last ply is bulk-counted.
template <class Game>
std::uint64_t perft(const Game& state, int depth, bool count_finished, InterruptPoll* interrupt = nullptr) {
    if (is_terminal(state.status())) return (depth == 0 || count_finished) ? 1 : 0;
    if (depth == 0) return 1;
    if (depth == 1) return static_cast<std::uint64_t>(state.num_legal_actions());
    std::uint64_t total = 0;
    if (depth == 2) {  // the last two plies without a call per leaf's parent
        state.for_each_child([&](const Game& child) {
            total += is_terminal(child.status()) ? (count_finished ? 1 : 0)
                                                 : static_cast<std::uint64_t>(child.num_legal_actions());
        });
        return total;
    }
    if (interrupt != nullptr) interrupt->poll();  // above the two bulk-counted plies only
    state.for_each_child([&](const Game& child) { total += perft(child, depth - 1, count_finished, interrupt); });
    return total;
}

struct PlayoutCounts {
    std::int64_t wins = 0;
    std::int64_t draws = 0;
    std::int64_t losses = 0;
};

// Plays `state` to the end with uniformly random legal actions.
template <class Game>
Status random_playout(Game state, Rng& rng) {
    while (!is_terminal(state.status())) state.apply_random(rng);
    return state.status();
}

// Results of `games` random playouts, counted for the player to move in `state`.
template <class Game>
PlayoutCounts random_playouts(const Game& state, std::int64_t games, std::uint64_t seed,
                              InterruptPoll* interrupt = nullptr) {
    Rng rng(seed);
    PlayoutCounts counts;
    const int player = state.to_move();
    for (std::int64_t i = 0; i < games; ++i) {
        if (interrupt != nullptr) interrupt->poll();
        const Status end = random_playout(state, rng);
        if (end == Status::kDraw) ++counts.draws;
        else if (end == win_for(player)) ++counts.wins;
        else ++counts.losses;
    }
    return counts;
}

// The length in plies of each of `games` uniformly random games from `state` (the measured
// average game length the curriculum starts from).
template <class Game>
std::vector<std::int32_t> random_game_lengths(const Game& state, std::int64_t games, std::uint64_t seed,
                                              InterruptPoll* interrupt = nullptr) {
    Rng rng(seed);
    std::vector<std::int32_t> lengths(static_cast<std::size_t>(games));
    for (auto& length : lengths) {
        if (interrupt != nullptr) interrupt->poll();
        Game game = state;
        while (!is_terminal(game.status())) game.apply_random(rng);
        length = static_cast<std::int32_t>(game.ply() - state.ply());
    }
    return lengths;
}

}  // namespace pyaz
