// Python bindings of digital curling: the simulator, shot conversion, noise, game state and the
// batch API that simulates many shots in C++ and returns numpy arrays.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "bindings/signals.h"
#include "games/common.h"
#include "games/curling.h"
#include "search/kr_uct.h"

namespace py = pybind11;

namespace pyaz {
namespace {

using curling::GameState;
using curling::Shot;

// Limits of the values the bindings accept (far beyond any real throw or position, close enough
// that no simulation is asked to integrate nonsense such as 1e30 m/s).
constexpr double kMaxShotSpeed = 100.0;  // m/s, per component (GAT units reach 40)
constexpr double kMaxCoordinate = 1000.0;  // m, from the sheet's origin
constexpr double kMaxSigma = 100.0;

void check_spin(int spin, const std::string& what) {
    if (spin != 1 && spin != -1) fail(what + " spin must be 1 or -1, got " + std::to_string(spin));
}

// ValueError naming the component unless the shot is a finite throw with spin +-1.
const Shot& checked(const Shot& shot) {
    check_range(shot.vx, -kMaxShotSpeed, kMaxShotSpeed, "shot vx", "a finite speed within +-100 m/s");
    check_range(shot.vy, -kMaxShotSpeed, kMaxShotSpeed, "shot vy", "a finite speed within +-100 m/s");
    check_spin(shot.spin, "shot");
    return shot;
}

const curling::Target& checked(const curling::Target& target) {
    check_range(target.x, -kMaxCoordinate, kMaxCoordinate, "target x", "a finite coordinate within +-1000 m");
    check_range(target.y, -kMaxCoordinate, kMaxCoordinate, "target y", "a finite coordinate within +-1000 m");
    check_spin(target.spin, "target");
    return target;
}

const curling::NoiseParams& checked(const curling::NoiseParams& noise) {
    check_range(noise.sigma_x, 0, kMaxSigma, "noise sigma_x", "a finite number in [0, 100]");
    check_range(noise.sigma_y, 0, kMaxSigma, "noise sigma_y", "a finite number in [0, 100]");
    check_range(noise.sigma_speed, 0, kMaxSigma, "noise sigma_speed", "a finite number in [0, 100]");
    check_range(noise.sigma_angle, 0, kMaxSigma, "noise sigma_angle", "a finite number in [0, 100]");
    return noise;
}

void check_body(const double* row, std::size_t index) {
    static const char* const names[] = {"x", "y", "vx", "vy", "omega"};
    for (int k = 0; k < 5; ++k) {
        const double limit = k < 2 ? kMaxCoordinate : kMaxShotSpeed * (k == 4 ? 10 : 1);
        check_range(row[k], -limit, limit, "stone " + std::to_string(index) + " " + names[k],
                    "finite and within +-" + number_text(limit));
    }
}

py::array_t<double> stone_array(const GameState& state) {
    py::array_t<double> out({curling::kStonesPerEnd, 3});
    auto view = out.mutable_unchecked<2>();
    for (int i = 0; i < curling::kStonesPerEnd; ++i) {
        const auto& b = state.stones()[i];
        view(i, 0) = b.x;
        view(i, 1) = b.y;
        view(i, 2) = b.in_play ? 1.0 : 0.0;
    }
    return out;
}

// Throws every row of shots (vx, vy, spin) from copies of state; noise draws are seeded by
// seed + row, so a batch is reproducible and independent of its size.
py::tuple simulate_batch(const GameState& state, const py::array_t<double, py::array::c_style | py::array::forcecast>& shots,
                         const curling::NoiseParams& noise, std::uint64_t seed) {
    if (shots.ndim() != 2 || shots.shape(1) != 3) throw py::value_error("shots must have shape (N, 3): vx, vy, spin");
    if (state.shot() >= curling::kStonesPerEnd) throw py::value_error("the end is over");
    const auto n = static_cast<std::size_t>(shots.shape(0));
    std::vector<double> input(shots.data(), shots.data() + shots.size());
    checked(noise);
    for (std::size_t k = 0; k < n; ++k) {
        try {
            checked(Shot{input[3 * k], input[3 * k + 1], 1});
            if (std::isnan(input[3 * k + 2])) fail("spin (its sign) must be a number, got nan");
        } catch (const std::invalid_argument& error) {
            fail("shots row " + std::to_string(k) + ": " + error.what());
        }
    }
    py::array_t<double> positions({static_cast<py::ssize_t>(n), py::ssize_t(curling::kStonesPerEnd), py::ssize_t(2)});
    py::array_t<bool> in_play({static_cast<py::ssize_t>(n), py::ssize_t(curling::kStonesPerEnd)});
    py::array_t<bool> fouls(static_cast<py::ssize_t>(n));
    double* pos = positions.mutable_data();
    bool* play = in_play.mutable_data();
    bool* foul = fouls.mutable_data();
    interruptible([&](InterruptPoll* interrupt) {
        for (std::size_t k = 0; k < n; ++k) {
            interrupt->poll();
            GameState copy = state;
            Rng rng(seed + k);
            Shot shot{input[3 * k], input[3 * k + 1], input[3 * k + 2] >= 0.0 ? 1 : -1};
            shot = curling::perturb(shot, noise, state.rules().physics.model, rng);
            foul[k] = copy.apply_no_end(shot);
            for (int i = 0; i < curling::kStonesPerEnd; ++i) {
                const auto& b = copy.stones()[i];
                pos[(k * curling::kStonesPerEnd + i) * 2] = b.x;
                pos[(k * curling::kStonesPerEnd + i) * 2 + 1] = b.y;
                play[k * curling::kStonesPerEnd + i] = b.in_play;
            }
        }
    });
    return py::make_tuple(positions, in_play, fouls);
}

void bind_types(py::module_& m) {
    py::enum_<curling::Physics>(m, "Physics")
        .value("FCV1", curling::Physics::kFCV1)
        .value("GAT", curling::Physics::kGAT);
    py::enum_<curling::Noise>(m, "Noise")
        .value("NONE", curling::Noise::kNone)
        .value("GAT", curling::Noise::kGAT)
        .value("DC3", curling::Noise::kDC3);
    py::class_<Shot>(m, "Shot")
        .def(py::init([](double vx, double vy, int spin) { return checked(Shot{vx, vy, spin}); }), py::arg("vx"),
             py::arg("vy"), py::arg("spin") = 1)
        .def_readwrite("vx", &Shot::vx)
        .def_readwrite("vy", &Shot::vy)
        .def_readwrite("spin", &Shot::spin)
        .def("__repr__", [](const Shot& s) {
            return "Shot(vx=" + std::to_string(s.vx) + ", vy=" + std::to_string(s.vy) + ", spin=" + std::to_string(s.spin) + ")";
        });
    py::class_<curling::Target>(m, "Target")
        .def(py::init([](double x, double y, int spin) { return checked(curling::Target{x, y, spin}); }), py::arg("x"),
             py::arg("y"), py::arg("spin") = 1)
        .def_readwrite("x", &curling::Target::x)
        .def_readwrite("y", &curling::Target::y)
        .def_readwrite("spin", &curling::Target::spin)
        .def("__repr__", [](const curling::Target& t) {
            return "Target(x=" + std::to_string(t.x) + ", y=" + std::to_string(t.y) + ", spin=" + std::to_string(t.spin) + ")";
        });
    py::class_<curling::PhysicsParams>(m, "PhysicsParams")
        .def(py::init<>())
        .def_static("fcv1", &curling::PhysicsParams::fcv1)
        .def_static("gat", &curling::PhysicsParams::gat)
        .def_readwrite("model", &curling::PhysicsParams::model)
        .def_readwrite("stone_friction", &curling::PhysicsParams::stone_friction)
        .def_readwrite("restitution", &curling::PhysicsParams::restitution)
        .def_readwrite("max_step", &curling::PhysicsParams::max_step);
    py::class_<curling::NoiseParams>(m, "NoiseParams")
        .def(py::init<>())
        .def(py::init([](curling::Noise model) {
                 curling::NoiseParams p;
                 p.model = model;
                 return p;
             }),
             py::arg("model"))
        .def_readwrite("model", &curling::NoiseParams::model)
        .def_readwrite("sigma_x", &curling::NoiseParams::sigma_x)
        .def_readwrite("sigma_y", &curling::NoiseParams::sigma_y)
        .def_readwrite("sigma_speed", &curling::NoiseParams::sigma_speed)
        .def_readwrite("sigma_angle", &curling::NoiseParams::sigma_angle);
    py::class_<curling::Rules>(m, "Rules")
        .def(py::init<>())
        .def_readwrite("num_ends", &curling::Rules::num_ends)
        .def_readwrite("fgz_shots", &curling::Rules::fgz_shots)
        .def_readwrite("extra_ends", &curling::Rules::extra_ends)
        .def_readwrite("physics", &curling::Rules::physics);
}

void bind_functions(py::module_& m) {
    m.def(
        "simulate_stones",
        [](const py::array_t<double, py::array::c_style | py::array::forcecast>& bodies,
           const curling::PhysicsParams& params) {
            if (bodies.ndim() != 2 || bodies.shape(1) != 5 || bodies.shape(0) > curling::kStonesPerEnd) {
                throw py::value_error("bodies must have shape (n <= 16, 5): x, y, vx, vy, omega");
            }
            std::array<curling::Body, curling::kStonesPerEnd> stones{};
            const auto n = bodies.shape(0);
            for (py::ssize_t i = 0; i < n; ++i) check_body(bodies.data() + 5 * i, static_cast<std::size_t>(i));
            auto in = bodies.unchecked<2>();
            for (py::ssize_t i = 0; i < n; ++i) stones[i] = curling::Body{in(i, 0), in(i, 1), in(i, 2), in(i, 3), in(i, 4), true};
            curling::SimStats stats;
            {
                py::gil_scoped_release release;
                stats = curling::simulate(stones, params);
            }
            py::array_t<double> out({n, py::ssize_t(6)});
            auto view = out.mutable_unchecked<2>();
            for (py::ssize_t i = 0; i < n; ++i) {
                const auto& b = stones[i];
                view(i, 0) = b.x;
                view(i, 1) = b.y;
                view(i, 2) = b.vx;
                view(i, 3) = b.vy;
                view(i, 4) = b.omega;
                view(i, 5) = b.in_play ? 1.0 : 0.0;
            }
            return py::make_tuple(out, stats.steps, stats.collisions, stats.time);
        },
        py::arg("bodies"), py::arg_v("params", curling::PhysicsParams{}, "PhysicsParams()"),
        "Simulate free stones (rows x, y, vx, vy, omega) to rest with side/back-line removal; returns "
        "(rows x, y, vx, vy, omega, in_play; steps; collisions; time).");
    m.def(
        "collide",
        [](std::array<double, 5> a, std::array<double, 5> b, const curling::PhysicsParams& params) {
            check_body(a.data(), 0);
            check_body(b.data(), 1);
            curling::Body ba{a[0], a[1], a[2], a[3], a[4], true};
            curling::Body bb{b[0], b[1], b[2], b[3], b[4], true};
            const bool hit = curling::collide(ba, bb, params);
            return py::make_tuple(hit, std::array<double, 5>{ba.x, ba.y, ba.vx, ba.vy, ba.omega},
                                  std::array<double, 5>{bb.x, bb.y, bb.vx, bb.vy, bb.omega});
        },
        py::arg("a"), py::arg("b"), py::arg_v("params", curling::PhysicsParams{}, "PhysicsParams()"),
        "One contact impulse between touching stones a, b = (x, y, vx, vy, omega): (hit, a', b').");
    m.def(
        "rest_point",
        [](const Shot& shot, const curling::PhysicsParams& params) {
            const auto b = curling::rest_point(checked(shot), params);
            return py::make_tuple(b.x, b.y);
        },
        py::arg("shot"), py::arg_v("params", curling::PhysicsParams{}, "PhysicsParams()"),
        "Rest point of a lone stone thrown from the hack on an unbounded sheet.");
    m.def(
        "target_to_shot",
        [](const curling::Target& target, curling::Physics model) { return curling::target_to_shot(checked(target), model); },
        py::arg("target"), py::arg_v("model", curling::Physics::kFCV1, "Physics.FCV1"));
    m.def(
        "shot_to_target",
        [](const Shot& shot, curling::Physics model) { return curling::shot_to_target(checked(shot), model); },
        py::arg("shot"), py::arg_v("model", curling::Physics::kFCV1, "Physics.FCV1"));
    m.def("max_speed", &curling::max_speed, py::arg_v("model", curling::Physics::kFCV1, "Physics.FCV1"));
    m.def(
        "perturb",
        [](const Shot& shot, const curling::NoiseParams& noise, curling::Physics model, std::uint64_t seed) {
            Rng rng(seed);
            return curling::perturb(checked(shot), checked(noise), model, rng);
        },
        py::arg("shot"), py::arg("noise"), py::arg_v("model", curling::Physics::kFCV1, "Physics.FCV1"), py::arg("seed") = 0);
    m.def("in_house", &curling::in_house);
    m.def("in_free_guard_zone", &curling::in_free_guard_zone);
    m.def("simulate_batch", &simulate_batch, py::arg("state"), py::arg("shots"), py::arg_v("noise", curling::NoiseParams{}, "NoiseParams()"),
          py::arg("seed") = 0,
          "Throw each row (vx, vy, spin) from a copy of state (noise seeded by seed + row); returns "
          "(positions[N, 16, 2], in_play[N, 16], fouls[N]). The end is not scored.");
}

// Wraps a Python callable(state) -> (value_team0, candidates[K, 3] or None, weights[K] or None),
// called with the GIL held (the search itself runs without it).
curling::LeafEvaluator python_leaf_evaluator(const py::object& fn) {
    if (fn.is_none()) return nullptr;
    return [fn](const GameState& state) {
        py::gil_scoped_acquire gil;
        py::tuple out = fn(state);
        curling::LeafResult leaf;
        leaf.value_team0 = out[0].cast<double>();
        if (out.size() > 1 && !out[1].is_none()) {
            auto cand = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(out[1]);
            if (!cand || cand.ndim() != 2 || cand.shape(1) != 3) throw py::value_error("candidates must have shape (K, 3)");
            auto view = cand.unchecked<2>();
            for (py::ssize_t i = 0; i < cand.shape(0); ++i) {
                leaf.candidates.push_back(curling::Target{view(i, 0), view(i, 1), view(i, 2) >= 0.0 ? 1 : -1});
            }
        }
        if (out.size() > 2 && !out[2].is_none()) leaf.weights = out[2].cast<std::vector<double>>();
        return leaf;
    };
}

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::vector<curling::Target> candidate_targets(const py::handle& value) {
    std::vector<curling::Target> out;
    if (value.is_none()) return out;
    auto cand = DoubleArray::ensure(value);
    if (!cand || cand.ndim() != 2 || cand.shape(1) != 3) throw py::value_error("candidates must have shape (K, 3)");
    auto view = cand.unchecked<2>();
    for (py::ssize_t i = 0; i < cand.shape(0); ++i) {
        out.push_back(curling::Target{view(i, 0), view(i, 1), view(i, 2) >= 0.0 ? 1 : -1});
    }
    return out;
}

// Weights [N, K] (or None) into one vector per state.
std::vector<std::vector<double>> weight_rows(const py::handle& value, std::size_t n, std::size_t k) {
    std::vector<std::vector<double>> rows(n);
    if (value.is_none()) return rows;
    auto w = DoubleArray::ensure(value);
    if (!w || w.ndim() != 2 || static_cast<std::size_t>(w.shape(0)) != n || static_cast<std::size_t>(w.shape(1)) != k) {
        throw py::value_error("weights must have shape (N, K) = (" + std::to_string(n) + ", " + std::to_string(k) + ")");
    }
    for (std::size_t i = 0; i < n; ++i) rows[i].assign(w.data(i, 0), w.data(i, 0) + k);
    return rows;
}

// Wraps a Python callable(states) -> (values[N], candidates[K, 3] or None, weights[N, K] or
// None), the candidates shared by all N states; called with the GIL held.
curling::BatchLeafEvaluator python_batch_evaluator(const py::object& fn) {
    if (fn.is_none()) return nullptr;
    return [fn](const std::vector<GameState>& states) {
        py::gil_scoped_acquire gil;
        py::list batch;
        for (const GameState& state : states) batch.append(py::cast(state));
        py::tuple out = fn(batch);
        if (out.size() != 3) throw py::value_error("the batch evaluator must return (values, candidates, weights)");
        const auto values = DoubleArray::ensure(out[0]);
        if (!values || values.ndim() != 1 || static_cast<std::size_t>(values.shape(0)) != states.size()) {
            throw py::value_error("values must have shape (N,) with N = " + std::to_string(states.size()));
        }
        const std::vector<curling::Target> candidates = candidate_targets(out[1]);
        const auto weights = weight_rows(out[2], states.size(), candidates.size());
        std::vector<curling::LeafResult> results(states.size());
        for (std::size_t i = 0; i < states.size(); ++i) {
            results[i].value_team0 = values.at(static_cast<py::ssize_t>(i));
            results[i].candidates = candidates;
            results[i].weights = weights[i];
        }
        return results;
    };
}

void check_params(const curling::KrUctParams& params) {
    if (params.simulations < 0) fail("simulations must be >= 0, got " + std::to_string(params.simulations));
    if (params.leaves_per_round < 1) fail("leaves_per_round must be >= 1, got " + std::to_string(params.leaves_per_round));
    check_range(params.virtual_loss, 0, 1e6, "virtual_loss", "a finite number >= 0");
}

void bind_search(py::module_& m) {
    py::class_<curling::KrUctParams>(m, "KrUctParams")
        .def(py::init<>())
        .def_readwrite("simulations", &curling::KrUctParams::simulations)
        .def_readwrite("c_ucb", &curling::KrUctParams::c_ucb)
        .def_readwrite("sigma_x", &curling::KrUctParams::sigma_x)
        .def_readwrite("sigma_y", &curling::KrUctParams::sigma_y)
        .def_readwrite("initial_actions", &curling::KrUctParams::initial_actions)
        .def_readwrite("widening", &curling::KrUctParams::widening)
        .def_readwrite("new_action_samples", &curling::KrUctParams::new_action_samples)
        .def_readwrite("new_action_scale", &curling::KrUctParams::new_action_scale)
        .def_readwrite("max_depth", &curling::KrUctParams::max_depth)
        .def_readwrite("evaluate_finished_ends", &curling::KrUctParams::evaluate_finished_ends)
        .def_readwrite("rollout_shots", &curling::KrUctParams::rollout_shots)
        .def_readwrite("leaves_per_round", &curling::KrUctParams::leaves_per_round)
        .def_readwrite("virtual_loss", &curling::KrUctParams::virtual_loss)
        .def_readwrite("seed", &curling::KrUctParams::seed)
        .def("__copy__", [](const curling::KrUctParams& p) { return p; })
        .def("__deepcopy__", [](const curling::KrUctParams& p, const py::dict&) { return p; }, py::arg("memo"));
    py::class_<curling::RootChild>(m, "RootChild")
        .def_readonly("action", &curling::RootChild::action)
        .def_readonly("visits", &curling::RootChild::visits)
        .def_readonly("mean", &curling::RootChild::mean)
        .def_readonly("kernel_value", &curling::RootChild::kernel_value)
        .def_readonly("kernel_visits", &curling::RootChild::kernel_visits);
    py::class_<curling::KrUctResult>(m, "KrUctResult")
        .def_readonly("best", &curling::KrUctResult::best)
        .def_readonly("children", &curling::KrUctResult::children);
    m.def(
        "kr_uct_search",
        [](const GameState& state, const curling::KrUctParams& params, const py::object& evaluator) {
            check_params(params);
            const curling::LeafEvaluator leaf = python_leaf_evaluator(evaluator);
            return interruptible(
                [&](InterruptPoll* interrupt) { return curling::kr_uct_search(state, params, leaf, interrupt); });
        },
        py::arg("state"), py::arg_v("params", curling::KrUctParams{}, "KrUctParams()"), py::arg("evaluator") = py::none(),
        "KR-UCT from state. evaluator(state) -> (value_team0, candidates[K, 3] | None, weights[K] | None); "
        "None = house score leaves and the built-in shot generator.");
    m.def(
        "kr_uct_search_many",
        [](const std::vector<GameState>& states, const std::vector<curling::KrUctParams>& params, const py::object& evaluator) {
            if (states.size() != params.size()) {
                fail("states and params must have the same length, got " + std::to_string(states.size()) + " and " +
                     std::to_string(params.size()));
            }
            for (const auto& p : params) check_params(p);
            const curling::BatchLeafEvaluator batch = python_batch_evaluator(evaluator);
            curling::BatchStats stats;
            const std::vector<curling::KrUctResult> results = interruptible([&](InterruptPoll* interrupt) {
                return curling::kr_uct_search_many(states, params, batch, &stats, interrupt);
            });
            py::dict counts;
            counts["calls"] = stats.calls;
            counts["leaves"] = stats.leaves;
            counts["max_batch"] = stats.max_batch;
            return py::make_tuple(results, counts);
        },
        py::arg("states"), py::arg("params"), py::arg("evaluator") = py::none(),
        "KR-UCT from every state at once (states[i] searched with params[i]); each round the waiting leaves of "
        "all the searches go to one call evaluator(states) -> (values[N], candidates[K, 3] | None, weights[N, K] | "
        "None), the candidates shared by the N states. Returns (results, {calls, leaves, max_batch}).");
    m.def("generate_shots", &curling::generate_shots, py::arg("state"));
    m.def("house_value_team0", &curling::house_value_team0, py::arg("state"));
    m.def(
        "rule_based_shot",
        [](const GameState& state, const curling::NoiseParams& noise, int samples, std::uint64_t seed) {
            checked(noise);
            if (samples < 1) fail("samples must be >= 1, got " + std::to_string(samples));
            return interruptible([&](InterruptPoll* interrupt) {
                return curling::rule_based_shot(state, noise, samples, seed, interrupt);
            });
        },
        py::arg("state"), py::arg_v("noise", curling::NoiseParams{}, "NoiseParams()"), py::arg("samples") = 4, py::arg("seed") = 0);
    m.def(
        "aim_through",
        [](double x, double y, double speed, int spin, const curling::PhysicsParams& params) {
            checked(curling::Target{x, y, spin});
            check_range(speed, 0, kMaxShotSpeed, "speed", "a finite speed in [0, 100] m/s");
            return curling::aim_through(x, y, speed, spin, params);
        },
        py::arg("x"), py::arg("y"), py::arg("speed"), py::arg("spin"),
          py::arg_v("params", curling::PhysicsParams{}, "PhysicsParams()"));
    m.def(
        "lateral_at",
        [](const Shot& shot, double y_line, const curling::PhysicsParams& params) {
            return curling::lateral_at(checked(shot), y_line, params);
        },
        py::arg("shot"), py::arg("y_line"), py::arg_v("params", curling::PhysicsParams{}, "PhysicsParams()"));
}

void bind_state(py::module_& m) {
    py::class_<GameState>(m, "GameState")
        .def(py::init<const curling::Rules&>(), py::arg_v("rules", curling::Rules{}, "Rules()"))
        .def_property_readonly("rules", &GameState::rules)
        .def_property("end", &GameState::end, &GameState::set_end)
        .def_property("shot", &GameState::shot, &GameState::set_shot)
        .def_property("hammer", &GameState::hammer, &GameState::set_hammer)
        .def_property_readonly("to_move", &GameState::to_move)
        .def_property_readonly("is_game_over", &GameState::is_game_over)
        .def_property_readonly("in_extra_end", &GameState::in_extra_end)
        .def("team_of", &GameState::team_of)
        .def("stones", &stone_array, "Array [16, 3] of x, y, in_play (stone i = i-th stone thrown this end).")
        .def(
            "set_stone",
            [](GameState& s, int index, double x, double y, bool in_play) {
                if (index < 0 || index >= curling::kStonesPerEnd) {
                    fail("stone index must be in 0..15, got " + std::to_string(index));
                }
                check_range(x, -kMaxCoordinate, kMaxCoordinate, "stone x", "a finite coordinate within +-1000 m");
                check_range(y, -kMaxCoordinate, kMaxCoordinate, "stone y", "a finite coordinate within +-1000 m");
                s.set_stone(index, x, y, in_play);
            },
            py::arg("index"), py::arg("x"), py::arg("y"), py::arg("in_play") = true)
        .def_property_readonly("end_scores", &GameState::end_scores)
        .def("total_score", &GameState::total_score)
        .def("house_score", &GameState::house_score, "(team 0 points, team 1 points) if the end ended now.")
        .def("apply", [](GameState& s, const Shot& shot) { return s.apply(checked(shot)); }, py::arg("shot"),
             "Throw the next stone (no noise); scores the end after its 16th stone. Returns True on a FGZ foul.")
        .def(
            "apply_noisy",
            [](GameState& s, const Shot& shot, const curling::NoiseParams& noise, std::uint64_t seed) {
                Rng rng(seed);
                return s.apply(checked(shot), checked(noise), rng);
            },
            py::arg("shot"), py::arg("noise"), py::arg("seed"))
        .def("apply_no_end", [](GameState& s, const Shot& shot) { return s.apply_no_end(checked(shot)); }, py::arg("shot"))
        .def("finish_end", &GameState::finish_end)
        .def("copy", [](const GameState& s) { return GameState(s); })
        .def("__str__", &GameState::to_string);
}

}  // namespace

void register_curling(py::module_& m) {
    py::module_ c = m.def_submodule("curling", "Digital curling: simulator, rules, shots and noise.");
    c.attr("STONE_RADIUS") = curling::kStoneRadius;
    c.attr("SHEET_HALF_WIDTH") = curling::kSheetHalfWidth;
    c.attr("HOG_LINE_Y") = curling::kHogLineY;
    c.attr("TEE_Y") = curling::kTeeY;
    c.attr("BACK_LINE_Y") = curling::kBackLineY;
    c.attr("HOUSE_RADIUS") = curling::kHouseRadius;
    bind_types(c);
    bind_state(c);  // before the functions, so that their signatures name GameState
    bind_functions(c);
    bind_search(c);
}

}  // namespace pyaz
