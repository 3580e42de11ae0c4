// Python bindings of the tree search: one Search class per game (and PythonGameSearch for a
// game written in Python, bindings/python_game.h), the C++ evaluators, and the adapter that
// calls a Python network once per batch of leaves.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bindings/args.h"
#include "bindings/bindings.h"
#include "bindings/python_game.h"
#include "bindings/signals.h"
#include "games/connect_four.h"
#include "games/go.h"
#include "games/gomoku.h"
#include "games/othello.h"
#include "games/racing_kings.h"
#include "games/tictactoe.h"
#include "search/mcts.h"
#include "search/selfplay.h"

namespace py = pybind11;

namespace pyaz {
namespace {

constexpr int kMaxThreads = 1024;                 // search or self-play threads
constexpr std::int64_t kMaxNodes = (1LL << 31) - 1;  // tree nodes are indexed by int32
constexpr std::int64_t kMaxSimulations = 1LL << 62;

// Calls fn(planes[B, C, H, W]) -> (policy_logits[B, A], values[B]) with the GIL held only for
// the call. The planes array is read-only and owns a reference to its buffer (a shared vector
// that a capsule keeps alive), so that a callable may keep it after the call, or after the
// search is gone: the buffer is reused for the next batch only when no array holds it.
template <class Game>
class PythonEvaluator : public BatchEvaluator<Game> {
public:
    explicit PythonEvaluator(py::object fn) : fn_(std::move(fn)) {}

    void evaluate(const std::vector<const Game*>& states, float* priors, float* values) override {
        const Game& first = *states.front();
        const py::ssize_t batch = static_cast<py::ssize_t>(states.size());
        const std::size_t plane_size = std::size_t(first.num_planes()) * first.height() * first.width();
        std::vector<float>& planes = writable_buffer();
        planes.resize(states.size() * plane_size);
        for (std::size_t i = 0; i < states.size(); ++i) states[i]->encode(planes.data() + i * plane_size);
        py::gil_scoped_acquire gil;
        py::object result = fn_(planes_array(first, batch));
        read_result(result, states, priors, values);
    }

private:
    using Buffer = std::shared_ptr<std::vector<float>>;

    // The planes buffer, unshared: a new one while an array from an earlier call still holds the
    // last (the holder's release of its reference, under the GIL on any thread, happens before
    // the acquire fence below, so that its last reads happen before our writes).
    std::vector<float>& writable_buffer() {
        if (!buffer_ || buffer_.use_count() > 1) buffer_ = std::make_shared<std::vector<float>>();
        std::atomic_thread_fence(std::memory_order_acquire);
        return *buffer_;
    }

