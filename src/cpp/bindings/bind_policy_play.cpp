// Python binding of policy play (seed 003, ZetaGo): Go games in flight with no search, each
// policy a Python callable called once per step for all the games it moves in.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "bindings/bindings.h"
#include "games/go.h"
#include "search/policy_play.h"

namespace py = pybind11;

namespace pyaz {
namespace {

// Calls fn(planes[B, 3, n, n], legal[B, n * n + 2]) -> logits[B, n * n + 2] (numpy, float32;
// legal is uint8). Both inputs are read-only arrays of their own (copies of the driver's
// buffers, small beside the network call), so that a policy may keep them.
class PythonPolicy : public BatchPolicy {
public:
    PythonPolicy(py::object fn, int size) : fn_(std::move(fn)), size_(size) {}

    void logits(const std::vector<float>& planes, const std::vector<std::uint8_t>& legal, int batch,
                float* out) override {
        const py::ssize_t b = batch, n = size_, actions = policy_actions(size_);
        py::array_t<float> planes_copy({b, py::ssize_t(3), n, n}, planes.data());
        py::array_t<std::uint8_t> legal_copy({b, actions}, legal.data());
        read_only(planes_copy);
        read_only(legal_copy);
        py::object result = fn_(planes_copy, legal_copy);
        // Read as float64 and shifted by each row's largest legal logit, so that finite logits
        // beyond float32's range (1e308) keep their softmax.
        auto values = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(result);
        if (!values) throw py::type_error("a policy must return a numeric array of logits");
        if (values.ndim() != 2 || values.shape(0) != b || values.shape(1) != actions) {
            throw py::value_error("a policy must return logits of shape (" + std::to_string(b) + ", " +
                                  std::to_string(actions) + ")");
        }
        const double* data = values.data();
        for (py::ssize_t row = 0; row < b; ++row) {
            double top = -std::numeric_limits<double>::infinity();
            for (py::ssize_t i = row * actions; i < (row + 1) * actions; ++i) {
                const bool masked = legal[std::size_t(i)] == 0;
                if (!masked && std::isnan(data[i])) {
                    throw py::value_error("a policy returned NaN for a legal action at flat index " +
                                          std::to_string(i));
                }
                if (!masked) top = std::max(top, data[i]);
            }
            const double shift = std::isfinite(top) ? top : 0.0;
            for (py::ssize_t i = row * actions; i < (row + 1) * actions; ++i) {
                out[i] = legal[std::size_t(i)] == 0 ? 0.0f : static_cast<float>(data[i] - shift);
            }
        }
    }

private:
    static void read_only(py::array& a) {
        py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    }

    py::object fn_;
    int size_;
};

template <class T>
py::array_t<T> as_array(const std::vector<T>& v, std::vector<py::ssize_t> shape) {
    return py::array_t<T>(shape, v.data());
}

py::dict go_policy_play(const std::vector<Go>& starts, const std::vector<py::object>& policies,
                        const std::vector<int>& seats, int record_seat, bool allow_resign, double temperature,
                        std::uint64_t seed) {
    if (starts.empty()) throw py::value_error("go_policy_play needs at least one start position");
    const int size = starts.front().size();
    std::vector<PythonPolicy> owned;
    owned.reserve(policies.size());
    for (const py::object& fn : policies) {
        if (!PyCallable_Check(fn.ptr())) throw py::type_error("each policy must be a callable fn(planes, legal)");
        owned.emplace_back(fn, size);
    }
    std::vector<BatchPolicy*> pointers;
    for (PythonPolicy& p : owned) pointers.push_back(&p);
    PolicyPlayConfig config;
    config.allow_resign = allow_resign;
    config.temperature = temperature;
    config.seed = seed;
    PolicyPlay<Go> driver(starts, seats, static_cast<int>(policies.size()), record_seat, config);
    const PolicyPlayRecords r = driver.play(pointers);
    const py::ssize_t rows = static_cast<py::ssize_t>(r.action.size());
    const py::ssize_t games = static_cast<py::ssize_t>(r.game_status.size());
    py::dict out;
    out["planes"] = as_array(r.planes, {rows, 3, size, size});
    out["legal"] = as_array(r.legal, {rows, policy_actions(size)});
    out["action"] = as_array(r.action, {rows});
    out["player"] = as_array(r.player, {rows});
    out["game_id"] = as_array(r.game_id, {rows});
    out["ply"] = as_array(r.ply, {rows});
    out["game_status"] = as_array(r.game_status, {games});
    out["resigned"] = as_array(r.resigned, {games});
    out["game_length"] = as_array(r.game_length, {games});
    out["policy_calls"] = r.policy_calls;
    return out;
}

}  // namespace

void register_policy_play(py::module_& m) {
    m.def("go_policy_play", &go_policy_play, py::arg("starts"), py::arg("policies"), py::arg("seats"),
          py::arg("record_seat") = 0, py::arg("allow_resign") = true, py::arg("temperature") = 1.0,
          py::arg("seed") = 0,
          "Plays Go games from `starts` with no search (seed 003): seats[2*g + colour] is the index "
          "of the policy fn(planes[B,3,n,n], legal[B,n*n+2]) -> logits[B,n*n+2] that plays that "
          "colour in game g; each step calls every policy once for all the games it moves in and "
          "samples from the softmax over legal actions (temperature 0: argmax). Action n*n is the "
          "pass, n*n+1 resigns. Returns the positions where policy `record_seat` moved (planes "
          "black/white/empty, legal masks, actions, colour, game id, ply) and each game's status, "
          "resigning colour (-1 none) and length.");
}

}  // namespace pyaz
