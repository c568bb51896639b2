// The Python extension perlin._perlin: a thin pybind11 layer over the C++ library. It converts
// arguments and arrays and releases the GIL around every loop over data; every computation is a
// call into the library (perlin::make_field, field::eval, fill_grid, eval_points).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"
#include "perlin/shader.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"

namespace py = pybind11;

namespace {

[[noreturn]] void type_error(const std::string& what) { throw py::type_error(what); }

bool is_int(const py::handle& o) {
  return py::isinstance<py::int_>(o) && !py::isinstance<py::bool_>(o);
}

std::int64_t to_int64(const py::handle& o, const char* name) {
  if (!is_int(o)) type_error(std::string(name) + ": must be an integer");
  try {
    return o.cast<std::int64_t>();
  } catch (const py::cast_error&) {
    throw py::value_error(std::string(name) + ": out of range");
  }
}

double to_double(const py::handle& o, const char* name) {
  if (!(py::isinstance<py::float_>(o) || is_int(o)) || py::isinstance<py::bool_>(o)) {
    // numpy scalars are accepted through __float__
    if (!py::hasattr(o, "__float__") || py::isinstance<py::str>(o) ||
        py::isinstance<py::bool_>(o)) {
      type_error(std::string(name) + ": must be a number");
    }
  }
  return o.cast<double>();
}

/// A str as UTF-8, or TypeError (not a str) or ValueError (a lone surrogate, which UTF-8 cannot
/// hold) naming the argument, instead of pybind11's RuntimeError "Unable to cast".
std::string to_str(const py::handle& o, const std::string& name) {
  if (!py::isinstance<py::str>(o)) type_error(name + ": must be a string");
  Py_ssize_t size = 0;
  const char* utf8 = PyUnicode_AsUTF8AndSize(o.ptr(), &size);
  if (utf8 != nullptr) return std::string(utf8, static_cast<std::size_t>(size));
  PyErr_Clear();
  const Py_ssize_t length = PyUnicode_GetLength(o.ptr());
  Py_ssize_t at = 0;
  Py_UCS4 c = 0;
  for (; at < length; ++at) {
    c = PyUnicode_ReadChar(o.ptr(), at);
    if (c >= 0xD800 && c <= 0xDFFF) break;
  }
  char code[8];
  std::snprintf(code, sizeof code, "%04X", static_cast<unsigned>(c));
  throw py::value_error(name + ": not text UTF-8 can hold (a lone surrogate U+" + code +
                        " at position " + std::to_string(at) + "); give a str of characters");
}

bool to_bool(const py::handle& o, const char* name) {
  if (!py::isinstance<py::bool_>(o)) type_error(std::string(name) + ": must be True or False");
  return o.cast<bool>();
}

/// A Python value as the option table's text for `row`: the types Python users expect (int for
/// integers and seeds, a number for numbers, bool for flags, str for choices, an int or a
/// sequence of ints for periods), each written exactly (repr of a float is its shortest
/// round-trip text); the library parses it with the same parser as every other front.
std::string option_text(const perlin::option_info& row, const py::handle& v) {
  const std::string name(row.name);
  switch (row.type) {
    case perlin::option_type::integer:
    case perlin::option_type::seed:
      if (!is_int(v)) type_error(name + ": must be an integer");
      return py::str(v).cast<std::string>();
    case perlin::option_type::number:
      if (py::isinstance<py::bool_>(v) || py::isinstance<py::str>(v) ||
          !py::hasattr(v, "__float__")) {
        type_error(name + ": must be a number");
      }
      return py::repr(py::float_(v.cast<double>())).cast<std::string>();
    case perlin::option_type::flag:
      if (!py::isinstance<py::bool_>(v)) type_error(name + ": must be True or False");
      return v.cast<bool>() ? "true" : "false";
    case perlin::option_type::choice:
      return to_str(v, name);
    case perlin::option_type::periods: {
      if (is_int(v)) return py::str(v).cast<std::string>();
      if (!py::isinstance<py::sequence>(v) || py::isinstance<py::str>(v)) {
        type_error(name + ": must be an integer or a sequence of 1 to 4 integers");
      }
      std::string out;
      for (const auto& item : v.cast<py::sequence>()) {
        if (!is_int(item))
          type_error(name + ": must be an integer or a sequence of 1 to 4 integers");
        out += (out.empty() ? "" : ",") + py::str(item).cast<std::string>();
      }
      if (out.empty()) throw py::value_error(name + ": give 1 to 4 periods, or None");
      return out;
    }
  }
  return {};
}

/// The option table's row of a keyword, or TypeError "unknown option 'octave' (did you mean
/// 'octaves'?)" (the library's message).
const perlin::option_info& row_of(const std::string& keyword) {
  try {
    return perlin::option(keyword);
  } catch (const perlin::unknown_option& e) {
    std::string m = e.what();
    if (m.rfind("option: ", 0) == 0) m = m.substr(8);
    throw py::type_error(m);
  }
}

/// The table's text of an option as the Python value a keyword takes (for repr and _kwargs).
py::object option_value(const perlin::option_info& row, const perlin::field_spec& spec) {
  const std::string t = row.get(spec);
  switch (row.type) {
    case perlin::option_type::integer:
      return py::int_(std::stoll(t));
    case perlin::option_type::seed:
      return py::int_(py::str(t));
    case perlin::option_type::number:
      return py::float_(std::stod(t));
    case perlin::option_type::flag:
      return py::bool_(t == "true");
    case perlin::option_type::choice:
      return py::str(t);
    case perlin::option_type::periods: {
      const auto& p = spec.period;
      if (p.size() == 1) return py::int_(p[0]);
      py::tuple out(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) out[i] = py::int_(p[i]);
      return out;
    }
  }
  return py::none();
}

/// Emits the library's unused-option warnings as Python UserWarnings.
void warn_unused(const perlin::field_spec& spec, const std::vector<std::string>& given) {
  for (const std::string& w : perlin::unused_options(spec, given, "")) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2) != 0) throw py::error_already_set();
  }
}

