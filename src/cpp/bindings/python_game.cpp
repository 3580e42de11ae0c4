// PythonGame: the calls into the Python object, their checks, and the deferral of their errors
// during a run (see python_game.h).
#include "bindings/python_game.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "bindings/args.h"

namespace py = pybind11;

namespace pyaz {

void PythonGameContext::record(std::exception_ptr error) {
    const std::lock_guard<std::mutex> guard(lock_);
    if (failure_) return;
    failure_ = std::move(error);
    failed_.store(true, std::memory_order_release);
}

std::exception_ptr PythonGameContext::take_failure() {
    const std::lock_guard<std::mutex> guard(lock_);
    failed_.store(false);
    return std::exchange(failure_, nullptr);
}

// One owned reference to the Python state, dropped under the GIL wherever the last copy of the
// state goes. (A plain PyObject*: a py::object member would need hidden visibility.)
class PythonGame::Handle {
public:
    explicit Handle(py::object object) : object_(object.release().ptr()) {}
    ~Handle() {
        if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing left to release
        const py::gil_scoped_acquire gil;
        Py_DECREF(object_);
    }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    py::handle object() const { return object_; }

private:
    PyObject* object_;
};

namespace {

const char* const kMembers[] = {"name",     "num_actions", "planes_shape", "ply",   "to_move", "status",
                                "is_legal", "legal_actions", "apply",      "clone", "encode"};

std::string type_name(const py::handle& value) {
    return py::str(py::type::of(value).attr("__qualname__")).cast<std::string>();
}

// TypeError naming the members of the protocol that `state` lacks.
void check_members(const py::object& state) {
    std::string missing;
    for (const char* member : kMembers) {
        if (!py::hasattr(state, member)) missing += std::string(missing.empty() ? "" : ", ") + member;
    }
    if (!missing.empty()) {
        throw py::type_error("a game state for the search needs " + missing + " (pyaz.games.state.BoardGameState "
                             "plus num_actions, planes_shape and encode()); " + type_name(state) + " has not");
    }
}

// The clone() of `state`, checked to be a new object.
py::object clone_of(const py::handle& state, const std::string& game) {
    py::object copy = state.attr("clone")();
    if (copy.is(state)) throw py::value_error("clone() of game '" + game + "' returned the state itself, not a copy");
    return copy;
}

}  // namespace

PythonGame PythonGame::wrap(const py::object& state) {
    check_members(state);
    const py::object name = state.attr("name");
    if (!py::isinstance<py::str>(name)) throw py::type_error("a game's name must be a str, got " + args::repr_text(name));
    const std::string game = name.cast<std::string>();
    const std::string of_game = " of game '" + game + "'";
    const int num_actions = args::integer<int>(state.attr("num_actions"), "num_actions" + of_game, 1, kMaxNumActions);
    const py::object shape = state.attr("planes_shape");
    if (!py::isinstance<py::tuple>(shape) && !py::isinstance<py::list>(shape)) {
        throw py::type_error("planes_shape" + of_game + " must be a tuple (C, H, W), got " + args::repr_text(shape));
    }
    const py::sequence dims = shape.cast<py::sequence>();
    if (dims.size() != 3) throw py::value_error("planes_shape" + of_game + " must be (C, H, W), got " + args::repr_text(shape));
    const int planes = args::integer<int>(dims[0], "planes_shape[0] (C)" + of_game, 1, 1 << 20);
    const int height = args::integer<int>(dims[1], "planes_shape[1] (H)" + of_game, 1, 1 << 20);
    const int width = args::integer<int>(dims[2], "planes_shape[2] (W)" + of_game, 1, 1 << 20);
    if (std::int64_t{planes} * height * width > kMaxPlaneSize) {
        fail("planes_shape" + of_game + " holds more than 2^24 floats: " + args::repr_text(shape));
    }
    PythonGame wrapped;
    wrapped.context_ = std::make_shared<PythonGameContext>(game, num_actions, planes, height, width);
    wrapped.state_ = std::make_shared<Handle>(clone_of(state, game));  // the caller keeps its own object
    wrapped.ply_ = args::integer<int>(state.attr("ply"), "ply" + of_game, 0);
    wrapped.read_state();
    return wrapped;
}

py::object PythonGame::python_copy() const {
    if (!state_) throw py::value_error("the Python game state is empty");
    return clone_of(state_->object(), name());
}

py::object PythonGame::call(const char* method) const { return state_->object().attr(method)(); }

void PythonGame::read_state() {
    const py::object status = call("status");
    try {
        status_ = status.cast<Status>();
    } catch (const py::cast_error&) {
        throw py::type_error("status() of game '" + name() + "' must return a pyaz.Status, got " +
                             args::repr_text(status));
    }
    to_move_ = args::integer<int>(call("to_move"), "to_move() of game '" + name() + "'", 0, 1);
}

template <class Call, class Placeholder>
void PythonGame::guarded(Call&& call, Placeholder&& placeholder) const {
    if (context_->failed()) {
        placeholder();
        return;
    }
    try {
        call();
    } catch (...) {
        if (!context_->deferring()) throw;
        context_->record(std::current_exception());
        placeholder();
    }
}

bool PythonGame::is_legal(Action action) const {
    if (action < 0 || action >= num_actions()) return false;
    bool legal = false;
    guarded(
        [&] {
            const py::gil_scoped_acquire gil;
            legal = py::bool_(state_->object().attr("is_legal")(action)).cast<bool>();
        },
        [&] { legal = false; });
    return legal;
}

std::string PythonGame::actions_source() const { return "legal_actions() of game '" + name() + "'"; }

// Reads a sequence of distinct actions in [0, num_actions): ValueError naming the first that is
// not (or the count, above kMaxActions); a game going on has at least one.
void PythonGame::read_actions(const py::handle& actions, ActionList<kMaxActions>& out) const {
    const py::object items = py::reinterpret_steal<py::object>(
        PySequence_Fast(actions.ptr(), "legal_actions() must return a sequence of ints"));
    if (!items) throw py::error_already_set();
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(items.ptr());
    if (count > kMaxActions) {
        fail(actions_source() + " returned " + std::to_string(count) + " actions; a state may have at most " +
             std::to_string(kMaxActions));
    }
    if (count == 0 && !is_terminal(status_)) fail(actions_source() + " returned no action, but the game is not over");
    // Marks of the actions read so far, cleared again on the way out (error or not).
    thread_local std::vector<std::uint8_t> listed;
    if (listed.size() < static_cast<std::size_t>(num_actions())) listed.resize(static_cast<std::size_t>(num_actions()), 0);
    struct Unmark {
        const ActionList<kMaxActions>& read;
        ~Unmark() {
            for (Action a : read) listed[static_cast<std::size_t>(a)] = 0;
        }
    } unmark{out};
    PyObject** item = PySequence_Fast_ITEMS(items.ptr());
    for (Py_ssize_t i = 0; i < count; ++i) {
        const Action action = action_value(item[i]);
        if (listed[static_cast<std::size_t>(action)]++) fail(actions_source() + " returned " + std::to_string(action) + " twice");
        out.push_back(action);
    }
}

// One action listed by legal_actions(): an int (or an object with __index__, not a bool) in [0, num_actions).
Action PythonGame::action_value(PyObject* item) const {
    long long action = -1;
    int overflow = 0;
    if (PyLong_CheckExact(item)) action = PyLong_AsLongLongAndOverflow(item, &overflow);
    else action = args::integer<long long>(item, "an action in " + actions_source());
    if (overflow != 0 || action < 0 || action >= num_actions()) {
        fail(actions_source() + " returned " + args::repr_text(item) + ", outside the action space [0, " +
             std::to_string(num_actions()) + ")");
    }
    return static_cast<Action>(action);
}

void PythonGame::legal_actions(ActionList<kMaxActions>& out) const {
    guarded(
        [&] {
            const py::gil_scoped_acquire gil;
            read_actions(call("legal_actions"), out);
        },
        [&] {
            out = ActionList<kMaxActions>();
            out.push_back(0);  // one child, which the next apply() turns into a finished game
        });
}

void PythonGame::apply(Action action) {
    guarded(
        [&] {
            const py::gil_scoped_acquire gil;
            if (state_.use_count() > 1) state_ = std::make_shared<Handle>(clone_of(state_->object(), name()));
            state_->object().attr("apply")(action);
            read_state();
            ++ply_;
        },
        [&] { status_ = Status::kDraw; });
}

void PythonGame::apply_random(Rng& rng) {
    ActionList<kMaxActions> actions;
    legal_actions(actions);
    apply(actions[static_cast<int>(rng.below(static_cast<std::uint32_t>(actions.size())))]);
}

void PythonGame::encode(float* out) const {
    const std::size_t size = std::size_t(num_planes()) * height() * width();
    guarded(
        [&] {
            const py::gil_scoped_acquire gil;
            const py::object planes = call("encode");
            const auto array = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(planes);
            if (!array) {
                PyErr_Clear();
                throw py::type_error("encode() of game '" + name() + "' must return an array of numbers, got " +
                                     type_name(planes));
            }
            if (array.ndim() != 3 || array.shape(0) != num_planes() || array.shape(1) != height() ||
                array.shape(2) != width()) {
                std::string shape;
                for (py::ssize_t d = 0; d < array.ndim(); ++d) shape += (d ? ", " : "") + std::to_string(array.shape(d));
                fail("encode() of game '" + name() + "' returned planes of shape (" + shape + "), but its planes_shape is (" +
                     std::to_string(num_planes()) + ", " + std::to_string(height()) + ", " + std::to_string(width()) + ")");
            }
            std::copy(array.data(), array.data() + size, out);
        },
        [&] { std::fill(out, out + size, 0.0f); });
}

}  // namespace pyaz
