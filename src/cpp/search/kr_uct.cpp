#include "search/kr_uct.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>

namespace pyaz::curling {
namespace {

constexpr double kGuardY = 35.5;
constexpr double kHitSpeedFcv1[] = {2.7, 3.3};  // hit-and-stay and peel weights (m/s)
constexpr double kHitSpeedGat[] = {31.0, 34.0};

void add_both_spins(std::vector<Target>& out, double x, double y) {
    out.push_back(Target{x, y, 1});
    out.push_back(Target{x, y, -1});
}

struct Edge {
    Target action;
    double n = 0.0;
    double value_sum = 0.0;
    double kn = 0.0;  // W(a)
    double kv = 0.0;  // sum_b K(a, b) * value_sum_b
    int child = -1;
};

struct Node {
    GameState state;
    std::vector<Edge> edges;
    std::vector<Target> pending;  // initial actions not added yet
    double total_n = 0.0;
    int depth = 0;
    bool terminal = false;
    bool waiting = false;          // its value is asked of the evaluator and has not come yet
    double terminal_value = 0.0;  // team 0, for terminal nodes
    double value = 0.0;           // team 0, its value as a leaf (valid once not waiting)
};

// One edge of a descent, with the virtual visit (reward for the mover) it left there.
struct PathStep {
    int node = 0;
    int edge = 0;
    double virtual_reward = 0.0;
};

struct WaitingLeaf {
    int node = 0;
    std::vector<PathStep> path;
};

enum class Descent { kBackedUp, kWaiting, kCollision };

}  // namespace

class KrUctSearch::Impl {
public:
    Impl(const GameState& root, const KrUctParams& params, bool with_evaluator, InterruptPoll* interrupt)
        : params_(params), with_evaluator_(with_evaluator), interrupt_(interrupt), rng_(params.seed) {
        const int index = make_node(root, 0);
        if (nodes_[index].waiting) waiting_.push_back(WaitingLeaf{index, {}});  // the root's prior
    }

    const std::vector<GameState>& gather() {
        const int max_leaves = std::max(1, params_.leaves_per_round);
        while (static_cast<int>(waiting_.size()) < max_leaves && !root_waiting() && started_ < params_.simulations) {
            if (interrupt_ != nullptr) interrupt_->poll();
            if (descend() == Descent::kCollision) break;
            ++started_;
        }
        states_.clear();
        for (const auto& leaf : waiting_) states_.push_back(nodes_[leaf.node].state);
        return states_;
    }

    void supply(const std::vector<LeafResult>& results) {
        if (results.size() != waiting_.size()) throw std::invalid_argument("the evaluator returned the wrong number of results");
        std::vector<WaitingLeaf> leaves = std::move(waiting_);
        waiting_.clear();
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            const double value = settle(leaves[i].node, results[i]);
            for (auto step = leaves[i].path.rbegin(); step != leaves[i].path.rend(); ++step) {
                if (virtual_visits()) add_visit(step->node, step->edge, -1.0, -step->virtual_reward);
                backup(step->node, step->edge, value);
            }
        }
    }

    bool done() const { return waiting_.empty() && started_ >= params_.simulations; }

    KrUctResult result() const {
        KrUctResult out;
        const Node& root = nodes_.front();
        double best_w = -1.0;
        for (const auto& e : root.edges) {
            RootChild c{e.action, e.n, e.n > 0.0 ? e.value_sum / e.n : 0.0, e.kn > 0.0 ? e.kv / e.kn : 0.0, e.kn};
            out.children.push_back(c);
            if (e.kn > best_w) {
                best_w = e.kn;
                out.best = e.action;
            }
        }
        return out;
    }

private:
    bool root_waiting() const { return !waiting_.empty() && waiting_.front().path.empty(); }
    bool virtual_visits() const { return params_.leaves_per_round > 1; }

    double kernel(const Target& a, const Target& b) const {
        if (a.spin != b.spin) return 0.0;
        const double dx = (a.x - b.x) / params_.sigma_x;
        const double dy = (a.y - b.y) / params_.sigma_y;
        return std::exp(-0.5 * (dx * dx + dy * dy));
    }

    // Creates a node for `state`; it waits for the evaluator, or gets its value now.
    int make_node(const GameState& state, int depth) {
        Node node;
        node.state = state;
        node.depth = depth;
        const bool finished = state.shot() >= kStonesPerEnd;
        if (finished || depth >= params_.max_depth) {
            node.terminal = true;
            node.value = house_value_team0(state);
            node.waiting = with_evaluator_ && (!finished || params_.evaluate_finished_ends);
        } else if (with_evaluator_) {
            node.waiting = true;
        } else {
            node.value = rollout_value(state);
            node.pending = generate_shots(state);
            std::reverse(node.pending.begin(), node.pending.end());
        }
        node.terminal_value = node.value;
        nodes_.push_back(std::move(node));
        return static_cast<int>(nodes_.size()) - 1;
    }