/// A field_spec from Field's keywords, one loop over the option table (None keeps the default;
/// `_recipe`: start from a recipe).
perlin::field_spec spec_from(const py::kwargs& kw) {
  perlin::field_spec s;
  std::vector<std::string> given;
  std::vector<std::pair<std::string, std::string>> skipped;  // a page's render settings
  if (kw.contains("_recipe"))
    s = perlin::spec_from_recipe(to_str(kw["_recipe"], "recipe"), &skipped);
  if (const std::string w = perlin::recipe_skipped_warning(skipped); !w.empty()) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2) != 0) throw py::error_already_set();
  }
  std::vector<const perlin::option_info*> seen;
  for (const auto& [key, value] : kw) {
    const std::string k = key.cast<std::string>();
    if (k == "_recipe") continue;
    const perlin::option_info& row = row_of(k);
    if (std::find(seen.begin(), seen.end(), &row) != seen.end()) {
      throw py::value_error(std::string(row.name) + ": given twice (" + std::string(row.name) +
                            " and " + std::string(row.alias) + " are the same option); give one");
    }
    seen.push_back(&row);
    if (value.is_none()) continue;
    row.set(s, option_text(row, value));
    given.emplace_back(row.name);
  }
  warn_unused(s, given);
  return s;
}

/// The field and the spec it was made from (for repr, recipes and pickling).
struct py_field {
  perlin::field field;
  perlin::field_spec spec;
};

template <class T>
using carray = py::array_t<T, py::array::c_style>;

/// Pointers to D coordinate arrays of n elements each (already broadcast and contiguous).
template <class T>
std::vector<const T*> axes_of(const std::vector<carray<T>>& coords, std::size_t& n) {
  if (coords.empty() || coords.size() > 4)
    throw py::value_error("point: must have 1 to 4 coordinates");
  n = static_cast<std::size_t>(coords[0].size());
  std::vector<const T*> axes;
  for (const auto& c : coords) {
    if (static_cast<std::size_t>(c.size()) != n)
      throw py::value_error("coordinates: must have the same size");
    axes.push_back(c.data());
  }
  return axes;
}

