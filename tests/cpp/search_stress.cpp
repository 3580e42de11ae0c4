// Multithreaded search and self-play stress run for the sanitizers (no Python involved):
// build with -DPYAZ_TSAN=ON or -DPYAZ_ASAN=ON and run the `pyaz_stress` binary; any data race,
// memory error or broken invariant makes it fail.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "games/connect_four.h"
#include "games/gomoku.h"
#include "games/othello.h"
#include "search/connect_four_solver.h"
#include "search/mcts.h"
#include "search/selfplay.h"

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "FAILED: %s\n", what);
        ++failures;
    }
}

// A stand-in for the Python network: evaluated as one batch on the calling thread.
template <class Game>
class BatchedUniform : public pyaz::BatchEvaluator<Game> {
public:
    void evaluate(const std::vector<const Game*>& states, float* priors, float* values) override {
        pyaz::UniformEvaluator<Game>().evaluate(states, priors, values);
    }
};

template <class Game>
void stress_search(const Game& start, int threads) {
    pyaz::SearchParams params;
    params.threads = threads;
    params.batch_size = 16;
    params.max_nodes = 200000;
    pyaz::Search<Game> search(start, params);
    pyaz::UniformEvaluator<Game> uniform;
    search.run(20000, uniform);
    check(search.pending_visits() == 0, "no pending visits after a free-running search");
    check(search.root_visits() == 20000, "root visits equal simulations (free-running)");
    pyaz::RolloutEvaluator<Game> rollout(0.0, 1);
    search.run(3000, rollout);
    BatchedUniform<Game> batched;
    search.run(3000, batched);
    check(search.pending_visits() == 0, "no pending visits after a batched search");
    check(search.root_visits() == 26000, "root visits equal simulations (batched)");
    pyaz::Rng rng(3);
    search.advance(search.choose_action(0.0, rng));
    search.run(2000, uniform);
    check(search.pending_visits() == 0, "no pending visits after tree reuse");

    // A small arena (a few blocks, allocations skipping block tails) filled up while searching.
    params.max_nodes = 3 * 4096 + 100;
    pyaz::Search<Game> capped(start, params);
    capped.run(30000, uniform);
    check(capped.tree_full(), "the capped tree fills up");
    check(capped.tree_size() <= params.max_nodes, "the capped tree stays within its cap");
    check(capped.root_visits() == 30000, "root visits equal simulations (full tree)");
    check(capped.pending_visits() == 0, "no pending visits after a full-tree search");

    // The smallest tree, and one simulation (it only expands the root): still a move.
    params.max_nodes = pyaz::min_tree_nodes(start);
    pyaz::Search<Game> smallest(start, params);
    smallest.run(1, batched);
    const pyaz::Action action = smallest.choose_action(0.0, rng);
    check(start.is_legal(action), "one simulation gives a legal move (by the priors)");
    smallest.run(200, uniform);
    check(smallest.tree_size() <= params.max_nodes, "the smallest tree stays within its cap");
    check(smallest.pending_visits() == 0, "no pending visits after a smallest-tree search");

    // Forced playouts at the root, with the solver, free-running and batched.
    params.max_nodes = 200000;
    params.forced_playouts = true;
    params.solver = true;
    pyaz::Search<Game> forced(start, params);
    forced.run(10000, uniform);
    forced.run(3000, batched);
    check(forced.pending_visits() == 0, "no pending visits after forced playouts");
    check(forced.root_visits() == 13000, "root visits equal simulations (forced playouts)");
    const std::vector<std::int32_t> pruned = forced.pruned_visit_counts();
    const std::vector<std::int32_t> visits = forced.visit_counts();
    check(*std::max_element(pruned.begin(), pruned.end()) == *std::max_element(visits.begin(), visits.end()),
          "pruning keeps the most visited move");
    params.forced_playouts = false;

    // Gumbel AlphaZero (its root halving under a lock), with the solver, free-running and batched.
    params.rule = pyaz::SelectionRule::kGumbel;
    params.gumbel_noise = true;
    params.solver = true;
    pyaz::Search<Game> gumbel(start, params);
    gumbel.run(10000, rollout);
    gumbel.run(3000, batched);
    check(gumbel.pending_visits() == 0, "no pending visits after a Gumbel search");
    check(gumbel.root_visits() == 13000, "root visits equal simulations (Gumbel)");
    check(start.is_legal(gumbel.gumbel_action()), "Gumbel gives a legal move");
    gumbel.advance(gumbel.gumbel_action());
    gumbel.run(2000, uniform);
    check(gumbel.pending_visits() == 0, "no pending visits after Gumbel tree reuse");
}