    // Gives a waiting node its evaluation; returns its value for team 0.
    double settle(int index, const LeafResult& leaf) {
        Node& node = nodes_[index];
        node.waiting = false;
        node.value = leaf.value_team0;
        if (node.terminal) {
            node.terminal_value = node.value;
        } else {
            node.pending = draw_initial(leaf, node.state);
        }
        return node.value;
    }

    // Yee et al.'s rollout: up to rollout_shots random generated shots with execution noise, then
    // the house score as if the end finished.
    double rollout_value(const GameState& state) {
        if (params_.rollout_shots <= 0) return house_value_team0(state);
        GameState play = state;
        const NoiseParams noise{Noise::kGAT};
        const Physics model = play.rules().physics.model;
        for (int i = 0; i < params_.rollout_shots && play.shot() < kStonesPerEnd; ++i) {
            const std::vector<Target> shots = generate_shots(play);
            const Target& pick = shots[rng_.below(static_cast<std::uint32_t>(shots.size()))];
            play.apply_no_end(perturb(target_to_shot(pick, model), noise, model, rng_));
        }
        return house_value_team0(play);
    }

    // k candidates without replacement, in proportion to their weights (all if none given).
    std::vector<Target> draw_initial(const LeafResult& leaf, const GameState& state) {
        if (leaf.candidates.empty()) {
            std::vector<Target> all = generate_shots(state);
            std::reverse(all.begin(), all.end());
            return all;
        }
        std::vector<Target> chosen;
        std::vector<double> w = leaf.weights;
        w.resize(leaf.candidates.size(), 1.0);
        const int k = std::min<int>(params_.initial_actions, static_cast<int>(leaf.candidates.size()));
        for (int i = 0; i < k; ++i) {
            double total = 0.0;
            for (double x : w) total += x;
            if (total <= 0.0) break;
            double u = rng_.uniform() * total;
            std::size_t pick = 0;
            for (; pick + 1 < w.size(); ++pick) {
                u -= w[pick];
                if (u < 0.0) break;
            }
            chosen.push_back(leaf.candidates[pick]);
            w[pick] = 0.0;
        }
        std::reverse(chosen.begin(), chosen.end());
        return chosen;
    }