/// Exact values (and gradients) at n points: the double scalar path, bit for bit the single calls.
py::object eval_exact(const py_field& f, const std::vector<carray<double>>& coords, bool gradient,
                      unsigned threads) {
  std::size_t n = 0;
  const auto axes = axes_of(coords, n);
  const std::size_t d = axes.size();
  carray<double> values(static_cast<py::ssize_t>(n));
  double* out = values.mutable_data();
  if (!gradient) {
    perlin::point_set<double> ps;
    std::span<const double>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
    for (std::size_t k = 0; k < d; ++k) *spans[k] = std::span<const double>(axes[k], n);
    py::gil_scoped_release release;
    perlin::eval_points(f.field, ps, std::span<double>(out, n), {.threads = threads});
    return values;
  }
  // Planar (D, n), the C++ layout; Python turns it into a last axis of D partials.
  carray<double> grad({static_cast<py::ssize_t>(d), static_cast<py::ssize_t>(n)});
  double* g = grad.mutable_data();
  {
    perlin::point_set<double> ps;
    std::span<const double>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
    for (std::size_t k = 0; k < d; ++k) *spans[k] = std::span<const double>(axes[k], n);
    py::gil_scoped_release release;
    perlin::eval_points_deriv(f.field, ps, std::span<double>(out, n), std::span<double>(g, n * d),
                              {.threads = threads});
  }
  return py::make_tuple(values, grad);
}

/// The fast batch path: float32 (SIMD) or float64 (exact) values at n points.
template <class T>
void eval_points(const py_field& f, const std::vector<carray<T>>& coords, carray<T>& out,
                 unsigned threads, bool strict) {
  std::size_t n = 0;
  const auto axes = axes_of(coords, n);
  if (static_cast<std::size_t>(out.size()) != n)
    throw py::value_error("out: must hold one value per point");
  perlin::point_set<T> ps;
  std::span<const T>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
  for (std::size_t k = 0; k < axes.size(); ++k) *spans[k] = std::span<const T>(axes[k], n);
  T* o = out.mutable_data();
  py::gil_scoped_release release;
  perlin::eval_points(f.field, ps, std::span<T>(o, n), {.threads = threads, .strict = strict});
}

/// A grid from numpy's shape order (slowest axis first) and x-first origin, step and first.
perlin::grid make_grid(const std::vector<std::size_t>& shape, const std::vector<double>& origin,
                       const std::vector<double>& step, const std::vector<std::int64_t>& first) {
  const std::size_t d = shape.size();
  if (d < 1 || d > 4)
    throw py::value_error("shape: must have 1 to 4 axes, got " + std::to_string(d));
  const auto check_len = [d](std::size_t len, const char* name) {
    if (len != 0 && len != d) {
      throw py::value_error(std::string(name) + ": must have one value per axis (" +
                            std::to_string(d) + ")");
    }
  };
  check_len(origin.size(), "origin");
  check_len(step.size(), "step");
  check_len(first.size(), "first");
  perlin::grid g;
  g.dims = d;
  for (std::size_t k = 0; k < d; ++k) {
    g.count[k] = shape[d - 1 - k];
    if (!origin.empty()) g.origin[k] = origin[k];
    if (!step.empty()) g.step[k] = step[k];
    if (!first.empty()) g.first[k] = first[k];
  }
  (void)g.size();  // checks the counts before anything is allocated
  return g;
}

template <class T>
py::tuple fill(const py_field& f, const perlin::grid& g, carray<T>& out, unsigned threads,
               bool strict) {
  if (static_cast<std::size_t>(out.size()) != g.size())
    throw py::value_error("out: must have the grid's shape");
  T* o = out.mutable_data();
  perlin::value_range<T> r;
  {
    py::gil_scoped_release release;
    r = perlin::fill_grid(f.field, g, std::span<T>(o, g.size()),
                          {.threads = threads, .strict = strict});
  }
  return py::make_tuple(r.min, r.max);
}

