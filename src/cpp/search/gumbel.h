// Gumbel AlphaZero's root search and completed-Q policy (Danihelka, Guez, Schrittwieser & Silver,
// ICLR 2022, "Policy improvement by planning with Gumbel"; as in google-deepmind/mctx's
// gumbel_muzero_policy, seq_halving and qtransform_completed_by_mix_value), without the tree:
// the sequential halving schedule, the Gumbel noise and sigma(completed Q).
#pragma once

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "core/rng.h"

namespace pyaz {

// The visit count that sequential halving (Karnin et al. 2013) gives the root action of the k-th
// simulation (0-based) of a budget of n over m considered actions: the simulation goes to the
// best-scoring action that has exactly this many simulations so far. Phases of
// max(1, floor(n / (ceil(log2 m) * considered))) visits to each considered action, the
// considered actions halving (never below 2) after each phase; past the budget the last phase
// goes on. Equals mctx's get_sequence_of_considered_visits(m, n)[k] for k < n.
inline std::int64_t considered_visit(int m, std::int64_t n, std::int64_t k) {
    if (m <= 1) return k;
    int log2m = 0;
    while ((std::int64_t{1} << log2m) < m) ++log2m;
    std::int64_t start = 0;
    std::int64_t visits = 0;
    for (int considered = m;; considered = std::max(2, considered / 2)) {
        if (considered == 2) return visits + (k - start) / 2;  // every later phase is alike
        const std::int64_t extra = std::max<std::int64_t>(1, n / (std::int64_t{log2m} * considered));
        const std::int64_t block = extra * considered;
        if (k < start + block) return visits + (k - start) / considered;
        start += block;
        visits += extra;
    }
}

// A standard Gumbel sample, -log(-log(u)) with u uniform in (0, 1).
inline double gumbel_sample(Rng& rng) {
    const double u = (static_cast<double>(rng() >> 11) + 0.5) * 0x1.0p-53;
    return -std::log(-std::log(u));
}

// sigma(completed Q) for the `count` children of a node (the paper's eq. 8 and Appendix D):
// n[i] visits and w[i] value sums for the player to move at the node, p[i] priors, `raw` the
// evaluator's value of the node. Completed Q is w/n for a visited child and, for the others, the
// mixed value v_mix = (raw + sum_b N(b) * sum_{visited} p q / sum_{visited} p) / (1 + sum_b N(b));
// it is mapped from the known value range [-1, 1] to [0, 1] (q+1)/2 (not min-max normalised) and
// scaled by (c_visit + max_b N(b)) * c_scale. Returns v_mix.
inline double completed_sigma(int count, const double* n, const double* w, const double* p, double raw,
                              double c_visit, double c_scale, double* sigma) {
    double total = 0.0;
    double most = 0.0;
    double visited_prior = 0.0;
    double weighted = 0.0;
    for (int i = 0; i < count; ++i) {
        total += n[i];
        most = std::max(most, n[i]);
        if (n[i] > 0) {
            const double prior = std::max(p[i], static_cast<double>(FLT_MIN));
            visited_prior += prior;
            weighted += prior * w[i] / n[i];
        }
    }
    const double mixed = (raw + (visited_prior > 0 ? total * weighted / visited_prior : 0.0)) / (1.0 + total);
    const double scale = (c_visit + most) * c_scale;
    for (int i = 0; i < count; ++i) {
        const double q = n[i] > 0 ? w[i] / n[i] : mixed;
        sigma[i] = scale * (q + 1.0) / 2.0;
    }
    return mixed;
}

}  // namespace pyaz
