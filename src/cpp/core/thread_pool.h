// A fixed set of worker threads that run one parallel loop at a time: `for_each(count, work)`
// calls work(i) for every i in [0, count), the calling thread taking part, and returns when all
// are done; the first exception thrown by any work(i) is rethrown in the caller.
//
// Thread-safety: for_each is called from one thread at a time (the pool's owner).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pyaz {

inline int hardware_threads() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

class ThreadPool {
public:
    // `threads` workers in all, the caller included (so threads - 1 are started); capped at the
    // machine's hardware threads, since more would only take turns on the same cores.
    explicit ThreadPool(int threads) {
        const int helpers = std::max(0, std::min(threads, hardware_threads()) - 1);
        for (int i = 0; i < helpers; ++i) workers_.emplace_back([this] { worker_loop(); });
    }

    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    ~ThreadPool() {
        {
            std::lock_guard<std::mutex> guard(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& w : workers_) w.join();
    }

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    // Whether the owner will call for_each again at once after the next one returns (then the
    // workers spin for up to kSpinWindow before sleeping, so that the call does not wait for them
    // to be scheduled again) or will first work on its own for longer, e.g. evaluate a network
    // with threads of its own (then a spinning worker would only take their cores: 2 tree
    // threads beside 2 ONNX Runtime threads played 3x slower than 1 on a 2-core machine
    // with a spin of 2,000 yields). Off until said.
    void set_spin_after(bool next_call_follows_at_once) {
        spin_after_.store(next_call_follows_at_once, std::memory_order_relaxed);
    }

    void for_each(std::int64_t count, const std::function<void(std::int64_t)>& work) {
        if (workers_.empty() || count <= 1) {
            for (std::int64_t i = 0; i < count; ++i) work(i);
            return;
        }
        {
            std::lock_guard<std::mutex> guard(mutex_);
            work_ = &work;
            count_ = count;
            next_.store(0);
            busy_ = static_cast<int>(workers_.size());
            error_ = nullptr;
            ++generation_;
            posted_.store(generation_, std::memory_order_release);
        }
        wake_.notify_all();
        drain();
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [this] { return busy_ == 0; });
        work_ = nullptr;
        if (error_) std::rethrow_exception(error_);
    }

private:
    // See set_spin_after.
    void spin_for_next_round(std::uint64_t seen) {
        if (!spin_after_.load(std::memory_order_relaxed)) return;
        const auto give_up = Clock::now() + kSpinWindow;
        while (posted_.load(std::memory_order_acquire) == seen && Clock::now() < give_up) {
            std::this_thread::yield();
        }
    }

    void drain() {
        for (std::int64_t i = next_.fetch_add(1); i < count_; i = next_.fetch_add(1)) {
            try {
                (*work_)(i);
            } catch (...) {
                std::lock_guard<std::mutex> guard(mutex_);
                if (!error_) error_ = std::current_exception();
            }
        }
    }

    void worker_loop() {
        std::uint64_t seen = 0;
        for (;;) {
            spin_for_next_round(seen);
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
                if (stopping_) return;
                seen = generation_;
            }
            drain();
            std::lock_guard<std::mutex> guard(mutex_);
            if (--busy_ == 0) done_.notify_one();
        }
    }

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_;
    std::condition_variable done_;
    const std::function<void(std::int64_t)>* work_ = nullptr;
    std::int64_t count_ = 0;
    std::atomic<std::int64_t> next_{0};
    int busy_ = 0;
    std::uint64_t generation_ = 0;
    std::atomic<std::uint64_t> posted_{0};  // generation_, readable without the lock
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::microseconds kSpinWindow{50};
    std::atomic<bool> spin_after_{false};
    bool stopping_ = false;
    std::exception_ptr error_;
};

}  // namespace pyaz