/// The fast path of Field.grid (issue 53 item 4: a call's fixed cost): a raw METH_FASTCALL
/// function, _grid_plain(field, shape, dtype, threads, strict, origin, step, first, out), that
/// takes the usual arguments as they come (a tuple of plain ints, np.float32 or np.float64, plain
/// numbers or tuples/lists of them, an `out` array that fits exactly) and fills the grid with the
/// same call as _grid32/_grid64; anything else, and any invalid_argument, returns None and
/// Field.grid takes its general path, which checks and raises as before. It saves pybind11's
/// argument dispatch, _make_grid's vectors and the checks in Python (3.7 -> under 2 us a call).
struct grid_plain_types {
  PyObject* float32 = nullptr;     // numpy.float32
  PyObject* float64 = nullptr;     // numpy.float64
  PyObject* field_attr = nullptr;  // "_field", interned
};
grid_plain_types g_plain;

/// One axis value of origin or step: a plain float or int, else false.
bool plain_double(PyObject* o, double& v) {
  if (PyFloat_CheckExact(o)) {
    v = PyFloat_AS_DOUBLE(o);
    return true;
  }
  if (PyLong_CheckExact(o)) {
    v = PyLong_AsDouble(o);  // float(v) in the general path: the same rounding
    if (v == -1.0 && PyErr_Occurred() != nullptr) {
      PyErr_Clear();
      return false;
    }
    return true;
  }
  return false;
}

/// origin or step: None (the defaults), a plain number for every axis, or a tuple/list of d.
bool plain_axes(PyObject* o, std::size_t d, std::array<double, 4>& into) {
  if (o == Py_None) return true;
  double v = 0;
  if (plain_double(o, v)) {
    for (std::size_t k = 0; k < d; ++k) into[k] = v;
    return true;
  }
  if (!PyTuple_CheckExact(o) && !PyList_CheckExact(o)) return false;
  if (static_cast<std::size_t>(PySequence_Fast_GET_SIZE(o)) != d) return false;
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (std::size_t k = 0; k < d; ++k)
    if (!plain_double(items[k], into[k])) return false;
  return true;
}

/// first: None, a plain int for every axis, or a tuple/list of d plain ints (int64).
bool plain_first(PyObject* o, std::size_t d, std::array<std::int64_t, 4>& into) {
  const auto one = [](PyObject* x, std::int64_t& v) {
    if (!PyLong_CheckExact(x)) return false;
    int overflow = 0;
    const long long n = PyLong_AsLongLongAndOverflow(x, &overflow);
    if (overflow != 0 || (n == -1 && PyErr_Occurred() != nullptr)) {
      PyErr_Clear();
      return false;
    }
    v = static_cast<std::int64_t>(n);
    return true;
  };
  if (o == Py_None) return true;
  std::int64_t v = 0;
  if (PyLong_CheckExact(o)) {
    if (!one(o, v)) return false;
    for (std::size_t k = 0; k < d; ++k) into[k] = v;
    return true;
  }
  if (!PyTuple_CheckExact(o) && !PyList_CheckExact(o)) return false;
  if (static_cast<std::size_t>(PySequence_Fast_GET_SIZE(o)) != d) return false;
  PyObject** items = PySequence_Fast_ITEMS(o);
  for (std::size_t k = 0; k < d; ++k)
    if (!one(items[k], into[k])) return false;
  return true;
}

template <class T>
PyObject* grid_plain_fill(const py_field& f, const perlin::grid& g,
                          const std::array<py::ssize_t, 4>& shape, PyObject* out_obj,
                          unsigned threads, bool strict) {
  const auto fill_into = [&](carray<T>& out) {
    T* o = out.mutable_data();
    py::gil_scoped_release release;
    (void)perlin::fill_grid(f.field, g, std::span<T>(o, g.size()),
                            {.threads = threads, .strict = strict});
  };
  if (out_obj == Py_None) {
    carray<T> out(std::vector<py::ssize_t>(shape.begin(), shape.begin() + g.dims));
    fill_into(out);
    return out.release().ptr();
  }
  // Exactly the arrays the general path accepts as they are: an ndarray of this dtype and shape,
  // C-contiguous and writeable (anything else: the general path, which names the problem).
  if (!carray<T>::check_(out_obj)) return Py_NewRef(Py_None);
  auto out = py::reinterpret_borrow<carray<T>>(out_obj);
  if (out.ndim() != static_cast<py::ssize_t>(g.dims) || !out.writeable()) return Py_NewRef(Py_None);
  for (std::size_t k = 0; k < g.dims; ++k)
    if (out.shape(static_cast<py::ssize_t>(k)) != shape[k]) return Py_NewRef(Py_None);
  fill_into(out);
  return out.release().ptr();
}