    // A read-only array over the buffer whose base (a capsule) holds a reference to it.
    py::array_t<float> planes_array(const Game& first, py::ssize_t batch) const {
        auto owner = std::make_unique<Buffer>(buffer_);
        py::capsule base(owner.get(), [](void* p) { std::unique_ptr<Buffer> reclaimed(static_cast<Buffer*>(p)); });
        static_cast<void>(owner.release());  // the capsule owns it now
        py::array_t<float> planes({batch, py::ssize_t(first.num_planes()), py::ssize_t(first.height()),
                                   py::ssize_t(first.width())},
                                  buffer_->data(), base);
        py::detail::array_proxy(planes.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
        return planes;
    }

    template <class T>
    static void check_finite(const T* data, py::ssize_t count, const char* what) {
        for (py::ssize_t i = 0; i < count; ++i) {
            if (!std::isfinite(data[i])) {
                throw py::value_error(std::string("the evaluator returned a non-finite ") + what +
                                      " (NaN or infinity) at flat index " + std::to_string(i));
            }
        }
    }

    void read_result(const py::object& result, const std::vector<const Game*>& states, float* priors,
                     float* values) {
        const py::ssize_t batch = static_cast<py::ssize_t>(states.size());
        if (!py::isinstance<py::tuple>(result) && !py::isinstance<py::list>(result)) {
            throw py::type_error("the evaluator must return (policy_logits, values), got " +
                                 std::string(py::str(py::type::of(result))));
        }
        py::sequence pair = result.cast<py::sequence>();
        if (pair.size() != 2) throw py::value_error("the evaluator must return exactly (policy_logits, values)");
        check_real(pair[0], "policy_logits");
        check_real(pair[1], "values");
        // float32 logits are read as they are; any other dtype as float64, so that a finite
        // logit beyond float32's range (1e308) stays finite and the softmax handles it.
        const bool float32 = py::array::ensure(pair[0]).dtype().is(py::dtype::of<float>());
        if (float32) read_logits<float>(pair[0], states, priors);
        else read_logits<double>(pair[0], states, priors);
        auto vals = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(pair[1]);
        if (!vals) throw py::type_error("values must be a numeric array");
        if (vals.size() != batch || vals.ndim() > 2 || (vals.ndim() == 2 && vals.shape(1) != 1)) {
            throw py::value_error("values must have shape (" + std::to_string(batch) + ",), got " +
                                  shape_text(vals));
        }
        check_finite(vals.data(), vals.size(), "value");
        for (py::ssize_t i = 0; i < batch; ++i) {
            const double v = vals.data()[i];
            if (v < -1.0001 || v > 1.0001) {
                throw py::value_error("values must lie in [-1, 1], got " + number_text(v) + " in row " +
                                      std::to_string(i));
            }
            values[i] = static_cast<float>(std::max(-1.0, std::min(1.0, v)));
        }
    }

    template <class T>
    static void read_logits(const py::handle& data, const std::vector<const Game*>& states, float* priors) {
        const py::ssize_t batch = static_cast<py::ssize_t>(states.size());
        const int num_actions = states.front()->num_actions();
        auto logits = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(data);
        if (!logits) throw py::type_error("policy_logits must be a numeric array");
        if (logits.ndim() != 2 || logits.shape(0) != batch || logits.shape(1) != num_actions) {
            throw py::value_error("policy_logits must have shape (" + std::to_string(batch) + ", " +
                                  std::to_string(num_actions) + "), got " + shape_text(logits));
        }
        check_finite(logits.data(), logits.size(), "policy logit");
        for (py::ssize_t i = 0; i < batch; ++i) {
            softmax_over_legal(*states[i], logits.data() + i * num_actions, priors + i * num_actions);
        }
    }

    // TypeError unless `data` converts to an array of real numbers (not complex, str or objects).
    static void check_real(const py::handle& data, const char* what) {
        const py::array array = py::array::ensure(data);
        const char kind = array ? array.dtype().kind() : 'O';
        if (kind != 'f' && kind != 'i' && kind != 'u' && kind != 'b') {
            throw py::type_error(std::string(what) + " must be an array of real numbers, got " +
                                 std::string(py::repr(array ? py::object(array.dtype()) : py::type::of(data))));
        }
    }

    // exp(logit - max) over the legal actions, in double: finite logits give weights in [0, 1].
    template <class T>
    static void softmax_over_legal(const Game& state, const T* logits, float* priors) {
        ActionList<Game::kMaxActions> actions;
        state.legal_actions(actions);
        double top = -std::numeric_limits<double>::infinity();
        for (Action a : actions) top = std::max(top, static_cast<double>(logits[a]));
        for (Action a : actions) priors[a] = static_cast<float>(std::exp(static_cast<double>(logits[a]) - top));
    }

    static std::string shape_text(const py::array& a) {
        std::string text = "(";
        for (py::ssize_t d = 0; d < a.ndim(); ++d) text += (d ? ", " : "") + std::to_string(a.shape(d));
        return text + (a.ndim() == 1 ? ",)" : ")");
    }

    py::object fn_;
    Buffer buffer_;
};

SearchParams params_from_kwargs(const py::kwargs& kwargs) {
    SearchParams p;
    for (const auto& item : kwargs) {
        const std::string key = item.first.cast<std::string>();
        const py::handle value = item.second;
        if (key == "rule") {
            const std::string rule = args::text(value, "rule");
            if (rule == "puct") p.rule = SelectionRule::kPuct;
            else if (rule == "uct" || rule == "ucb1") p.rule = SelectionRule::kUcb1;
            else if (rule == "gumbel") p.rule = SelectionRule::kGumbel;
            else throw py::value_error("rule must be 'puct', 'uct' or 'gumbel', got '" + rule + "'");
        } else if (key == "c_puct") p.c_puct = args::real(value, key);
        else if (key == "c_uct") p.c_uct = args::real(value, key);
        else if (key == "dirichlet_alpha") p.dirichlet_alpha = args::real(value, key);
        else if (key == "dirichlet_epsilon") p.dirichlet_epsilon = args::real(value, key);
        else if (key == "fpu_value") p.fpu_value = args::real(value, key);
        else if (key == "fpu_relative") p.fpu_relative = args::boolean(value, key);
        else if (key == "draw_value") p.draw_value = args::real(value, key);
        else if (key == "virtual_loss") p.virtual_loss = args::real(value, key);
        else if (key == "value_decay") p.value_decay = args::real(value, key);
        else if (key == "threads") p.threads = args::integer<int>(value, key, 1, kMaxThreads);
        else if (key == "batch_size") p.batch_size = args::integer<int>(value, key, 1);
        else if (key == "max_nodes") p.max_nodes = args::integer<std::int64_t>(value, key, 2, kMaxNodes);
        else if (key == "seed") p.seed = args::integer<std::uint64_t>(value, key);
        else if (key == "solver") p.solver = args::boolean(value, key);
        else if (key == "gumbel_actions") p.gumbel_actions = args::integer<int>(value, key, 1, 1 << 20);
        else if (key == "gumbel_c_visit") p.gumbel_c_visit = args::real(value, key);
        else if (key == "gumbel_c_scale") p.gumbel_c_scale = args::real(value, key);
        else if (key == "gumbel_noise") p.gumbel_noise = args::boolean(value, key);
        else if (key == "forced_playouts") p.forced_playouts = args::boolean(value, key);
        else if (key == "forced_playouts_k") p.forced_playouts_k = args::real(value, key);
        else if (key == "rollout_mix") p.rollout_mix = args::real(value, key);
        else throw py::type_error("unknown search option '" + key + "'");
    }
    check_search_params(p);
    return p;
}

template <class Game>
std::unique_ptr<BatchEvaluator<Game>> make_evaluator(const py::object& evaluator, const SearchParams& params,
                                                    std::uint64_t seed) {
    if (py::isinstance<py::str>(evaluator)) {
        const std::string name = evaluator.cast<std::string>();
        if (name == "uniform") return std::make_unique<UniformEvaluator<Game>>();
        if (name == "rollout") return std::make_unique<RolloutEvaluator<Game>>(params.draw_value, seed);
        throw py::value_error("evaluator must be 'uniform', 'rollout' or a callable, got '" + name + "'");
    }
    if (PyCallable_Check(evaluator.ptr())) return std::make_unique<PythonEvaluator<Game>>(evaluator);
    throw py::type_error("evaluator must be 'uniform', 'rollout' or a callable fn(planes) -> (logits, values)");
}

template <class Game>
void run_search(Search<Game>& search, const args::IndexArg& simulations, const py::object& evaluator) {
    const auto count = args::integer<std::int64_t>(simulations.value, "simulations", 0, kMaxSimulations);
    auto owned = make_evaluator<Game>(evaluator, search.params(), search.next_stream_seed());
    InterruptPoll interrupt = python_signal_poll();
    py::gil_scoped_release release;
    search.run(count, *owned, &interrupt);
}

// The poll of a run over a Python game: it stops the run as soon as the game has recorded an
// error (python_game.h), and checks for signals as python_signal_poll does.
InterruptPoll python_game_poll(const std::shared_ptr<PythonGameContext>& game) {
    constexpr auto kSignalPeriod = std::chrono::milliseconds(20);
    auto next_signal_check = std::chrono::steady_clock::now() + kSignalPeriod;
    return InterruptPoll(
        [game, next_signal_check, kSignalPeriod]() mutable {
            if (game->failed()) throw std::runtime_error("the game raised an error");  // replaced by it
            const auto now = std::chrono::steady_clock::now();
            if (now < next_signal_check) return;
            next_signal_check = now + kSignalPeriod;
            py::gil_scoped_acquire gil;
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
        },
        std::chrono::milliseconds(0));
}

// Runs work(&poll) without the GIL and with `game`'s errors deferred. Returns the error the
// game recorded (null if none), which stopped the work (what the work threw then is dropped);
// rethrows what the work threw otherwise.
template <class Work>
std::exception_ptr run_deferring(const std::shared_ptr<PythonGameContext>& game, Work&& work) {
    InterruptPoll interrupt = python_game_poll(game);
    {
        const PythonGameContext::Deferral deferral(*game);
        py::gil_scoped_release release;
        try {
            work(&interrupt);
        } catch (...) {
            if (!game->failed()) throw;
        }
    }
    return game->take_failure();
}

// A run over a Python game: its errors stop the run and reach the caller as they were raised;
// the tree is then cleared (the root kept), since the states the error cut short stand in it
// as finished games.
template <>
void run_search<PythonGame>(Search<PythonGame>& search, const args::IndexArg& simulations,
                            const py::object& evaluator) {
    const auto count = args::integer<std::int64_t>(simulations.value, "simulations", 0, kMaxSimulations);
    auto owned = make_evaluator<PythonGame>(evaluator, search.params(), search.next_stream_seed());
    const std::exception_ptr error = run_deferring(
        search.root_state().context(), [&](InterruptPoll* interrupt) { search.run(count, *owned, interrupt); });
    if (error) {
        search.set_root(search.root_state());
        std::rethrow_exception(error);
    }
}

template <class T>
py::array_t<T> vector_array(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
    return py::array_t<T>(shape, v.data());
}

// The progress callback of SelfPlay::play: on_game_end(games_done) unless it is None.
auto game_end_callback(const py::object& on_game_end) {
    return [&on_game_end](std::int64_t games_done) {
        if (on_game_end.is_none()) return;
        py::gil_scoped_acquire gil;
        on_game_end(games_done);
    };
}

// The records as a dict of numpy arrays (see pyaz.SelfPlay).
template <class Game>
py::dict records_dict(const SelfPlayRecords& r, const Game& start) {
    const py::ssize_t n = static_cast<py::ssize_t>(r.player.size());
    const py::ssize_t g = static_cast<py::ssize_t>(r.game_status.size());
    py::dict out;
    out["planes"] = vector_array(r.planes, {n, start.num_planes(), start.height(), start.width()});
    out["policy"] = vector_array(r.policy, {n, start.num_actions()});
    out["outcome"] = vector_array(r.outcome, {n});
    out["root_value"] = vector_array(r.root_value, {n});
    out["score"] = vector_array(r.score, {n});
    out["player"] = vector_array(r.player, {n});
    out["ply"] = vector_array(r.ply, {n});
    out["plies_to_end"] = vector_array(r.plies_to_end, {n});
    out["game_id"] = vector_array(r.game_id, {n});
    out["game_status"] = vector_array(r.game_status, {g});
    out["game_length"] = vector_array(r.game_length, {g});
    out["game_opening"] = vector_array(r.game_opening, {g});
    out["evaluator_calls"] = r.evaluator_calls;
    out["evaluated_leaves"] = r.evaluated_leaves;
    out["full_searches"] = r.full_searches;
    out["cheap_searches"] = r.cheap_searches;
    return out;
}

// Plays self-play games; returns a dict of numpy arrays (see pyaz.SelfPlay).
template <class Game>
py::dict play_self_play(const Game& start, const SelfPlayConfig& config, const py::object& evaluator,
                        const py::object& on_game_end) {
    auto owned = make_evaluator<Game>(evaluator, config.search, config.seed + 1);
    SelfPlay<Game> driver(start, config);
    SelfPlayRecords r;
    InterruptPoll interrupt = python_signal_poll();
    {
        py::gil_scoped_release release;
        r = driver.play(*owned, game_end_callback(on_game_end), &interrupt);
    }
    return records_dict(r, start);
}

// Self-play over a Python game: its errors stop the games and reach the caller as raised.
template <>
py::dict play_self_play<PythonGame>(const PythonGame& start, const SelfPlayConfig& config,
                                    const py::object& evaluator, const py::object& on_game_end) {
    auto owned = make_evaluator<PythonGame>(evaluator, config.search, config.seed + 1);
    SelfPlay<PythonGame> driver(start, config);
    SelfPlayRecords r;
    const std::exception_ptr error = run_deferring(start.context(), [&](InterruptPoll* interrupt) {
        r = driver.play(*owned, game_end_callback(on_game_end), interrupt);
    });
    if (error) std::rethrow_exception(error);
    return records_dict(r, start);
}

SelfPlayConfig self_play_config(const py::kwargs& kwargs) {
    SelfPlayConfig config;
    py::kwargs search_options;
    for (const auto& item : kwargs) {
        const std::string key = item.first.cast<std::string>();
        const py::handle value = item.second;
        if (key == "games") config.games = args::integer<std::int64_t>(value, key, 1, 1LL << 31);
        else if (key == "parallel_games") config.parallel_games = args::integer<int>(value, key, 1, 1 << 20);
        else if (key == "simulations") config.simulations = args::integer<int>(value, key, 1, 1 << 30);
        else if (key == "leaves_per_game") config.leaves_per_game = args::integer<int>(value, key, 1, 1 << 20);
        else if (key == "sampling_plies") config.sampling_plies = args::integer<int>(value, key);
        else if (key == "temperature") config.temperature = args::real(value, key);
        else if (key == "random_opening_plies") config.random_opening_plies = args::integer<int>(value, key, 0);
        else if (key == "random_opening_spread") config.random_opening_spread = args::boolean(value, key);
        else if (key == "opening_rollback_plies") config.opening_rollback_plies = args::integer<int>(value, key, -1);
        else if (key == "threads") config.threads = args::integer<int>(value, key, 1, kMaxThreads);
        else if (key == "seed") config.seed = args::integer<std::uint64_t>(value, key);
        else if (key == "full_search_prob") config.full_search_prob = args::real(value, key);
        else if (key == "cheap_simulations") config.cheap_simulations = args::integer<int>(value, key, 0, 1 << 30);
        else search_options[item.first] = item.second;
    }
    // Self-play draws Gumbel noise unless told otherwise (rule "gumbel" only).
    if (!search_options.contains("gumbel_noise")) search_options["gumbel_noise"] = true;
    config.search = params_from_kwargs(search_options);
    config.search.seed = config.seed;
    return config;
}

template <class Game>
py::array_t<float> to_array(const std::vector<float>& v) {
    return py::array_t<float>(static_cast<py::ssize_t>(v.size()), v.data());
}

template <class Game>
void bind_search(py::module_& m, const char* name) {
    py::class_<Search<Game>>(m, name)
        .def(py::init([](const Game& state, const py::kwargs& kwargs) {
                 return std::make_unique<Search<Game>>(state, params_from_kwargs(kwargs));
             }),
             py::arg("state"))
        .def("run", &run_search<Game>, py::arg("simulations"), py::arg("evaluator") = "uniform")
        .def(
            "advance",
            [](Search<Game>& s, const args::IndexArg& action) {
                s.advance(args::integer<Action>(action.value, "action"));
            },
            py::arg("action"))
        .def("set_root", &Search<Game>::set_root, py::arg("state"))
        .def_property_readonly("root_state", &Search<Game>::root_state)
        .def_property_readonly("tree_size", &Search<Game>::tree_size)
        .def_property_readonly("tree_full", &Search<Game>::tree_full)
        .def_property_readonly("collisions", &Search<Game>::collisions)
        .def_property_readonly("root_visits", &Search<Game>::root_visits)
        .def_property_readonly("root_value", &Search<Game>::root_value)
        .def(
            "proven_value",
            [](const Search<Game>& s) -> std::optional<int> {
                const int value = s.proven_value();
                return value == 2 ? std::nullopt : std::optional<int>(value);
            },
            "The solver's proven result of the root for the player to move: 1, 0, -1 or None.")
        .def_property_readonly("pending_visits", &Search<Game>::pending_visits)
        .def("visit_counts",
             [](const Search<Game>& s) {
                 const auto counts = s.visit_counts();
                 return py::array_t<std::int32_t>(static_cast<py::ssize_t>(counts.size()), counts.data());
             })
        .def(
            "principal_variation",
            [](const Search<Game>& s, int max_depth) {
                if (max_depth < 0) throw py::value_error("max_depth must be >= 0, got " + std::to_string(max_depth));
                return s.principal_variation(max_depth);
            },
            py::arg("max_depth"),
            "The most visited line from the root (each expanded node's most visited child), at most "
            "max_depth moves.")
        .def("q_values", [](const Search<Game>& s) { return to_array<Game>(s.q_values()); })
        .def("priors", [](const Search<Game>& s) { return to_array<Game>(s.priors()); })
        .def("improved_policy", [](const Search<Game>& s) { return to_array<Game>(s.improved_policy()); },
             "Gumbel's improved policy softmax(logits + sigma(completed Q)) over the root's actions.")
        .def("policy_target", [](const Search<Game>& s) { return to_array<Game>(s.policy_target()); },
             "The policy target self-play records for the root.")
        .def(
            "pruned_visit_counts",
            [](const Search<Game>& s) {
                const auto counts = s.pruned_visit_counts();
                return py::array_t<std::int32_t>(static_cast<py::ssize_t>(counts.size()), counts.data());
            },
            "The root's visit counts after KataGo's policy target pruning (forced playouts).")
        .def(
            "policy",
            [](const Search<Game>& s, const args::RealArg& t) {
                return to_array<Game>(s.policy(args::real(t.value, "temperature")));
            },
            py::arg("temperature") = 1.0)
        .def(
            "choose_action",
            [](const Search<Game>& s, const args::RealArg& t, const args::IndexArg& seed) {
                Rng rng(args::integer<std::uint64_t>(seed.value, "seed"));
                return s.choose_action(args::real(t.value, "temperature"), rng);
            },
            py::arg("temperature") = 0.0, py::arg("seed") = 0);
}

}  // namespace

// The checked self-play settings for `start`: every option in range, and a tree of max_nodes
// (by default enough for one move's tree plus the subtree kept from the last move) that fits.
template <class Game>
SelfPlayConfig self_play_setup(const Game& start, const py::kwargs& kwargs) {
    SelfPlayConfig config = self_play_config(kwargs);
    if (!kwargs.contains("max_nodes")) {
        const std::int64_t per_simulation = 2LL * start.num_actions();
        const std::int64_t most = kMaxNodes / per_simulation - 1;
        if (config.simulations > most) {
            fail("simulations must be at most " + std::to_string(most) + " for " + std::string(Game::kName) +
                 " self-play with the default tree of 2 * (simulations + 1) * " +
                 std::to_string(start.num_actions()) + " nodes (at most 2^31 - 1; give max_nodes to run "
                 "more), got " + std::to_string(config.simulations));
        }
        config.search.max_nodes = std::max<std::int64_t>(4096, per_simulation * (config.simulations + 1));
    }
    SelfPlay<Game> checked(start, config);  // checks the rest
    return config;
}

template <class Game>
void bind_self_play(py::module_& m) {
    m.def(
        "self_play",
        [](const Game& start, const py::object& evaluator, const py::object& on_game_end,
           const py::kwargs& kwargs) {
            return play_self_play(start, self_play_setup(start, kwargs), evaluator, on_game_end);
        },
        py::arg("start"), py::arg("evaluator"), py::arg("on_game_end") = py::none());
    m.def(
        "check_self_play",
        [](const Game& start, const py::kwargs& kwargs) { static_cast<void>(self_play_setup(start, kwargs)); },
        py::arg("start"),
        "Checks self-play options for `start` as self_play() does (ValueError or TypeError naming "
        "the option), without playing.");
}

namespace {

py::dict search_defaults() {
    const SearchParams p;
    py::dict d;
    d["rule"] = p.rule == SelectionRule::kPuct ? "puct" : p.rule == SelectionRule::kUcb1 ? "uct" : "gumbel";
    d["c_puct"] = p.c_puct;
    d["c_uct"] = p.c_uct;
    d["dirichlet_alpha"] = p.dirichlet_alpha;
    d["dirichlet_epsilon"] = p.dirichlet_epsilon;
    d["fpu_value"] = p.fpu_value;
    d["fpu_relative"] = p.fpu_relative;
    d["draw_value"] = p.draw_value;
    d["virtual_loss"] = p.virtual_loss;
    d["value_decay"] = p.value_decay;
    d["threads"] = p.threads;
    d["batch_size"] = p.batch_size;
    d["max_nodes"] = p.max_nodes;
    d["seed"] = p.seed;
    d["solver"] = p.solver;
    d["gumbel_actions"] = p.gumbel_actions;
    d["gumbel_c_visit"] = p.gumbel_c_visit;
    d["gumbel_c_scale"] = p.gumbel_c_scale;
    d["gumbel_noise"] = p.gumbel_noise;
    d["forced_playouts"] = p.forced_playouts;
    d["forced_playouts_k"] = p.forced_playouts_k;
    d["rollout_mix"] = p.rollout_mix;
    return d;
}

py::dict self_play_defaults() {
    const SelfPlayConfig c;
    py::dict d;
    d["parallel_games"] = c.parallel_games;
    d["simulations"] = c.simulations;
    d["leaves_per_game"] = c.leaves_per_game;
    d["sampling_plies"] = c.sampling_plies;
    d["temperature"] = c.temperature;
    d["random_opening_plies"] = c.random_opening_plies;
    d["random_opening_spread"] = c.random_opening_spread;
    d["opening_rollback_plies"] = c.opening_rollback_plies;
    d["threads"] = c.threads;
    d["seed"] = c.seed;
    d["gumbel_noise"] = true;  // unlike a Search's (see self_play_config)
    d["full_search_prob"] = c.full_search_prob;
    d["cheap_simulations"] = c.cheap_simulations;
    return d;
}

}  // namespace

void register_search(py::module_& m) {
    m.def("search_defaults", &search_defaults,
          "The default of every Search option (search/params.h, the one place they are set).");
    m.def("self_play_defaults", &self_play_defaults,
          "The default of every SelfPlay option besides the Search ones (search/params.h).");
    bind_search<Othello>(m, "OthelloSearch");
    bind_search<ConnectFour>(m, "ConnectFourSearch");
    bind_search<Gomoku>(m, "GomokuSearch");
    bind_search<Go>(m, "GoSearch");
    bind_search<RacingKings>(m, "RacingKingsSearch");
    bind_search<TicTacToe>(m, "TicTacToeSearch");
    bind_self_play<Othello>(m);
    bind_self_play<ConnectFour>(m);
    bind_self_play<Gomoku>(m);
    bind_self_play<Go>(m);
    bind_self_play<RacingKings>(m);
    bind_self_play<TicTacToe>(m);
    // Last: any object converts to a PythonGame (python_game.h), so the native overloads of
    // self_play and check_self_play must be tried first.
    bind_search<PythonGame>(m, "PythonGameSearch");
    bind_self_play<PythonGame>(m);
}

}  // namespace pyaz
