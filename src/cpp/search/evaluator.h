// Leaf evaluators. An evaluator turns game states into priors over the action space and values
// for the side to move. The network lives in Python: the bindings implement BatchEvaluator with
// a Python callable; C++ ships the uniform and the random-rollout evaluators for tests and
// baselines. Nothing here includes Python.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "games/common.h"
#include "games/playouts.h"

namespace pyaz {

// Evaluates a batch: priors[i * num_actions + a] (any non-negative weights over the legal
// actions; the search renormalises over legal actions) and values[i] in [-1, 1] for the side
// to move in states[i]. Called from one thread at a time.
template <class Game>
class BatchEvaluator {
public:
    virtual ~BatchEvaluator() = default;
    virtual void evaluate(const std::vector<const Game*>& states, float* priors, float* values) = 0;
    // One state, from any thread when thread_safe(). `stream` names the caller's random stream
    // (searches give each worker its own), so that random evaluators need no shared counter.
    virtual void evaluate_one(const Game& state, float* priors, float* value, std::uint64_t stream) {
        static_cast<void>(stream);
        evaluate({&state}, priors, value);
    }
    // True when evaluate() may run concurrently on many threads with one state each (C++
    // evaluators); false for the Python network, which is called once per gathered batch.
    virtual bool thread_safe() const { return false; }
};

// P uniform over the legal actions, v = 0.
template <class Game>
class UniformEvaluator : public BatchEvaluator<Game> {
public:
    void evaluate_one(const Game& state, float* priors, float* value, std::uint64_t) override {
        for (int a = 0; a < state.num_actions(); ++a) priors[a] = 1.0f;
        *value = 0.0f;
    }
    void evaluate(const std::vector<const Game*>& states, float* priors, float* values) override {
        const int n = states.empty() ? 0 : states[0]->num_actions();
        for (std::size_t i = 0; i < states.size(); ++i) evaluate_one(*states[i], priors + i * n, values + i, 0);
    }
    bool thread_safe() const override { return true; }
};

// P uniform, v = the result of one uniformly random playout (draws score draw_value).
template <class Game>
class RolloutEvaluator : public BatchEvaluator<Game> {
public:
    RolloutEvaluator(double draw_value, std::uint64_t seed) : draw_value_(draw_value), seed_(seed) {}

    void evaluate(const std::vector<const Game*>& states, float* priors, float* values) override {
        // A fresh stream per call keeps runs reproducible.
        Rng rng(seed_ + 0x9E3779B97F4A7C15ull * calls_.fetch_add(1, std::memory_order_relaxed));
        const int n = states.empty() ? 0 : states[0]->num_actions();
        for (std::size_t i = 0; i < states.size(); ++i) values[i] = play_out(*states[i], priors + i * n, rng);
    }
    void evaluate_one(const Game& state, float* priors, float* value, std::uint64_t stream) override {
        Rng rng(seed_ ^ (0xD1B54A32D192ED03ull * stream));
        *value = play_out(state, priors, rng);
    }
    bool thread_safe() const override { return true; }

private:
    float play_out(const Game& state, float* priors, Rng& rng) const {
        for (int a = 0; a < state.num_actions(); ++a) priors[a] = 1.0f;
        const int player = state.to_move();
        const Status end = random_playout(state, rng);
        return end == Status::kDraw ? static_cast<float>(draw_value_) : static_cast<float>(result_for(end, player));
    }

    double draw_value_;
    std::uint64_t seed_;
    std::atomic<std::uint64_t> calls_{0};
};

}  // namespace pyaz