PyObject* grid_plain(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 9) {
    PyErr_SetString(PyExc_TypeError, "_grid_plain: 9 arguments");
    return nullptr;
  }
  PyObject* const self = args[0];
  PyObject* const shape_obj = args[1];
  PyObject* const dtype = args[2];
  PyObject* const threads_obj = args[3];
  PyObject* const strict_obj = args[4];
  // The general path for anything unusual (it raises or converts as documented).
  if (!PyTuple_CheckExact(shape_obj) || !PyLong_CheckExact(threads_obj) ||
      (dtype != g_plain.float32 && dtype != g_plain.float64) || !PyBool_Check(strict_obj)) {
    Py_RETURN_NONE;
  }
  const Py_ssize_t d = PyTuple_GET_SIZE(shape_obj);
  if (d < 1 || d > 4) Py_RETURN_NONE;
  std::array<py::ssize_t, 4> shape{1, 1, 1, 1};
  perlin::grid g;
  g.dims = static_cast<std::size_t>(d);
  for (Py_ssize_t k = 0; k < d; ++k) {
    PyObject* s = PyTuple_GET_ITEM(shape_obj, k);
    if (!PyLong_CheckExact(s)) Py_RETURN_NONE;
    const Py_ssize_t n = PyLong_AsSsize_t(s);
    if (n < 1) {  // also -1 with an overflow error: the general path says which
      PyErr_Clear();
      Py_RETURN_NONE;
    }
    shape[static_cast<std::size_t>(k)] = n;
    g.count[static_cast<std::size_t>(d - 1 - k)] = static_cast<std::size_t>(n);  // x first
  }
  const long threads = PyLong_AsLong(threads_obj);
  if (threads < 0 || threads > 65535) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  if (!plain_axes(args[5], g.dims, g.origin) || !plain_axes(args[6], g.dims, g.step) ||
      !plain_first(args[7], g.dims, g.first)) {
    Py_RETURN_NONE;
  }
  PyObject* core = PyObject_GetAttr(self, g_plain.field_attr);
  if (core == nullptr) {  // a Field made without __init__: the general path's TypeError
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  const py::object hold = py::reinterpret_steal<py::object>(core);
  try {
    const auto& f = hold.cast<const py_field&>();
    (void)g.size();  // the counts' product checked before anything is allocated
    const bool strict = strict_obj == Py_True;
    const auto t = static_cast<unsigned>(threads);
    return dtype == g_plain.float32 ? grid_plain_fill<float>(f, g, shape, args[8], t, strict)
                                    : grid_plain_fill<double>(f, g, shape, args[8], t, strict);
  } catch (const perlin::invalid_argument&) {
    Py_RETURN_NONE;  // the general path raises it again, with its own checks first
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
}

// METH_FASTCALL functions are stored as a PyCFunction (through void (*)(): no cast warning).
PyMethodDef g_grid_plain_def{
    "_grid_plain", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(grid_plain)),
    METH_FASTCALL, "Field.grid's fast path (None: take the general one)."};

/// Values and planar gradients (D arrays of the grid's size): float32 on the SIMD path, float64
/// the exact path (the C++ fill_grid_deriv).
template <class T>
py::tuple fill_deriv(const py_field& f, const perlin::grid& g, carray<T>& out, carray<T>& grad,
                     unsigned threads, bool strict) {
  const std::size_t n = g.size();
  if (static_cast<std::size_t>(out.size()) != n)
    throw py::value_error("out: must have the grid's shape");
  if (static_cast<std::size_t>(grad.size()) != n * g.dims)
    throw py::value_error("gradient: must hold D values a sample");
  T* o = out.mutable_data();
  T* d = grad.mutable_data();
  perlin::value_range<T> r;
  {
    py::gil_scoped_release release;
    r = perlin::fill_grid_deriv(f.field, g, std::span<T>(o, n), std::span<T>(d, n * g.dims),
                                {.threads = threads, .strict = strict});
  }
  return py::make_tuple(r.min, r.max);
}

