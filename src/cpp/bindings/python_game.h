// A game written in Python, as a C++ game type: PythonGame follows the game contract that
// Search<Game>, SelfPlay<Game> and the evaluators need (ARCHITECTURE.md, "The game contract") by
// calling the methods of a Python object that follows pyaz.games.state.BoardGameState plus
// `num_actions`, `planes_shape` and `encode()`.
//
// Copies and the GIL. A copy shares the Python object (copy on write: the first apply() to a
// shared object clones it with the object's clone()), so that the search's many copies (a leaf
// per simulation, the batches, the root) cost no Python call until they diverge. Every call into
// Python, and every change of a Python reference count, happens under the GIL
// (py::gil_scoped_acquire): the multithreaded search stays correct, serialised on the GIL for
// the game's calls. No method holds the GIL while it waits for anything else, and the search
// holds no lock of its own while it calls the game, so nothing can deadlock.
//
// What is cached. Per game (PythonGameContext), read once when the object is wrapped: name,
// num_actions, planes_shape. Per state, read after each apply(): status() and to_move() (the
// search reads them at every node); ply() is read once and counts one more per apply().
//
// Capacity (the choice asked for by ActionList): kMaxActions = 4096 legal actions in one
// state, the most children a node of the search tree can have (Tree::allocate); the action
// space, num_actions, may be larger, up to kMaxNumActions = 65536 (each evaluation holds
// num_actions floats per leaf). A game outside these gets a ValueError naming the value.
//
// Errors. Outside a run (wrapping the state, Search.advance, set_root) a Python exception or a
// bad value (an action out of range or listed twice, planes of the wrong shape, a status that
// is not a pyaz.Status, ...) is thrown at once. Inside a run (a PythonGameContext::Deferral is
// alive), where unwinding through the tree would leave it half updated, the first error is
// recorded in the context instead and every later call of the game's states answers a
// harmless placeholder (a drawn game, one legal action, zero planes) without calling Python;
// the bindings stop the run at its next poll, clear the tree (the root is kept) and re-raise
// the recorded exception to the caller (see bind_search.cpp).
#pragma once

#include <pybind11/pybind11.h>

#include <atomic>
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "core/rng.h"
#include "games/common.h"

namespace pyaz {

// What every state of one wrapped Python game shares: what the game declares once, and the
// first error its methods raised during a run. Thread-safe.
class PythonGameContext {
public:
    PythonGameContext(std::string name, int num_actions, int num_planes, int height, int width)
        : name_(std::move(name)), num_actions_(num_actions), num_planes_(num_planes), height_(height),
          width_(width) {}

    const std::string& name() const { return name_; }
    int num_actions() const { return num_actions_; }
    int num_planes() const { return num_planes_; }
    int height() const { return height_; }
    int width() const { return width_; }

    // While one is alive, the game's errors are recorded (record) instead of thrown.
    class Deferral {
    public:
        explicit Deferral(PythonGameContext& context) : context_(context) { context_.deferring_.fetch_add(1); }
        ~Deferral() { context_.deferring_.fetch_sub(1); }
        Deferral(const Deferral&) = delete;
        Deferral& operator=(const Deferral&) = delete;

    private:
        PythonGameContext& context_;
    };

    bool deferring() const { return deferring_.load() > 0; }
    bool failed() const { return failed_.load(std::memory_order_acquire); }
    // Keeps `error` if it is the first since the last take_failure().
    void record(std::exception_ptr error);
    // The recorded error (null if none), cleared.
    std::exception_ptr take_failure();

private:
    std::string name_;
    int num_actions_;
    int num_planes_;
    int height_;
    int width_;
    std::atomic<int> deferring_{0};
    std::atomic<bool> failed_{false};
    std::mutex lock_;
    std::exception_ptr failure_;
};

class PythonGame {
public:
    static constexpr int kMaxActions = 4096;        // legal actions in one state (a node's children)
    static constexpr int kMaxNumActions = 1 << 16;  // size of the action space
    static constexpr std::int64_t kMaxPlaneSize = std::int64_t{1} << 24;  // C * H * W floats
    static constexpr const char* kName = "Python game";

    // An empty state (a placeholder the drivers overwrite); every other state comes from wrap().
    PythonGame() = default;

    // Wraps a Python state (GIL held) with a fresh context: TypeError if a member of the
    // protocol is missing or of the wrong type, ValueError naming a value out of range.
    static PythonGame wrap(const pybind11::object& state);
    // A new Python object for this state (its clone(); GIL held), for returning to Python.
    pybind11::object python_copy() const;
    const std::shared_ptr<PythonGameContext>& context() const { return context_; }

    const std::string& name() const { return context_->name(); }
    int num_actions() const { return context_->num_actions(); }
    int num_planes() const { return context_->num_planes(); }
    int height() const { return context_->height(); }
    int width() const { return context_->width(); }

    Status status() const { return status_; }
    int to_move() const { return to_move_; }
    int ply() const { return ply_; }

    bool is_legal(Action action) const;
    void legal_actions(ActionList<kMaxActions>& out) const;
    void apply(Action action);
    // A uniformly random legal action, the index drawn as rng.below(count) into legal_actions()
    // (the native games' draw when they list their actions in the same order).
    void apply_random(Rng& rng);
    // planes_shape floats (C, H, W), from encode().
    void encode(float* out) const;

private:
    class Handle;

    // Runs `call` (which takes the GIL); on an error, throws it, or while the context defers,
    // records it and runs `placeholder` instead (also once the context has failed).
    template <class Call, class Placeholder>
    void guarded(Call&& call, Placeholder&& placeholder) const;
    void read_state();  // status() and to_move(), GIL held
    void read_actions(const pybind11::handle& actions, ActionList<kMaxActions>& out) const;
    Action action_value(PyObject* item) const;
    std::string actions_source() const;  // "legal_actions() of game '...'", for messages
    pybind11::object call(const char* method) const;

    std::shared_ptr<Handle> state_;
    std::shared_ptr<PythonGameContext> context_;
    Status status_ = Status::kDraw;
    int to_move_ = 0;
    int ply_ = 0;
};

}  // namespace pyaz

namespace pybind11 {
namespace detail {

// Any object (not None) converts to a PythonGame, with the second, converting pass of
// pybind11's overload resolution only: the native games' overloads, registered first, take
// their own states in the first pass. A Python game is returned to Python as a fresh clone.
template <>
struct type_caster<pyaz::PythonGame> {
    PYBIND11_TYPE_CASTER(pyaz::PythonGame, const_name("object"));

    bool load(handle source, bool convert) {
        if (!convert || source.is_none()) return false;
        value = pyaz::PythonGame::wrap(reinterpret_borrow<object>(source));
        return true;
    }
    static handle cast(const pyaz::PythonGame& state, return_value_policy, handle) {
        return state.python_copy().release();
    }
};

}  // namespace detail
}  // namespace pybind11
