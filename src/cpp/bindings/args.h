// Strict reading of Python arguments for the bindings: an integer must be a Python int (or have
// __index__, as numpy integers do; never a bool or a float such as numpy.float32(1.7), which
// pybind11's own conversion would truncate) and a number must be real. Errors are TypeError for
// a wrong type and ValueError for a value out of range, and both name the value.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <string>

#include "games/common.h"

namespace pyaz {
namespace args {

namespace py = pybind11;

inline std::string repr_text(const py::handle& value) { return py::repr(value).cast<std::string>(); }

// `value` as a Python int; TypeError naming `name` unless it is an integer.
inline py::int_ python_int(const py::handle& value, const std::string& name) {
    if (py::isinstance<py::bool_>(value) || !PyIndex_Check(value.ptr())) {
        throw py::type_error(name + " must be an integer, got " + repr_text(value) + " (" +
                             std::string(py::str(py::type::of(value).attr("__name__"))) + ")");
    }
    return py::reinterpret_steal<py::int_>(PyNumber_Index(value.ptr()));
}

// An integer argument in [low, high] (ValueError naming it when outside).
template <class T>
T integer(const py::handle& value, const std::string& name, T low = std::numeric_limits<T>::min(),
          T high = std::numeric_limits<T>::max()) {
    const py::int_ number = python_int(value, name);
    const py::int_ lo(low);
    const py::int_ hi(high);
    if (number < lo || number > hi) {
        fail(name + " must be in [" + std::to_string(low) + ", " + std::to_string(high) + "], got " + repr_text(number));
    }
    return number.cast<T>();
}

// A real number argument (int, float or numpy real; TypeError for str, complex, bool, None ...).
inline double real(const py::handle& value, const std::string& name) {
    if (py::isinstance<py::bool_>(value) || PyComplex_Check(value.ptr()) ||
        !(PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) ||
          py::isinstance(value, py::module_::import("numbers").attr("Real")))) {
        throw py::type_error(name + " must be a real number, got " + repr_text(value));
    }
    return PyFloat_AsDouble(value.ptr());
}

// A bool argument (True/False or numpy.bool_; TypeError for anything else, e.g. the string "no").
inline bool boolean(const py::handle& value, const std::string& name) {
    if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
    if (py::isinstance(value, py::module_::import("numpy").attr("bool_"))) return value.cast<bool>();
    throw py::type_error(name + " must be True or False, got " + repr_text(value));
}

// A str argument (TypeError for anything else).
inline std::string text(const py::handle& value, const std::string& name) {
    if (!py::isinstance<py::str>(value)) throw py::type_error(name + " must be a str, got " + repr_text(value));
    return value.cast<std::string>();
}

// Parameter types that take any Python object (checked by integer() / real() inside the
// function, so that the error names the value) while the signature, and so the stubs, still say
// what is expected. `value` is borrowed from the call's arguments (valid during the call; a
// plain PyObject*, as a pybind11 member would need hidden visibility).
struct IndexArg {
    PyObject* value = nullptr;
};
struct RealArg {
    PyObject* value = nullptr;
};

}  // namespace args
}  // namespace pyaz

namespace pybind11 {
namespace detail {

template <class Arg>
struct any_object_caster {
    bool load(handle source, bool) {
        value.value = source.ptr();
        return true;
    }
    static handle cast(const Arg& arg, return_value_policy, handle) { return handle(arg.value).inc_ref(); }
    Arg value;
    operator Arg&() { return value; }
    template <class T>
    using cast_op_type = Arg&;
};

template <>
struct type_caster<pyaz::args::IndexArg> : any_object_caster<pyaz::args::IndexArg> {
    static constexpr auto name = const_name("typing.SupportsIndex");
};

template <>
struct type_caster<pyaz::args::RealArg> : any_object_caster<pyaz::args::RealArg> {
    static constexpr auto name = const_name("float");
};

}  // namespace detail
}  // namespace pybind11
