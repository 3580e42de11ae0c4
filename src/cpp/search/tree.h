// The search tree: compact nodes in an arena, children contiguous, no per-node allocation. The
// arena is allocated in blocks of kBlockSize nodes as the tree grows, up to `capacity` nodes, so
// memory follows the tree's size rather than its cap; blocks are kept for reuse after a reset.
//
// Thread-safety contract: statistics (visits, value sums, in-flight counts) are atomics and may
// be updated by any thread at any time. A node's children are published once: `state` goes
// kLeaf -> kExpanding -> kExpanded (one way), and `first_child`/`num_children` are written only by
// the thread that won the kLeaf -> kExpanding transition, before it stores kExpanded with release
// order. Allocation is a lock-free bump of `used_`. Compaction (tree reuse) and reset are NOT
// thread-safe: they run between searches.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "games/common.h"

namespace pyaz {

enum class NodeState : std::uint8_t { kLeaf, kExpanding, kExpanded, kTerminal };

struct Node {
    // Statistics are from the point of view of the player who chose the action into this node.
    std::atomic<std::int32_t> visits{0};
    std::atomic<std::int32_t> in_flight{0};  // pending visits (virtual loss)
    std::atomic<double> value_sum{0.0};
    std::atomic<NodeState> state{NodeState::kLeaf};
    float prior = 0.0f;
    float terminal_value = 0.0f;  // exact value for the mover, when state is kTerminal
    Action action = kNoAction;
    std::int32_t first_child = -1;
    std::int32_t num_children = 0;
};

inline void atomic_add(std::atomic<double>& target, double amount) {
    double current = target.load(std::memory_order_relaxed);
    while (!target.compare_exchange_weak(current, current + amount, std::memory_order_relaxed)) {
    }
}

class Tree {
public:
    static constexpr int kBlockBits = 12;
    static constexpr std::int64_t kBlockSize = std::int64_t{1} << kBlockBits;

    explicit Tree(std::int64_t capacity) { reset(capacity); }

    // Drops every node and makes a fresh root (index 0).
    void reset(std::int64_t capacity) {
        if (capacity < 1) fail("the tree needs room for at least one node");
        if (capacity > (std::int64_t{1} << 31) - 1) fail("the tree holds at most 2^31 - 1 nodes");
        if (capacity != capacity_) {
            const std::int64_t count = (capacity + kBlockSize - 1) / kBlockSize;
            blocks_.clear();
            blocks_.resize(static_cast<std::size_t>(count));
            ready_ = std::make_unique<std::atomic<bool>[]>(static_cast<std::size_t>(count));
            capacity_ = capacity;
        } else {
            for (std::int64_t i = 0; i < used_.load(); ++i) clear(node(static_cast<std::int32_t>(i)));
        }
        used_.store(0);
        allocate(1);
        clear(node(0));
    }

    Node& node(std::int32_t index) { return blocks_[index >> kBlockBits][index & (kBlockSize - 1)]; }
    const Node& node(std::int32_t index) const {
        return blocks_[index >> kBlockBits][index & (kBlockSize - 1)];
    }
    Node& root() { return node(0); }
    std::int64_t size() const { return used_.load(std::memory_order_relaxed); }
    std::int64_t capacity() const { return capacity_; }

    // Reserves `count` contiguous nodes; returns the first index or -1 when the arena is full.
    std::int32_t allocate(std::int32_t count) {
        const std::int64_t first = used_.fetch_add(count, std::memory_order_relaxed);
        if (first + count > capacity_) {
            used_.fetch_sub(count, std::memory_order_relaxed);
            return -1;
        }
        const std::int64_t last = first + count - 1;
        for (std::int64_t b = first >> kBlockBits; b <= (last >> kBlockBits); ++b) ensure_block(b);
        return static_cast<std::int32_t>(first);
    }

    // Makes the subtree under `new_root` the whole tree (tree reuse), copying it into `spare`
    // and swapping arenas; everything else is dropped.
    void keep_subtree(std::int32_t new_root, Tree& spare);

private:
    void ensure_block(std::int64_t b) {
        if (ready_[b].load(std::memory_order_acquire)) return;
        std::lock_guard<std::mutex> guard(grow_);
        if (ready_[b].load(std::memory_order_relaxed)) return;
        blocks_[static_cast<std::size_t>(b)] = std::make_unique<Node[]>(kBlockSize);
        ready_[b].store(true, std::memory_order_release);
    }
    static void clear(Node& n) {
        n.visits.store(0, std::memory_order_relaxed);
        n.in_flight.store(0, std::memory_order_relaxed);
        n.value_sum.store(0.0, std::memory_order_relaxed);
        n.state.store(NodeState::kLeaf, std::memory_order_relaxed);
        n.prior = 0.0f;
        n.terminal_value = 0.0f;
        n.action = kNoAction;
        n.first_child = -1;
        n.num_children = 0;
    }
    static void copy_stats(const Node& from, Node& to);
    void copy_children(const Tree& source, std::int32_t from, std::int32_t to);

    std::vector<std::unique_ptr<Node[]>> blocks_;
    std::unique_ptr<std::atomic<bool>[]> ready_;
    std::mutex grow_;
    std::int64_t capacity_ = 0;
    std::atomic<std::int64_t> used_{0};
};

inline void Tree::copy_stats(const Node& from, Node& to) {
    to.visits.store(from.visits.load());
    to.in_flight.store(0);
    to.value_sum.store(from.value_sum.load());
    const NodeState s = from.state.load();
    to.state.store(s == NodeState::kExpanding ? NodeState::kLeaf : s);
    to.prior = from.prior;
    to.terminal_value = from.terminal_value;
    to.action = from.action;
    to.first_child = -1;
    to.num_children = 0;
}

// Depth-first copy: the children of `from` (in `source`) become the children of `to` (here).
inline void Tree::copy_children(const Tree& source, std::int32_t from, std::int32_t to) {
    const Node& original = source.node(from);
    if (original.state.load() != NodeState::kExpanded || original.num_children == 0) return;
    const std::int32_t first = allocate(original.num_children);
    node(to).first_child = first;
    node(to).num_children = original.num_children;
    for (std::int32_t i = 0; i < original.num_children; ++i) {
        copy_stats(source.node(original.first_child + i), node(first + i));
    }
    for (std::int32_t i = 0; i < original.num_children; ++i) {
        copy_children(source, original.first_child + i, first + i);
    }
}

inline void Tree::keep_subtree(std::int32_t new_root, Tree& spare) {
    spare.reset(capacity_);
    copy_stats(node(new_root), spare.root());
    spare.root().action = kNoAction;
    spare.copy_children(*this, new_root, 0);
    std::swap(blocks_, spare.blocks_);
    std::swap(ready_, spare.ready_);
    const std::int64_t spare_used = spare.used_.load();
    spare.used_.store(used_.load());
    used_.store(spare_used);
}

}  // namespace pyaz
