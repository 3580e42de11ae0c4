// The final score margin of the games that have one (the auxiliary score target of KataGo:
// Wu 2019, "Accelerating Self-Play Learning in Go", section 4.1). A game declares
// `static constexpr bool kHasScore = true` and `double final_score(int player) const`: the
// margin for `player`, normalised to [-1, 1] by the board's area. The others record 0.
#pragma once

#include <type_traits>

namespace pyaz {

template <class Game, class = void>
struct HasScore : std::false_type {};

template <class Game>
struct HasScore<Game, std::enable_if_t<Game::kHasScore>> : std::true_type {};

template <class Game>
constexpr bool kGameHasScore = HasScore<Game>::value;

// `state`'s normalised score margin for `player` (0 for a game without a score).
template <class Game>
float final_score([[maybe_unused]] const Game& state, [[maybe_unused]] int player) {
    if constexpr (kGameHasScore<Game>) return static_cast<float>(state.final_score(player));
    else return 0.0f;
}

}  // namespace pyaz