/// perlin.render(preset, **options): the pixels `perlin render` writes to a PNG, as an array. The
/// keywords are the command's options (`-` becomes `_`), resolved by the same code (render_plan).
py::array render(const std::string& preset, const py::kwargs& kw) {
  perlin_render::render_options o;
  o.preset = preset;
  o.output = "image.png";
  o.quiet = true;
  // A render setting's value as text: a sequence is a comma list (size is W x H), numbers are
  // written exactly, flags are true/false.
  const auto setting_text = [](const perlin_render::render_setting& st,
                               const py::handle& v) -> std::string {
    const std::string name(st.name);
    if (st.is_flag()) {
      if (!py::isinstance<py::bool_>(v)) type_error(name + ": must be True or False");
      return v.cast<bool>() ? "true" : "false";
    }
    if (py::isinstance<py::str>(v)) return to_str(v, name);
    const auto number = [&](const py::handle& x) -> std::string {
      if (is_int(x)) return py::str(x).cast<std::string>();
      return py::repr(py::float_(to_double(x, name.c_str()))).cast<std::string>();
    };
    if (!py::isinstance<py::sequence>(v)) return number(v);
    std::string out;
    const bool size2 = st.type == perlin_render::setting_type::size2;  // WxH
    const char* sep = size2 ? "x" : ",";
    const auto seq = v.cast<py::sequence>();
    if (size2 && seq.size() != 2) throw py::value_error(name + ": must be (width, height)");
    for (const auto& item : seq) {
      if (size2 && !is_int(item)) type_error(name + ": must be (width, height) integers");
      out += (out.empty() ? "" : sep) + number(item);
    }
    return out;
  };
  std::vector<std::string> given;
  for (const auto& [key, value] : kw) {
    const std::string k = key.cast<std::string>();
    std::string name = k;
    std::replace(name.begin(), name.end(), '_', '-');
    if (k == "threads") {
      const std::int64_t t = to_int64(value, "threads");
      if (t < 0 || t > 65535)
        throw py::value_error("threads: must be 0 (every core) to 65535, got " + std::to_string(t));
      o.threads = static_cast<unsigned>(t);
    } else if (k == "strict") {
      o.strict = to_bool(value, "strict");
    } else if (k == "recipe") {
      o.recipe = to_str(value, "recipe");
    } else if (name == "frames" || name == "loop" || name == "animated" || name == "fps" ||
               name == "loop-radius" || name == "time-step") {
      type_error("render(): " + k +
                 " is for animations, which `perlin render --frames` writes; render() "
                 "returns one picture");
    } else if (const auto* st = perlin_render::find_render_setting(name)) {
      perlin_render::set_render_setting(o, name, setting_text(*st, value));
    } else if (perlin::find_option(name) != nullptr) {
      const perlin::option_info& row = *perlin::find_option(name);
      o.field.emplace_back(std::string(row.name), option_text(row, value));
    } else {
      std::vector<std::string_view> names = {"threads", "strict", "recipe"};
      std::vector<std::string> owned;
      for (const auto& st2 : perlin_render::render_settings()) owned.emplace_back(st2.name);
      for (const auto& row : perlin::field_options()) owned.emplace_back(row.name);
      for (auto& n : owned) std::replace(n.begin(), n.end(), '-', '_');
      for (const auto& n : owned) names.push_back(n);
      const std::string near = perlin::closest_name(k, names);
      type_error("render() got an unknown option '" + k + "'" +
                 (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
  }
  // The render's errors are perlin.InvalidArgument (a ValueError) naming the setting.
  perlin_render::render_plan r = perlin_render::resolve(o);
  if (r.tiles_x > 0)
    perlin_render::bad_setting("tiles", "tiles are files; perlin render writes them");
  for (const auto& w : r.warnings) {
    if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2) != 0) throw py::error_already_set();
  }
  perlin_render::frame_values v;
  perlin_render::frame_buffer<std::uint8_t> pixels;
  {
    py::gil_scoped_release release;
    pixels = perlin_render::render_pixels(r, 0, v);
  }
  const auto h = static_cast<py::ssize_t>(r.height), w = static_cast<py::ssize_t>(r.width);
  if (r.normals != 0 && r.bits == 16) {  // a 16-bit normal map: (h, w, 3) uint16
    py::array_t<std::uint16_t> out({h, w, py::ssize_t{3}});
    std::memcpy(out.mutable_data(), pixels.data(), pixels.size());
    return out;
  }
  if (r.cmap != nullptr || r.normals != 0) {
    py::array_t<std::uint8_t> out({h, w, py::ssize_t{3}});
    std::memcpy(out.mutable_data(), pixels.data(), pixels.size());
    return out;
  }
  if (r.bits == 16) {
    py::array_t<std::uint16_t> out({h, w});
    std::memcpy(out.mutable_data(), pixels.data(), pixels.size());
    return out;
  }
  py::array_t<std::uint8_t> out({h, w});
  std::memcpy(out.mutable_data(), pixels.data(), pixels.size());
  return out;
}

}  // namespace

