// The search tree: compact nodes in an arena, children contiguous, no per-node allocation. The
// arena is allocated in blocks of kBlockSize nodes as the tree grows, up to `capacity` nodes, so
// memory follows the tree's size rather than its cap; blocks are kept for reuse after a reset.
//
// Layout: a node is two records at the same index, kept in two arrays. `Node` holds what is
// written once (action, prior, children, expansion state); `NodeStats` holds what every
// simulation writes (visits, virtual loss, value sum; 16 bytes, four to a cache line). Threads
// walking the tree then share clean copies of the read-mostly records, and the statistics of a
// node's children sit together, so a selection reads few cache lines other threads have written.
//
// Thread-safety contract: statistics are atomics and may be updated by any thread at any time.
// A node's children are published once: `state` goes kLeaf -> kExpanding -> kExpanded (one way),
// and `first_child`/`num_children` are written only by the thread that won the kLeaf ->
// kExpanding transition, before it stores kExpanded with release order. Allocation is a
// lock-free bump of `used_`; one allocation never straddles two blocks. Compaction (tree reuse)
// and reset are NOT thread-safe: they run between searches.
#pragma once

#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "games/common.h"

namespace pyaz {

enum class NodeState : std::uint8_t { kLeaf, kExpanding, kExpanded, kTerminal };

// A node's statistics, from the point of view of the player who chose the action into it. They
// are packed so that each search step is one atomic add per word: `counts_` holds the visits
// (high 32 bits) and the pending visits of virtual loss (low 32 bits), so that a back-up turns a
// pending visit into a visit with a single fetch_add; `value_` is the value sum in fixed point
// (kValueScale units), so that adding a value is a fetch_add, not a compare-exchange loop.
class NodeStats {
public:
    static constexpr double kValueScale = 268435456.0;  // 2^28: 2^31 visits of |v| <= 4 fit

    struct Snapshot {
        std::int32_t visits;
        std::int32_t in_flight;
        double value_sum;
    };

    Snapshot load() const {
        const std::uint64_t c = counts_.load(std::memory_order_relaxed);
        return {static_cast<std::int32_t>(c >> 32), static_cast<std::int32_t>(c & 0xffffffffu),
                static_cast<double>(value_.load(std::memory_order_relaxed)) / kValueScale};
    }
    std::int32_t visits() const { return static_cast<std::int32_t>(counts_.load() >> 32); }
    std::int32_t in_flight() const { return static_cast<std::int32_t>(counts_.load() & 0xffffffffu); }
    double value_sum() const { return static_cast<double>(value_.load()) / kValueScale; }

    void add_pending() { counts_.fetch_add(1, std::memory_order_relaxed); }
    void drop_pending() { counts_.fetch_sub(1, std::memory_order_relaxed); }
    // `count` finished simulations with the given value sum; `was_pending` turns exactly one
    // pending visit into one of them.
    void add_visits(std::int32_t count, double value_sum, bool was_pending) {
        const std::uint64_t delta = (static_cast<std::uint64_t>(count) << 32) - (was_pending ? 1u : 0u);
        counts_.fetch_add(delta, std::memory_order_relaxed);
        value_.fetch_add(std::llround(value_sum * kValueScale), std::memory_order_relaxed);
    }
    // Between searches only: zeroes everything, or copies visits and value sum exactly.
    void clear() {
        counts_.store(0);
        value_.store(0);
    }
    void copy_from(const NodeStats& other) {
        counts_.store(other.counts_.load() & ~std::uint64_t{0xffffffffu});
        value_.store(other.value_.load());
    }

private:
    std::atomic<std::uint64_t> counts_{0};
    std::atomic<std::int64_t> value_{0};
};

// The read-mostly part of a node.
struct Node {
    std::atomic<NodeState> state{NodeState::kLeaf};
    // The proving search (SearchParams::solver): the node's exact game result, in absolute terms
    // (kOngoing: not proven), set once from kOngoing and never changed.
    std::atomic<Status> proof{Status::kOngoing};
    float prior = 0.0f;
    // kTerminal: the exact value for the player who moved into the node; kExpanded: the
    // evaluator's value for the player to move at the node (read by Gumbel's mixed value).
    float value = 0.0f;
    Action action = kNoAction;
    std::int32_t first_child = -1;
    std::int32_t num_children = 0;
};

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
            for (std::int64_t i = 0; i < used_.load(); ++i) clear(static_cast<std::int32_t>(i));
        }
        used_.store(0);
        allocate(1);
        clear(0);
    }

    Node& node(std::int32_t index) { return block(index).nodes[offset(index)]; }
    const Node& node(std::int32_t index) const { return block(index).nodes[offset(index)]; }
    NodeStats& stats(std::int32_t index) { return block(index).stats[offset(index)]; }
    const NodeStats& stats(std::int32_t index) const { return block(index).stats[offset(index)]; }
    // The records of one allocation (e.g. a node's children) as contiguous arrays.
    const Node* nodes_from(std::int32_t first) const { return &node(first); }
    const NodeStats* stats_from(std::int32_t first) const { return &stats(first); }

    std::int64_t size() const { return used_.load(std::memory_order_relaxed); }
    std::int64_t capacity() const { return capacity_; }

    // Reserves `count` contiguous nodes within one block (a block's unused tail is skipped);
    // returns the first index or -1 when the arena is full.
    std::int32_t allocate(std::int32_t count) {
        if (count < 1 || count > kBlockSize) fail("a node can have 1 to 4096 children");
        std::int64_t used = used_.load(std::memory_order_relaxed);
        std::int64_t first = 0;
        do {
            const std::int64_t room = kBlockSize - (used & (kBlockSize - 1));
            first = room < count ? used + room : used;
            if (first + count > capacity_) return -1;
        } while (!used_.compare_exchange_weak(used, first + count, std::memory_order_relaxed));
        ensure_block(first >> kBlockBits);
        return static_cast<std::int32_t>(first);
    }

    // Makes the subtree under `new_root` the whole tree (tree reuse), copying it into `spare`
    // and swapping arenas; everything else is dropped.
    void keep_subtree(std::int32_t new_root, Tree& spare);