template <class Game>
void stress_self_play(const Game& start, int threads) {
    pyaz::SelfPlayConfig config;
    config.games = 24;
    config.parallel_games = 8;
    config.simulations = 24;
    config.leaves_per_game = 4;
    config.threads = threads;
    config.search.max_nodes = 50000;
    config.search.dirichlet_epsilon = 0.25;
    pyaz::SelfPlay<Game> driver(start, config);
    BatchedUniform<Game> batched;
    const pyaz::SelfPlayRecords records = driver.play(batched, [](std::int64_t) {});
    check(records.game_status.size() == 24, "self-play finished every game");

    config.simulations = 1;  // each move from the priors of the root's one expansion
    config.leaves_per_game = 1;
    pyaz::SelfPlay<Game> quick(start, config);
    check(quick.play(batched, [](std::int64_t) {}).game_status.size() == 24, "one-simulation self-play");

    config.simulations = 24;
    config.leaves_per_game = 4;
    config.search.solver = true;
    pyaz::SelfPlay<Game> proving(start, config);
    check(proving.play(batched, [](std::int64_t) {}).game_status.size() == 24, "self-play with the solver");

    config.search.rule = pyaz::SelectionRule::kGumbel;
    config.search.gumbel_noise = true;
    pyaz::SelfPlay<Game> gumbel(start, config);
    check(gumbel.play(batched, [](std::int64_t) {}).game_status.size() == 24, "Gumbel self-play");

    config.search.rule = pyaz::SelectionRule::kPuct;
    config.search.forced_playouts = true;
    config.full_search_prob = 0.25;
    config.cheap_simulations = 6;
    pyaz::SelfPlay<Game> capped(start, config);
    const pyaz::SelfPlayRecords some = capped.play(batched, [](std::int64_t) {});
    check(some.full_searches == static_cast<std::int64_t>(some.player.size()),
          "playout cap randomisation records the full searches");
}

// The proving search (MCTS-solver) with many threads, free-running and batched, on late
// Connect Four positions (a loss, a win and a draw for the side to move; columns 1-7): the root
// is proven with the exact solver's value, and a proven root keeps taking simulations.
void stress_proofs(int threads) {
    pyaz::ConnectFourSolver exact(100003);
    for (const char* moves : {"547454637711", "41625217274353", "46514272226131627216477413144765"}) {
        pyaz::ConnectFour state(7, 6);
        for (const char* c = moves; *c != 0; ++c) state.apply(*c - '1');
        pyaz::SearchParams params;
        params.threads = threads;
        params.batch_size = 16;
        params.max_nodes = 400000;
        params.solver = true;
        pyaz::Search<pyaz::ConnectFour> free_running(state, params);
        pyaz::UniformEvaluator<pyaz::ConnectFour> uniform;
        free_running.run(30000, uniform);
        check(free_running.proven_value() == exact.value(state), "free-running threads prove the root");
        check(free_running.pending_visits() == 0, "no pending visits after a proving search");
        pyaz::Search<pyaz::ConnectFour> batched_search(state, params);
        BatchedUniform<pyaz::ConnectFour> batched;
        batched_search.run(30000, batched);
        check(batched_search.proven_value() == exact.value(state), "batched rounds prove the root");
        check(batched_search.root_visits() == 30000, "root visits equal simulations (solver)");
        pyaz::Rng rng(1);
        check(state.is_legal(batched_search.choose_action(0.0, rng)), "a proven root gives a legal move");
    }
}