    int select(const Node& node) const {
        double total_w = 0.0;
        for (const auto& e : node.edges) total_w += e.kn;
        const double log_total = std::log(std::max(total_w, 1.0));
        int best = 0;
        double best_score = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < node.edges.size(); ++i) {
            const Edge& e = node.edges[i];
            const double score = e.kn <= 0.0 ? std::numeric_limits<double>::infinity()
                                              : e.kv / e.kn + params_.c_ucb * std::sqrt(log_total / e.kn);
            if (score > best_score) {
                best_score = score;
                best = static_cast<int>(i);
            }
        }
        return best;
    }

    double density(const Node& node, const Target& a) const {
        double w = 0.0;
        for (const auto& e : node.edges) w += kernel(a, e.action) * e.n;
        return w;
    }

    Target widen_near(const Node& node, const Target& around) {
        Target best = around;
        double best_w = std::numeric_limits<double>::infinity();
        for (int i = 0; i < params_.new_action_samples; ++i) {
            Target t{around.x + params_.new_action_scale * params_.sigma_x * normal(rng_),
                     around.y + params_.new_action_scale * params_.sigma_y * normal(rng_), around.spin};
            const double w = density(node, t);
            if (w < best_w) {
                best_w = w;
                best = t;
            }
        }
        return best;
    }

    // Adds an edge for `action` at node `index` and a node for its successor; returns the edge.
    int add_edge(int index, const Target& action) {
        Edge edge;
        edge.action = action;
        for (const auto& e : nodes_[index].edges) {
            const double k = kernel(action, e.action);
            edge.kn += k * e.n;
            edge.kv += k * e.value_sum;
        }
        GameState next = nodes_[index].state;
        next.apply_no_end(target_to_shot(action, next.rules().physics.model));
        edge.child = make_node(next, nodes_[index].depth + 1);
        nodes_[index].edges.push_back(edge);
        return static_cast<int>(nodes_[index].edges.size()) - 1;
    }

    // `count` visits with rewards summing to `reward_sum` (for the mover) on one edge, spread to
    // every edge of the node through the kernel; count = -1 takes a virtual visit back.
    void add_visit(int index, int edge_index, double count, double reward_sum) {
        Node& node = nodes_[index];
        Edge& chosen = node.edges[edge_index];
        chosen.n += count;
        chosen.value_sum += reward_sum;
        const Target action = chosen.action;
        for (auto& e : node.edges) {
            const double k = kernel(e.action, action);
            e.kn += k * count;
            e.kv += k * reward_sum;
        }
        node.total_n += count;
    }

    void backup(int index, int edge_index, double value_team0) {
        const double reward = nodes_[index].state.to_move() == 0 ? value_team0 : -value_team0;
        add_visit(index, edge_index, 1.0, reward);
    }

    // Picks the edge to follow from a node with no pending action: an existing edge while the
    // node is narrow enough, else a new action near the selected one. Returns (edge, is_new).
    std::pair<int, bool> choose_edge(int index) {
        const int selected = select(nodes_[index]);
        const double arms = static_cast<double>(nodes_[index].edges.size());
        if (nodes_[index].total_n < params_.widening * arms * arms) return {selected, false};
        const Target action = widen_near(nodes_[index], nodes_[index].edges[selected].action);
        return {add_edge(index, action), true};
    }

    // One simulation from the root: backed up at once when its leaf has a value, else left
    // waiting (with virtual visits on its path when several leaves are gathered).
    Descent descend() {
        path_.clear();
        int index = 0;
        while (true) {
            Node& node = nodes_[index];
            if (node.waiting) return Descent::kCollision;
            if (node.terminal) return finish(node.terminal_value);
            if (node.edges.empty() && node.pending.empty()) return finish(house_value_team0(node.state));
            int edge = 0;
            bool is_new = true;
            if (!node.pending.empty()) {
                const Target action = node.pending.back();
                node.pending.pop_back();
                edge = add_edge(index, action);
            } else {
                std::tie(edge, is_new) = choose_edge(index);
            }
            path_.push_back(PathStep{index, edge, 0.0});
            const int child = nodes_[index].edges[edge].child;
            if (is_new) return reach_new(child);
            index = child;
        }
    }

    Descent reach_new(int child) {
        if (!nodes_[child].waiting) return finish(nodes_[child].value);
        if (virtual_visits()) {
            for (auto& step : path_) {
                const Edge& e = nodes_[step.node].edges[step.edge];
                const double mean = e.n > 0.0 ? e.value_sum / e.n : 0.0;
                step.virtual_reward = mean - params_.virtual_loss;
                add_visit(step.node, step.edge, 1.0, step.virtual_reward);
            }
        }
        waiting_.push_back(WaitingLeaf{child, path_});
        return Descent::kWaiting;
    }

    Descent finish(double value_team0) {
        for (auto step = path_.rbegin(); step != path_.rend(); ++step) backup(step->node, step->edge, value_team0);
        return Descent::kBackedUp;
    }

    KrUctParams params_;
    bool with_evaluator_;
    InterruptPoll* interrupt_;
    Rng rng_;
    std::vector<Node> nodes_;
    std::vector<WaitingLeaf> waiting_;
    std::vector<PathStep> path_;
    std::vector<GameState> states_;
    int started_ = 0;
};

std::vector<Target> generate_shots(const GameState& state) {
    std::vector<Target> out;
    add_both_spins(out, 0.0, kTeeY);
    for (double radius : {0.6, 1.2}) {
        for (int k = 0; k < 8; ++k) {
            const double angle = kPi * k / 4.0;
            add_both_spins(out, radius * std::cos(angle), kTeeY + radius * std::sin(angle));
        }
    }
    for (double x : {-0.6, 0.0, 0.6}) add_both_spins(out, x, kGuardY);
    const PhysicsParams& physics = state.rules().physics;
    const double* speeds = physics.model == Physics::kGAT ? kHitSpeedGat : kHitSpeedFcv1;
    const int opponent = 1 - state.to_move();
    for (int i = 0; i < state.shot(); ++i) {
        const Body& b = state.stones()[i];
        if (!b.in_play || state.team_of(i) != opponent) continue;
        for (int s = 0; s < 2; ++s) {
            for (int spin : {1, -1}) {
                const Shot shot = aim_through(b.x, b.y, speeds[s], spin, physics);
                out.push_back(shot_to_target(shot, physics.model));
            }
        }
    }
    return out;
}

double house_value_team0(const GameState& state) {
    const auto score = state.house_score();
    return static_cast<double>(score[0] - score[1]);
}