private:
    struct Block {
        std::unique_ptr<Node[]> nodes;
        std::unique_ptr<NodeStats[]> stats;
    };

    static std::size_t offset(std::int32_t index) { return static_cast<std::size_t>(index & (kBlockSize - 1)); }
    Block& block(std::int32_t index) { return blocks_[static_cast<std::size_t>(index >> kBlockBits)]; }
    const Block& block(std::int32_t index) const { return blocks_[static_cast<std::size_t>(index >> kBlockBits)]; }

    void ensure_block(std::int64_t b) {
        if (ready_[b].load(std::memory_order_acquire)) return;
        std::lock_guard<std::mutex> guard(grow_);
        if (ready_[b].load(std::memory_order_relaxed)) return;
        Block& fresh = blocks_[static_cast<std::size_t>(b)];
        fresh.nodes = std::make_unique<Node[]>(kBlockSize);
        fresh.stats = std::make_unique<NodeStats[]>(kBlockSize);
        ready_[b].store(true, std::memory_order_release);
    }
    static bool has_children(const Node& n) {
        return n.state.load() == NodeState::kExpanded && n.num_children > 0;
    }
    void clear(std::int32_t index) {
        stats(index).clear();
        Node& n = node(index);
        n.state.store(NodeState::kLeaf, std::memory_order_relaxed);
        n.proof.store(Status::kOngoing, std::memory_order_relaxed);
        n.prior = 0.0f;
        n.value = 0.0f;
        n.action = kNoAction;
        n.first_child = -1;
        n.num_children = 0;
    }
    // Copies node `from` of `source` into node `to` here, without its children.
    void copy_node(const Tree& source, std::int32_t from, std::int32_t to);
    void copy_descendants(const Tree& source, std::int32_t from, std::int32_t to);

    std::vector<Block> blocks_;
    std::unique_ptr<std::atomic<bool>[]> ready_;
    std::mutex grow_;
    std::int64_t capacity_ = 0;
    std::atomic<std::int64_t> used_{0};
};

inline void Tree::copy_node(const Tree& source, std::int32_t from, std::int32_t to) {
    stats(to).copy_from(source.stats(from));
    const Node& original = source.node(from);
    Node& copy = node(to);
    const NodeState s = original.state.load();
    copy.state.store(s == NodeState::kExpanding ? NodeState::kLeaf : s);
    copy.proof.store(original.proof.load());
    copy.prior = original.prior;
    copy.value = original.value;
    copy.action = original.action;
    copy.first_child = -1;
    copy.num_children = 0;
}

// Breadth-first copy: the descendants of `from` (in `source`) become those of `to` (here). The
// copy allocates its groups of children in another order than the search did, so their blocks'
// unused tails differ, and the subtree of a full tree may not fit again: a node whose children
// find no room stays a leaf here (the search expands it again if it comes back), and the nodes
// nearest the root, the ones the next search reads most, are the ones kept.
inline void Tree::copy_descendants(const Tree& source, std::int32_t from, std::int32_t to) {
    std::vector<std::pair<std::int32_t, std::int32_t>> expanded{{from, to}};  // (source, here)
    for (std::size_t next = 0; next < expanded.size(); ++next) {
        const auto [original_index, copy_index] = expanded[next];
        const Node& original = source.node(original_index);
        const std::int32_t first = allocate(original.num_children);
        if (first < 0) {
            node(copy_index).state.store(NodeState::kLeaf);
            continue;
        }
        node(copy_index).first_child = first;
        node(copy_index).num_children = original.num_children;
        for (std::int32_t i = 0; i < original.num_children; ++i) {
            const std::int32_t child = original.first_child + i;
            copy_node(source, child, first + i);
            if (has_children(source.node(child))) expanded.emplace_back(child, first + i);
        }
    }
}

inline void Tree::keep_subtree(std::int32_t new_root, Tree& spare) {
    spare.reset(capacity_);
    spare.copy_node(*this, new_root, 0);
    spare.node(0).action = kNoAction;
    if (has_children(node(new_root))) spare.copy_descendants(*this, new_root, 0);
    std::swap(blocks_, spare.blocks_);
    std::swap(ready_, spare.ready_);
    const std::int64_t spare_used = spare.used_.load();
    spare.used_.store(used_.load());
    used_.store(spare_used);
}

// The fewest nodes a tree for `state`'s game needs: the root and one child per action, so that
// the first simulation always expands the root (a smaller max_nodes leaves a search that can
// never visit a move).
template <class Game>
std::int64_t min_tree_nodes(const Game& state) {
    return 1 + static_cast<std::int64_t>(state.num_actions());
}

// Fails (std::invalid_argument naming max_nodes) unless a tree of `max_nodes` can search `state`.
template <class Game>
void check_tree_room(const Game& state, std::int64_t max_nodes) {
    if (max_nodes < min_tree_nodes(state)) {
        fail("max_nodes must be >= " + std::to_string(min_tree_nodes(state)) + " for a " +
             std::string(Game::kName) + " search (the root and a node per action), got " +
             std::to_string(max_nodes));
    }
}

}  // namespace pyaz