// Tree reuse of a full tree whose kept subtree cannot be packed again: the copy allocates the
// groups of children in another order than the search did, so they fall on the blocks'
// boundaries differently. Here the search filled block 0's tail with the second child's 93
// children and block 1 with the first child's 4,096; the copy puts the first child's children in
// block 1, then finds no room for the second's (before 2026-11-27 the copy wrote them at index
// -1, and a Gomoku self-play run crashed). The children that do not fit leave their node a leaf.
void stress_keep_subtree_of_a_full_tree() {
    const std::int64_t block = pyaz::Tree::kBlockSize;
    pyaz::Tree tree(2 * block);
    pyaz::Tree spare(2 * block);
    auto expand = [&tree](std::int32_t parent, std::int32_t children) {
        const std::int32_t first = tree.allocate(children);
        for (std::int32_t i = 0; i < children; ++i) tree.node(first + i).action = i;
        pyaz::Node& node = tree.node(parent);
        node.first_child = first;
        node.num_children = children;
        node.state.store(pyaz::NodeState::kExpanded);
        return first;
    };
    expand(0, 2);                               // the root's children 1 (kept) and 2
    const std::int32_t first = expand(1, 4000);  // nodes 3..4002
    expand(first + 1, 93);                      // the second grandchild first: 4003..4095
    expand(first, static_cast<std::int32_t>(block));  // then the first: the whole of block 1
    check(tree.size() == 2 * block, "the tree to reuse is full");
    tree.keep_subtree(1, spare);
    check(tree.size() <= tree.capacity(), "the kept subtree stays within the arena");
    const pyaz::Node& root = tree.node(0);
    check(root.num_children == 4000 && root.action == pyaz::kNoAction, "the new root keeps its children");
    const pyaz::Node& kept = tree.node(root.first_child);
    check(kept.state.load() == pyaz::NodeState::kExpanded && kept.num_children == block,
          "the first child keeps its children");
    const pyaz::Node& cut = tree.node(root.first_child + 1);
    check(cut.state.load() == pyaz::NodeState::kLeaf && cut.num_children == 0 && cut.first_child == -1 &&
              cut.action == 1,
          "the second child, without room for its children, is a leaf");
}

// The exact solver on a small table (many collisions, every slot rewritten): the published
// values of the empty 5x4 (a draw) and 6x4 (a second-player win with the 12th disc) boards.
void stress_solver() {
    pyaz::ConnectFourSolver solver(10007);
    check(solver.solve(pyaz::ConnectFour(5, 4)) == 0, "the empty 5x4 board is a draw");
    check(solver.value(pyaz::ConnectFour(6, 4)) == -1, "the empty 6x4 board is lost");
    const auto scores = solver.move_scores(pyaz::ConnectFour(6, 4));
    int best = -100;
    for (const auto& score : scores) best = std::max(best, score.value_or(-100));
    check(scores.size() == 6 && best == -1, "6x4: the best moves lose with the opponent's 12th disc");
    check(scores.front() == scores.back(), "6x4: mirror moves score alike");
}

}  // namespace

int main() {
    stress_solver();
    stress_keep_subtree_of_a_full_tree();
    for (int threads : {2, 4}) {
        stress_proofs(threads);
        stress_search(pyaz::Othello(8), threads);
        stress_search(pyaz::ConnectFour(7, 6), threads);
        stress_search(pyaz::Gomoku(9, 5, true), threads);
        stress_self_play(pyaz::Othello(6), threads);
        stress_self_play(pyaz::ConnectFour(7, 6), threads);
    }
    std::printf(failures ? "%d failed\n" : "all passed\n", failures);
    return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
