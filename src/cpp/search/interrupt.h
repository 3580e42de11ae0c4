// Cancellation of long C++ loops (a search, a self-play run) from their caller, e.g. on Ctrl-C.
// The caller's `check` runs on the thread that made the poll (the only one where Python handles
// signals), at most once per `period`, and stops the loop by throwing; the poll then reads as
// stopped on every thread, so that the other workers wind down. Nothing here includes Python.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

namespace pyaz {

class InterruptPoll {
public:
    using Check = std::function<void()>;  // throws to stop the loop

    explicit InterruptPoll(Check check, std::chrono::milliseconds period = std::chrono::milliseconds(20))
        : check_(std::move(check)), period_(period), owner_(std::this_thread::get_id()),
          next_(std::chrono::steady_clock::now() + period) {}

    // Whether the loop must stop (a check has thrown); on the owner thread, runs the check when
    // it is due and rethrows what it throws.
    bool poll() {
        if (stopped_.load(std::memory_order_relaxed)) return true;
        if (!check_ || std::this_thread::get_id() != owner_) return false;
        const auto now = std::chrono::steady_clock::now();
        if (now < next_) return false;
        next_ = now + period_;
        try {
            check_();
        } catch (...) {
            stopped_.store(true);
            throw;
        }
        return false;
    }

private:
    Check check_;
    std::chrono::milliseconds period_;
    std::thread::id owner_;
    std::chrono::steady_clock::time_point next_;
    std::atomic<bool> stopped_{false};
};

}  // namespace pyaz