Target rule_based_shot(const GameState& state, const NoiseParams& noise, int samples, std::uint64_t seed,
                       InterruptPoll* interrupt) {
    const std::vector<Target> shots = generate_shots(state);
    const double sign = state.to_move() == 0 ? 1.0 : -1.0;
    Rng rng(seed);
    Target best = shots.front();
    double best_value = -std::numeric_limits<double>::infinity();
    const Physics model = state.rules().physics.model;
    for (const Target& target : shots) {
        double total = 0.0;
        const Shot shot = target_to_shot(target, model);
        for (int k = 0; k < samples; ++k) {
            if (interrupt != nullptr) interrupt->poll();
            GameState copy = state;
            copy.apply_no_end(perturb(shot, noise, model, rng));
            total += sign * house_value_team0(copy);
        }
        if (total > best_value) {
            best_value = total;
            best = target;
        }
    }
    return best;
}

KrUctSearch::KrUctSearch(const GameState& root, const KrUctParams& params, bool with_evaluator,
                         InterruptPoll* interrupt)
    : impl_(std::make_unique<Impl>(root, params, with_evaluator, interrupt)) {}
KrUctSearch::~KrUctSearch() = default;
KrUctSearch::KrUctSearch(KrUctSearch&&) noexcept = default;
KrUctSearch& KrUctSearch::operator=(KrUctSearch&&) noexcept = default;
const std::vector<GameState>& KrUctSearch::gather() { return impl_->gather(); }
void KrUctSearch::supply(const std::vector<LeafResult>& results) { impl_->supply(results); }
bool KrUctSearch::done() const { return impl_->done(); }
KrUctResult KrUctSearch::result() const { return impl_->result(); }

namespace {

bool searchable(const GameState& root) { return root.shot() < kStonesPerEnd && !root.is_game_over(); }

}  // namespace

KrUctResult kr_uct_search(const GameState& root, const KrUctParams& params, const LeafEvaluator& evaluator,
                          InterruptPoll* interrupt) {
    if (!searchable(root)) return KrUctResult{};
    KrUctSearch search(root, params, static_cast<bool>(evaluator), interrupt);
    while (true) {
        const std::vector<GameState>& leaves = search.gather();
        if (leaves.empty()) break;
        std::vector<LeafResult> results;
        results.reserve(leaves.size());
        for (const GameState& leaf : leaves) results.push_back(evaluator(leaf));
        search.supply(results);
    }
    return search.result();
}

std::vector<KrUctResult> kr_uct_search_many(const std::vector<GameState>& roots, const std::vector<KrUctParams>& params,
                                            const BatchLeafEvaluator& evaluator, BatchStats* stats,
                                            InterruptPoll* interrupt) {
    if (roots.size() != params.size()) throw std::invalid_argument("roots and params differ in length");
    std::vector<KrUctSearch> searches;
    searches.reserve(roots.size());
    for (std::size_t i = 0; i < roots.size(); ++i) {
        KrUctParams p = params[i];
        if (!searchable(roots[i])) p.simulations = 0;
        searches.emplace_back(roots[i], p, searchable(roots[i]) && static_cast<bool>(evaluator), interrupt);
    }
    std::vector<GameState> batch;
    std::vector<std::size_t> counts(searches.size());
    while (true) {
        batch.clear();
        for (std::size_t i = 0; i < searches.size(); ++i) {
            const std::vector<GameState>& leaves = searches[i].gather();
            counts[i] = leaves.size();
            batch.insert(batch.end(), leaves.begin(), leaves.end());
        }
        if (batch.empty()) break;
        std::vector<LeafResult> results = evaluator(batch);
        if (results.size() != batch.size()) throw std::invalid_argument("the evaluator returned the wrong number of results");
        if (stats != nullptr) {
            ++stats->calls;
            stats->leaves += static_cast<long long>(batch.size());
            stats->max_batch = std::max(stats->max_batch, static_cast<int>(batch.size()));
        }
        auto next = results.begin();
        for (std::size_t i = 0; i < searches.size(); ++i) {
            if (counts[i] == 0) continue;
            const auto stop = next + static_cast<std::ptrdiff_t>(counts[i]);
            searches[i].supply(std::vector<LeafResult>(next, stop));
            next = stop;
        }
    }
    std::vector<KrUctResult> out;
    out.reserve(searches.size());
    for (std::size_t i = 0; i < searches.size(); ++i) out.push_back(searchable(roots[i]) ? searches[i].result() : KrUctResult{});
    return out;
}

}  // namespace pyaz::curling