namespace {

/// perlin._perlin._Field: the field and the calls on it.
void def_field(py::module_& m) {
  py::class_<py_field>(m, "_Field")
      .def(py::init([](const py::kwargs& kw) {
        // A recipe alone may be a graph (graph.hpp): its field is the graph.
        if (kw.size() == 1 && kw.contains("_recipe")) {
          perlin::field_spec s;
          std::vector<std::pair<std::string, std::string>> skipped;
          perlin::field f = perlin::field_from_text(to_str(kw["_recipe"], "recipe"), &s, &skipped);
          if (const std::string w = perlin::recipe_skipped_warning(skipped); !w.empty()) {
            if (PyErr_WarnEx(PyExc_UserWarning, w.c_str(), 2) != 0) throw py::error_already_set();
          }
          return py_field{std::move(f), std::move(s)};
        }
        perlin::field_spec s = spec_from(kw);
        perlin::field f = perlin::make_field(s);
        return py_field{std::move(f), std::move(s)};
      }))
      .def_property_readonly("_is_graph",
                             [](const py_field& f) { return f.field.graph() != nullptr; })
      .def_property_readonly("_kwargs",
                             [](const py_field& f) {
                               py::dict kw;
                               const perlin::field_spec defaults;
                               for (const auto& row : perlin::field_options()) {
                                 if (row.get(f.spec) == row.get(defaults)) continue;
                                 std::string k(row.name);
                                 std::replace(k.begin(), k.end(), '-', '_');
                                 kw[py::str(k)] = option_value(row, f.spec);
                               }
                               return kw;
                             })
      .def_property_readonly(
          "recipe",
          [](const py_field& f) {
            const perlin::graph* g = f.field.graph();
            return g != nullptr ? g->recipe() : perlin::to_recipe(f.spec);
          },
          "The field's recipe: one line that names it completely (docs/recipes.md).")
      .def_property_readonly("_json",
                             [](const py_field& f) {
                               // The graph's JSON (a field's: its one-node graph), whose nodes
                               // Python's operators assemble into new graphs (docs/graphs.md).
                               const perlin::graph* g = f.field.graph();
                               return g != nullptr ? g->json() : perlin::graph(f.spec).json();
                             })
      .def("_range", [](const py_field& f, std::size_t dims) { return f.field.range(dims); })
      .def("_with_seed",
           [](const py_field& f, std::uint64_t seed) {
             // The same field with another seed, through the option table's own setter.
             if (f.field.graph() != nullptr)
               throw py::value_error(
                   "seed: this field is a graph: its seeds are its nodes' "
                   "(set them in its recipe, docs/graphs.md)");
             py_field g{f.field, f.spec};
             g.spec.set("seed", std::to_string(seed));
             g.field = perlin::make_field(g.spec);
             return g;
           })
      .def("_eval", &eval_exact, py::arg("coords"), py::arg("gradient"), py::arg("threads"))
      // One point of plain Python numbers (the caller checked the types): no arrays, one call of
      // the exact double path, the same doubles as _eval (field::eval, as eval_points' route).
      .def("_value",
           [](const py_field& f, const py::tuple& coords) {
             double p[4];
             const std::size_t d = coords.size();
             if (d < 1 || d > 4) throw py::value_error("point: must have 1 to 4 coordinates");
             for (std::size_t k = 0; k < d; ++k) {
               p[k] = PyFloat_AsDouble(coords[k].ptr());
               if (p[k] == -1.0 && PyErr_Occurred() != nullptr) throw py::error_already_set();
             }
             return f.field.eval(std::span<const double>(p, d));
           })
      .def("_points32", &eval_points<float>)
      .def("_points64", &eval_points<double>)
      .def("_grid32", [](const py_field& f, const perlin::grid& g, carray<float>& out, unsigned t,
                         bool s) { return fill(f, g, out, t, s); })
      .def("_grid64", [](const py_field& f, const perlin::grid& g, carray<double>& out, unsigned t,
                         bool s) { return fill(f, g, out, t, s); })
      .def("_shader",
           [](const py_field& f, const std::string& language, const std::string& precision,
              std::size_t dims, bool derivatives, bool split, bool standalone) {
             if (f.field.graph() != nullptr) (void)perlin::shader_source(f.field, {});  // refuses
             return perlin::shader_source(
                 f.spec, {.language = perlin::parse_shader_language(language),
                          .double_precision = perlin::parse_shader_precision(precision),
                          .dims = dims,
                          .derivatives = derivatives,
                          .split = split,
                          .standalone = standalone});
           })
      .def("_grid_deriv32", &fill_deriv<float>)
      .def("_grid_deriv64", &fill_deriv<double>);
}

}  // namespace

