// Small, fast, seedable random number generator (xoshiro256**, seeded by SplitMix64).
// Deterministic across platforms for a given seed, which the tests and self-play rely on.
#pragma once

#include <array>
#include <cstdint>

namespace pyaz {

class Rng {
public:
    explicit Rng(std::uint64_t seed = 0) { reseed(seed); }

    void reseed(std::uint64_t seed) {
        std::uint64_t x = seed;
        for (auto& word : state_) word = splitmix64(x);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
        const std::uint64_t t = state_[1] << 17;
        state_[2] ^= state_[0];
        state_[3] ^= state_[1];
        state_[1] ^= state_[2];
        state_[0] ^= state_[3];
        state_[2] ^= t;
        state_[3] = rotl(state_[3], 45);
        return result;
    }

    // Uniform integer in [0, bound) by Lemire's multiply-shift (bias below 2^-32 for small bounds).
    std::uint32_t below(std::uint32_t bound) {
        const std::uint64_t x = next() >> 32;
        return static_cast<std::uint32_t>((x * bound) >> 32);
    }

    // UniformRandomBitGenerator, so that <random> distributions can draw from it.
    using result_type = std::uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type operator()() { return next(); }

    // Uniform double in [0, 1).
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    static std::uint64_t splitmix64(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    std::array<std::uint64_t, 4> state_{};
};

}  // namespace pyaz
