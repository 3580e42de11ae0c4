// The proving search, MCTS-solver (Winands, Bjornsson & Saito 2008, "Monte-Carlo Tree Search
// Solver"; SearchParams::solver): game results proven in the tree, in Node::proof. A terminal
// node is proven by its result; an expanded node by a child that wins for the player to move
// there, or by all its children once every one is proven (the best of them for that player).
// The search does not descend below a proven node (its exact value backs up instead), ranks
// proven wins first and proven losses last, and the root's proofs decide the move played.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "games/common.h"
#include "search/tree.h"

namespace pyaz {

// A proof's rank for `chooser`: 0 proven loss, 1 unproven or draw, 2 proven win.
inline int proof_tier(Status proof, int chooser) {
    return proof == Status::kOngoing ? 1 : 1 + result_for(proof, chooser);
}

// The rank of `child` for `chooser` during a search (always 1 without the solver).
inline int proof_tier(const Node& child, int chooser, bool solver) {
    if (!solver) return 1;
    return proof_tier(child.proof.load(std::memory_order_relaxed), chooser);
}

// The root's proven result for `player`: +1 win, 0 draw, -1 loss, or 2 while it is not proven.
inline int proven_result(Status proof, int player) {
    return proof == Status::kOngoing ? 2 : result_for(proof, player);
}

// Proves node `index` (expanded, `chooser` to move) from its children's proofs if they decide it:
// a child won by `chooser`, or every child proven (the best of them for `chooser`). Sequentially
// consistent loads and stores: of two threads that prove the last two undecided children of a
// node at once, at least one sees both proofs.
inline void try_prove(Tree& tree, std::int32_t index, int chooser) {
    Node& node = tree.node(index);
    if (node.state.load() != NodeState::kExpanded) return;
    int best = -2;  // the best proven result among the children, for the chooser
    bool all_proven = true;
    for (std::int32_t i = 0; i < node.num_children && best < 1; ++i) {
        const Status proof = tree.node(node.first_child + i).proof.load();
        if (proof == Status::kOngoing) all_proven = false;
        else best = std::max(best, result_for(proof, chooser));
    }
    if (best < 1 && !all_proven) return;
    const Status result = best == 1 ? win_for(chooser) : best == 0 ? Status::kDraw : win_for(1 - chooser);
    Status unproven = Status::kOngoing;
    node.proof.compare_exchange_strong(unproven, result);  // a proof, once made, stays
}

// Proves the nodes of `path` (root first; movers[i] chose the action into path[i]) above its
// newly proven end, bottom up, while they can be proven (see try_prove).
inline void prove_upwards(Tree& tree, const std::vector<std::int32_t>& path,
                          const std::vector<std::int8_t>& movers) {
    for (std::size_t i = path.size() - 1; i-- > 0;) {
        const Node& node = tree.node(path[i]);
        if (node.proof.load() == Status::kOngoing) try_prove(tree, path[i], movers[i + 1]);
        if (node.proof.load() == Status::kOngoing) return;
    }
}

// The solver's filter at the root: each child's proof_tier for the player to move there (all 1
// without the solver). The moves kept are those of the highest tier: the proven wins if any, else
// the moves not proven lost if any, else every move.
inline std::vector<int> root_proof_tiers(const Tree& tree, int to_move, bool solver) {
    const Node& root = tree.node(0);
    std::vector<int> tier(root.num_children, 1);
    if (!solver) return tier;
    for (std::int32_t i = 0; i < root.num_children; ++i) {
        tier[i] = proof_tier(tree.node(root.first_child + i).proof.load(), to_move);
    }
    return tier;
}

}  // namespace pyaz
