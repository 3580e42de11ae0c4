#include "search/kr_uct.h"

#include <algorithm>
#include <cmath>
#include <limits>

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
    double terminal_value = 0.0;  // team 0, for terminal nodes
};

class KrUct {
public:
    KrUct(const KrUctParams& params, const LeafEvaluator& evaluator) : params_(params), evaluator_(evaluator), rng_(params.seed) {}

    KrUctResult run(const GameState& root) {
        nodes_.clear();
        make_node(root, 0);
        for (int i = 0; i < params_.simulations; ++i) visit(0);
        return result();
    }

private:
    double kernel(const Target& a, const Target& b) const {
        if (a.spin != b.spin) return 0.0;
        const double dx = (a.x - b.x) / params_.sigma_x;
        const double dy = (a.y - b.y) / params_.sigma_y;
        return std::exp(-0.5 * (dx * dx + dy * dy));
    }

    // Creates a node for `state`; returns (index, leaf value for team 0).
    std::pair<int, double> make_node(const GameState& state, int depth) {
        Node node{state, {}, {}, 0.0, depth, false, 0.0};
        double value = 0.0;
        if (state.shot() >= kStonesPerEnd || depth >= params_.max_depth) {
            node.terminal = true;
            value = house_value_team0(state);
            const bool finished = state.shot() >= kStonesPerEnd;
            if (evaluator_ && (!finished || params_.evaluate_finished_ends)) value = evaluator_(state).value_team0;
            node.terminal_value = value;
        } else if (evaluator_) {
            LeafResult leaf = evaluator_(state);
            value = leaf.value_team0;
            node.pending = draw_initial(leaf, state);
        } else {
            value = rollout_value(state);
            node.pending = generate_shots(state);
            std::reverse(node.pending.begin(), node.pending.end());
        }
        nodes_.push_back(std::move(node));
        return {static_cast<int>(nodes_.size()) - 1, value};
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

    // Adds an edge for `action` at node `index`, expands its successor; returns (edge, value).
    std::pair<int, double> add_edge(int index, const Target& action) {
        Edge edge;
        edge.action = action;
        for (const auto& e : nodes_[index].edges) {
            const double k = kernel(action, e.action);
            edge.kn += k * e.n;
            edge.kv += k * e.value_sum;
        }
        GameState next = nodes_[index].state;
        next.apply_no_end(target_to_shot(action, next.rules().physics.model));
        const auto [child, value] = make_node(next, nodes_[index].depth + 1);
        edge.child = child;
        nodes_[index].edges.push_back(edge);
        return {static_cast<int>(nodes_[index].edges.size()) - 1, value};
    }

    void backup(int index, int edge_index, double value_team0) {
        Node& node = nodes_[index];
        const double reward = node.state.to_move() == 0 ? value_team0 : -value_team0;
        Edge& chosen = node.edges[edge_index];
        chosen.n += 1.0;
        chosen.value_sum += reward;
        const Target action = chosen.action;
        for (auto& e : node.edges) {
            const double k = kernel(e.action, action);
            e.kn += k;
            e.kv += k * reward;
        }
        node.total_n += 1.0;
    }

    // One simulation through node `index`; returns the value for team 0.
    double visit(int index) {
        if (nodes_[index].terminal) return nodes_[index].terminal_value;
        if (!nodes_[index].pending.empty()) {
            const Target action = nodes_[index].pending.back();
            nodes_[index].pending.pop_back();
            const auto [edge, value] = add_edge(index, action);
            backup(index, edge, value);
            return value;
        }
        if (nodes_[index].edges.empty()) return house_value_team0(nodes_[index].state);
        const int selected = select(nodes_[index]);
        const double arms = static_cast<double>(nodes_[index].edges.size());
        if (nodes_[index].total_n < params_.widening * arms * arms) {
            const double value = visit(nodes_[index].edges[selected].child);
            backup(index, selected, value);
            return value;
        }
        const Target action = widen_near(nodes_[index], nodes_[index].edges[selected].action);
        const auto [edge, value] = add_edge(index, action);
        backup(index, edge, value);
        return value;
    }

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

    KrUctParams params_;
    const LeafEvaluator& evaluator_;
    Rng rng_;
    std::vector<Node> nodes_;
};

}  // namespace

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

Target rule_based_shot(const GameState& state, const NoiseParams& noise, int samples, std::uint64_t seed) {
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

KrUctResult kr_uct_search(const GameState& root, const KrUctParams& params, const LeafEvaluator& evaluator) {
    if (root.shot() >= kStonesPerEnd || root.is_game_over()) return KrUctResult{};
    KrUct search(params, evaluator);
    return search.run(root);
}

}  // namespace pyaz::curling