PYBIND11_MODULE(_perlin, m) {
  m.doc() = "Ken Perlin's improved noise, exact and fast: the C++ library perlin from Python";
  m.attr("__version__") = PERLIN_VERSION;
  m.attr("DEFAULT_STEP") = perlin::grid::k_default_step;
  py::register_exception<perlin::invalid_argument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<perlin::io_error>(m, "IOError", PyExc_OSError);

  def_field(m);
  py::class_<perlin::grid>(m, "_Grid").def("size", &perlin::grid::size);
  m.def("_make_grid", &make_grid);
  // Held for the module's life (the types never go away while numpy is loaded).
  const py::module_ numpy = py::module_::import("numpy");
  g_plain.float32 = py::object(numpy.attr("float32")).release().ptr();
  g_plain.float64 = py::object(numpy.attr("float64")).release().ptr();
  g_plain.field_attr = PyUnicode_InternFromString("_field");
  m.add_object("_grid_plain", py::reinterpret_steal<py::object>(
                                  PyCFunction_NewEx(&g_grid_plain_def, nullptr, nullptr)));
  m.def("split_for_shader", [](double x) {
    const perlin::shader_coordinate c = perlin::split_for_shader(x);
    return py::make_tuple(c.cell, c.frac);
  });
  m.def("render", &render, py::arg("preset") = "plain",
        "The pixels `perlin render` writes to a PNG, as a uint8 (h, w) or (h, w, 3) array, or\n"
        "uint16 (h, w) with bits=16. Keywords: the command's options with _ for - (size=(w, h),\n"
        "step, scale, origin, offset, bits, colormap, range, stretch, tileable, ...), every field\n"
        "option of perlin.options() (frequency is the field's, as in Field), recipe=, threads, "
        "strict.");
  m.def(
      "options", [] { return perlin::options_json(); },
      "The option table as JSON text (perlin options --json).");
  m.def("targets", &perlin::available_targets, "The SIMD targets usable here, best first.");
  m.def("active_target", &perlin::active_target);
  m.def(
      "set_max_target", [](const std::string& name) { perlin::set_max_target(name); },
      "Cap the SIMD target ('' removes the cap).");
}
