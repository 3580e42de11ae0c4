// Search's members that run simulations (the class is in search/mcts.h): run() with a
// thread-safe evaluator (free-running workers, each simulating on its own) or a batched one
// (rounds of leaves gathered under virtual loss, then evaluated in one call); the step-wise
// collect/complete/release of drivers that batch many searches; the search's thread pool.
// Include search/mcts.h, which includes this file.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "core/thread_pool.h"
#include "games/common.h"
#include "search/mcts.h"

namespace pyaz {

template <class Game>
std::int64_t Search<Game>::collect(std::int64_t wanted, std::vector<SearchLeaf<Game>>& leaves) {
    if (is_terminal(root_state_.status())) fail("the game at the root is over; there is nothing to search");
    std::mutex unused;  // one worker: gather runs on the calling thread
    return gather(wanted, leaves, unused, 1);
}

template <class Game>
void Search<Game>::complete(SearchLeaf<Game>& leaf, const float* priors, float value) {
    finish_leaf(leaf, priors, value);
    if (leaf.path.size() == 1) add_root_noise();
}

template <class Game>
void Search<Game>::release(const SearchLeaf<Game>& leaf) {
    tree_.node(leaf.path.back()).state.store(NodeState::kLeaf);
    abandon(leaf);
}

// Runs work(0) .. work(count - 1) at once on the search's own thread pool (started on first use
// and kept, so that back-to-back searches and rounds do not start threads each time; capped at
// the machine's hardware threads), the calling thread taking part; rethrows the first error.
template <class Game>
template <class Work>
void Search<Game>::on_threads(int count, Work&& work) {
    if (count <= 1) {
        work(0);
        return;
    }
    if (!pool_ || pool_->size() < std::min<int>(count, hardware_threads())) {
        pool_ = std::make_unique<ThreadPool>(count);
    }
    pool_->for_each(count, [&](std::int64_t id) { work(static_cast<int>(id)); });
}

template <class Game>
void Search<Game>::expand_root(BatchEvaluator<Game>& evaluator) {
    Leaf leaf{{}, {}, root_state_};
    if (select_leaf(leaf, false) != SelectResult::kNeedsEvaluation) return;
    std::vector<float> priors(root_state_.num_actions());
    evaluate_leaf(leaf, evaluator, priors, 0);
}

template <class Game>
void Search<Game>::evaluate_leaf(Leaf& leaf, BatchEvaluator<Game>& evaluator,
                                 std::vector<float>& priors, std::uint64_t stream) {
    float value = 0.0f;
    try {
        evaluator.evaluate_one(leaf.state, priors.data(), &value, stream);
    } catch (...) {
        release(leaf);
        throw;
    }
    finish_leaf(leaf, priors.data(), value);
}

template <class Game>
void Search<Game>::run(std::int64_t simulations, BatchEvaluator<Game>& evaluator, InterruptPoll* interrupt) {
    const BusyGuard busy(*this, "Search.run");
    if (simulations < 0) fail("simulations must be >= 0");
    if (is_terminal(root_state_.status())) fail("the game at the root is over; there is nothing to search");
    if (simulations == 0) return;
    plan_root_search(simulations);
    if (tree_.node(0).state.load() == NodeState::kLeaf) {
        expand_root(evaluator);
        --simulations;
    }
    add_root_noise();
    if (evaluator.thread_safe()) run_free(simulations, evaluator, interrupt);
    else run_batched(simulations, evaluator, interrupt);
}

template <class Game>
void Search<Game>::flush_root_share(WorkerShare& share) {
    if (share.root_visits > 0) tree_.stats(0).add_visits(share.root_visits, share.root_value_sum, false);
    share.root_visits = 0;
    share.root_value_sum = 0.0;
}

// Each worker claims simulations in small chunks and tallies the root's statistics itself
// (flushed after every chunk), so that the only cache lines the threads share on every
// simulation are those of the nodes they pass through.
template <class Game>
void Search<Game>::run_free(std::int64_t simulations, BatchEvaluator<Game>& evaluator,
                            InterruptPoll* interrupt) {
    std::atomic<std::int64_t> claimed{0};
    const std::int64_t chunk = std::clamp<std::int64_t>(simulations / (16 * params_.threads), 1, 32);
    on_threads(params_.threads, [&](int worker) {
        Leaf leaf{{}, {}, root_state_};
        WorkerShare share;
        leaf.worker = &share;
        std::vector<float> priors(root_state_.num_actions());
        // Evaluator streams: worker in the high bits, the worker's own count below (one thread
        // with a fixed seed replays the same streams).
        std::uint64_t stream = (static_cast<std::uint64_t>(worker) << 40) + 1;
        try {
            for (;;) {
                if (interrupt != nullptr && interrupt->poll()) break;
                const std::int64_t first = claimed.fetch_add(chunk, std::memory_order_relaxed);
                if (first >= simulations) break;
                const std::int64_t last = std::min(first + chunk, simulations);
                for (std::int64_t i = first; i < last; ++i) {
                    if (select_leaf(leaf, true) != SelectResult::kNeedsEvaluation) continue;
                    evaluate_leaf(leaf, evaluator, priors, stream++);
                }
                flush_root_share(share);
            }
        } catch (...) {
            flush_root_share(share);
            throw;
        }
    });
}

// Selects up to `wanted` leaves on `threads` workers (appended to `leaves` under `lock`); returns
// how many simulations ended at a terminal or proven node instead.
template <class Game>
std::int64_t Search<Game>::gather(std::int64_t wanted, std::vector<Leaf>& leaves, std::mutex& lock,
                                  int threads) {
    std::atomic<std::int64_t> claimed{0};  // simulations reserved by a thread before selecting
    std::atomic<std::int64_t> attempts{0};
    std::atomic<std::int64_t> finished{0};
    std::atomic<std::int64_t> collided{0};
    const std::int64_t max_attempts = 2 * wanted;
    on_threads(static_cast<int>(std::min<std::int64_t>(threads, wanted)), [&](int) {
        Leaf leaf{{}, {}, root_state_};
        while (attempts.fetch_add(1, std::memory_order_relaxed) < max_attempts) {
            if (claimed.fetch_add(1) >= wanted) return;
            const SelectResult result = select_leaf(leaf, false);
            if (result == SelectResult::kFinished) {
                finished.fetch_add(1);
            } else if (result == SelectResult::kCollision) {
                collided.fetch_add(1);
                claimed.fetch_sub(1);
            } else {
                std::lock_guard<std::mutex> guard(lock);
                leaves.push_back(leaf);
            }
        }
    });
    collisions_ += collided.load();
    return finished.load();
}

template <class Game>
void Search<Game>::run_batched(std::int64_t simulations, BatchEvaluator<Game>& evaluator,
                               InterruptPoll* interrupt) {
    std::vector<Leaf> leaves;
    std::vector<const Game*> states;
    std::vector<float> priors;
    std::vector<float> values;
    std::mutex lock;
    std::int64_t done = 0;
    while (done < simulations) {
        if (interrupt != nullptr && interrupt->poll()) break;
        leaves.clear();
        const std::int64_t wanted = std::min<std::int64_t>(params_.batch_size, simulations - done);
        done += gather(wanted, leaves, lock, params_.threads);
        if (leaves.empty()) continue;
        states.clear();
        for (const Leaf& leaf : leaves) states.push_back(&leaf.state);
        priors.assign(leaves.size() * root_state_.num_actions(), 0.0f);
        values.assign(leaves.size(), 0.0f);
        try {
            evaluator.evaluate(states, priors.data(), values.data());
        } catch (...) {
            for (const Leaf& leaf : leaves) release(leaf);
            throw;
        }
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            finish_leaf(leaves[i], priors.data() + i * root_state_.num_actions(), values[i]);
        }
        done += static_cast<std::int64_t>(leaves.size());
    }
}

}  // namespace pyaz
