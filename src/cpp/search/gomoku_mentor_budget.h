// How much work the Gomoku mentor may do for one call: a node limit, a time limit, an
// interrupt check (Ctrl-C from Python), and phases that may use only a share of what is left.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>

namespace pyaz::mentor {

class Budget {
public:
    using Clock = std::chrono::steady_clock;

    // max_nodes 0 and time_ms 0 mean no limit of that kind. `interrupted` is asked every few
    // milliseconds; once it says true, every phase stops for good.
    Budget(std::int64_t max_nodes, double time_ms, std::function<bool()> interrupted)
        : interrupted_check_(std::move(interrupted)), start_(Clock::now()) {
        node_end_ = max_nodes > 0 ? max_nodes : kNever;
        has_deadline_ = time_ms > 0.0;
        if (has_deadline_) deadline_ = start_ + to_duration(time_ms);
        end_phase();
    }

    // Counts one node; true when the current phase must stop.
    bool tick() {
        ++nodes_;
        if (nodes_ >= phase_node_end_) stopped_ = true;
        if ((nodes_ & 1023) == 0) poll();
        return stopped_;
    }
    bool stopped() const { return stopped_; }
    bool interrupted() const { return interrupted_; }
    std::int64_t nodes() const { return nodes_; }
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
    }

    // Limits the work that follows to `share` (0..1] of the nodes and time left, and to
    // `node_cap` nodes when it is positive (so that a phase ends even with no limit at all).
    void begin_phase(double share, std::int64_t node_cap = 0) {
        end_phase();
        if (stopped_) return;
        if (node_end_ != kNever) {
            const auto left = static_cast<double>(node_end_ - nodes_);
            phase_node_end_ = nodes_ + std::max<std::int64_t>(1, static_cast<std::int64_t>(left * share));
        }
        if (node_cap > 0) phase_node_end_ = std::min(phase_node_end_, nodes_ + node_cap);
        if (has_deadline_) {
            phase_deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                 (deadline_ - Clock::now()) * share);
        }
    }

    // Back to the whole budget; stays stopped only if the whole budget is spent or interrupted.
    void end_phase() {
        phase_node_end_ = node_end_;
        phase_deadline_ = deadline_;
        stopped_ = interrupted_ || nodes_ >= node_end_ || (has_deadline_ && Clock::now() >= deadline_);
    }

private:
    static constexpr std::int64_t kNever = std::numeric_limits<std::int64_t>::max();
    static constexpr double kInterruptPollMs = 20.0;

    static Clock::duration to_duration(double ms) {
        return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double, std::milli>(ms));
    }

    void poll() {
        const auto now = Clock::now();
        if (has_deadline_ && now >= phase_deadline_) stopped_ = true;
        if (interrupted_check_ && now - last_interrupt_poll_ >= to_duration(kInterruptPollMs)) {
            last_interrupt_poll_ = now;
            if (interrupted_check_()) interrupted_ = stopped_ = true;
        }
    }

    std::function<bool()> interrupted_check_;
    Clock::time_point start_;
    Clock::time_point deadline_{};
    Clock::time_point phase_deadline_{};
    Clock::time_point last_interrupt_poll_{};
    bool has_deadline_ = false;
    std::int64_t node_end_ = kNever;
    std::int64_t phase_node_end_ = kNever;
    std::int64_t nodes_ = 0;
    bool stopped_ = false;
    bool interrupted_ = false;
};

}  // namespace pyaz::mentor
