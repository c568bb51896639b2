// The Python extension perlin._perlin: a thin pybind11 layer over the C++ library. It converts
// arguments and arrays and releases the GIL around every loop over data; every computation is a
// call into the library (perlin::make_field, field::eval, fill_grid, eval_points).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "perlin/perlin.hpp"
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
    if (!py::hasattr(o, "__float__") || py::isinstance<py::str>(o) || py::isinstance<py::bool_>(o)) {
      type_error(std::string(name) + ": must be a number");
    }
  }
  return o.cast<double>();
}

std::string to_str(const py::handle& o, const char* name) {
  if (!py::isinstance<py::str>(o)) type_error(std::string(name) + ": must be a string");
  return o.cast<std::string>();
}

bool to_bool(const py::handle& o, const char* name) {
  if (!py::isinstance<py::bool_>(o)) type_error(std::string(name) + ": must be True or False");
  return o.cast<bool>();
}

/// The keyword arguments of Field, with the command line's names (`-` becomes `_`), defaults and
/// rules: converted here, checked by the library (perlin::make_field).
perlin::field_spec spec_from(const py::object& seed, const py::object& noise, const py::object& interp,
                             const py::object& period, const py::object& fractal,
                             const py::object& octaves, const py::object& frequency,
                             const py::object& lacunarity, const py::object& persistence,
                             const py::object& gain, const py::object& normalize,
                             const py::object& decorrelate, const py::object& plane, const py::object& warp,
                             const py::object& warp_amplitude, const py::object& warp_frequency,
                             const py::object& warp_octaves, const py::object& warp_seed) {
  perlin::field_spec s;
  if (!seed.is_none()) {
    if (!is_int(seed)) type_error("seed: must be an integer from 0 to 18446744073709551615");
    try {
      s.seed = seed.cast<std::uint64_t>();
    } catch (const py::cast_error&) {
      throw py::value_error("seed: must be an integer from 0 to 18446744073709551615");
    }
  }
  s.noise = to_str(noise, "noise");
  s.interp = to_str(interp, "interp");
  if (!period.is_none()) {
    if (is_int(period)) {
      s.period.push_back(to_int64(period, "period"));
    } else if (py::isinstance<py::sequence>(period) && !py::isinstance<py::str>(period)) {
      for (const auto& p : period.cast<py::sequence>()) s.period.push_back(to_int64(p, "period"));
      if (s.period.empty()) throw py::value_error("period: give 1 to 4 periods, or None");
    } else {
      type_error("period: must be an integer or a sequence of 1 to 4 integers");
    }
  }
  s.fractal = to_str(fractal, "fractal");
  const std::int64_t oct = to_int64(octaves, "octaves");
  if (oct < std::numeric_limits<int>::min() || oct > std::numeric_limits<int>::max()) {
    throw py::value_error("octaves: must be 1 to 32, got " + std::to_string(oct));
  }
  s.octaves = static_cast<int>(oct);
  s.frequency = to_double(frequency, "frequency");
  s.lacunarity = to_double(lacunarity, "lacunarity");
  if (!gain.is_none()) {
    if (!persistence.is_none()) throw py::value_error("persistence and gain are the same option; give one");
    s.persistence = to_double(gain, "gain");
  } else if (!persistence.is_none()) {
    s.persistence = to_double(persistence, "persistence");
  }
  s.normalize = to_bool(normalize, "normalize");
  s.decorrelate = to_bool(decorrelate, "decorrelate");
  s.plane = to_str(plane, "plane");
  s.warp = to_str(warp, "warp");
  s.warp_amplitude = to_double(warp_amplitude, "warp_amplitude");
  s.warp_frequency = to_double(warp_frequency, "warp_frequency");
  const std::int64_t woct = to_int64(warp_octaves, "warp_octaves");
  if (woct < std::numeric_limits<int>::min() || woct > std::numeric_limits<int>::max()) {
    throw py::value_error("warp-octaves: must be 1 to 32, got " + std::to_string(woct));
  }
  s.warp_octaves = static_cast<int>(woct);
  if (!warp_seed.is_none()) {
    if (!is_int(warp_seed)) type_error("warp_seed: must be an integer from 0 to 18446744073709551615");
    try {
      s.warp_seed = warp_seed.cast<std::uint64_t>();
    } catch (const py::cast_error&) {
      throw py::value_error("warp-seed: must be an integer from 0 to 18446744073709551615");
    }
  }
  return s;
}

/// The field and the keyword arguments it was made from (for repr and pickling).
struct py_field {
  perlin::field field;
  py::dict kwargs;
};

template <class T>
using carray = py::array_t<T, py::array::c_style>;

/// Pointers to D coordinate arrays of n elements each (already broadcast and contiguous).
template <class T>
std::vector<const T*> axes_of(const std::vector<carray<T>>& coords, std::size_t& n) {
  if (coords.empty() || coords.size() > 4) throw py::value_error("point: must have 1 to 4 coordinates");
  n = static_cast<std::size_t>(coords[0].size());
  std::vector<const T*> axes;
  for (const auto& c : coords) {
    if (static_cast<std::size_t>(c.size()) != n) throw py::value_error("coordinates: must have the same size");
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
  carray<double> grad({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(d)});
  double* g = grad.mutable_data();
  {
    py::gil_scoped_release release;
    for (std::size_t i = 0; i < n; ++i) {
      double p[4];
      for (std::size_t k = 0; k < d; ++k) p[k] = axes[k][i];
      out[i] = f.field.eval(std::span<const double>(p, d), std::span<double>(g + i * d, d));
    }
  }
  return py::make_tuple(values, grad);
}

/// The fast batch path: float32 (SIMD) or float64 (exact) values at n points.
template <class T>
void eval_points(const py_field& f, const std::vector<carray<T>>& coords, carray<T>& out,
                 unsigned threads, bool strict) {
  std::size_t n = 0;
  const auto axes = axes_of(coords, n);
  if (static_cast<std::size_t>(out.size()) != n) throw py::value_error("out: must hold one value per point");
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
  if (d < 1 || d > 4) throw py::value_error("shape: must have 1 to 4 axes, got " + std::to_string(d));
  const auto check_len = [d](std::size_t len, const char* name) {
    if (len != 0 && len != d) {
      throw py::value_error(std::string(name) + ": must have one value per axis (" + std::to_string(d) + ")");
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
py::tuple fill(const py_field& f, const perlin::grid& g, carray<T>& out, unsigned threads, bool strict) {
  if (static_cast<std::size_t>(out.size()) != g.size()) throw py::value_error("out: must have the grid's shape");
  T* o = out.mutable_data();
  perlin::value_range<T> r;
  {
    py::gil_scoped_release release;
    r = perlin::fill_grid(f.field, g, std::span<T>(o, g.size()), {.threads = threads, .strict = strict});
  }
  return py::make_tuple(r.min, r.max);
}

/// Values and planar gradients (D arrays of the grid's size) on the float SIMD path.
py::tuple fill_deriv(const py_field& f, const perlin::grid& g, carray<float>& out, carray<float>& grad,
                     unsigned threads, bool strict) {
  const std::size_t n = g.size();
  if (static_cast<std::size_t>(out.size()) != n) throw py::value_error("out: must have the grid's shape");
  if (static_cast<std::size_t>(grad.size()) != n * g.dims) throw py::value_error("gradient: must hold D values a sample");
  float* o = out.mutable_data();
  float* d = grad.mutable_data();
  perlin::value_range<float> r;
  {
    py::gil_scoped_release release;
    r = perlin::fill_grid_deriv(f.field, g, std::span<float>(o, n), std::span<float>(d, n * g.dims),
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
  std::vector<std::string> given;
  const auto list = [](const py::handle& v, const char* name) {
    if (py::isinstance<py::str>(v)) return v.cast<std::string>();
    std::string out;
    const py::sequence seq = py::isinstance<py::sequence>(v) ? v.cast<py::sequence>()
                                                             : py::sequence(py::make_tuple(v));
    for (const auto& item : seq) {
      const std::string text = py::repr(py::float_(to_double(item, name)));
      out += (out.empty() ? "" : ",") + text;
    }
    return out;
  };
  for (const auto& [key, value] : kw) {
    const std::string k = key.cast<std::string>();
    given.push_back("--" + k);
    std::replace(given.back().begin(), given.back().end(), '_', '-');
    if (k == "size") {
      const auto s = value.cast<py::sequence>();
      if (s.size() != 2) throw py::value_error("size: must be (width, height)");
      o.size = std::to_string(to_int64(s[0], "size")) + "x" + std::to_string(to_int64(s[1], "size"));
    } else if (k == "frequency") {
      o.frequency = to_double(value, "frequency");
    } else if (k == "scale") {
      o.scale = to_double(value, "scale");
    } else if (k == "origin") {
      o.origin = list(value, "origin");
    } else if (k == "offset") {
      o.offset = list(value, "offset");
    } else if (k == "range") {
      o.range = list(value, "range");
    } else if (k == "bits") {
      o.bits = static_cast<int>(to_int64(value, "bits"));
    } else if (k == "colormap") {
      o.colormap = to_str(value, "colormap");
    } else if (k == "invert") {
      o.invert = to_bool(value, "invert");
    } else if (k == "stretch") {
      o.stretch = to_bool(value, "stretch");
    } else if (k == "tileable") {
      o.tileable = to_bool(value, "tileable");
    } else if (k == "threads") {
      o.threads = static_cast<unsigned>(to_int64(value, "threads"));
    } else if (k == "strict") {
      o.strict = to_bool(value, "strict");
    } else if (k == "seed") {
      if (!is_int(value)) type_error("seed: must be an integer from 0 to 18446744073709551615");
      o.noise.seed = py::str(value).cast<std::string>();
    } else if (k == "noise") {
      o.noise.noise = to_str(value, "noise");
    } else if (k == "interp") {
      o.noise.interp = to_str(value, "interp");
    } else if (k == "period") {
      o.noise.period = is_int(value) ? std::to_string(to_int64(value, "period")) : [&] {
        std::string p;
        for (const auto& item : value.cast<py::sequence>()) {
          p += (p.empty() ? "" : ",") + std::to_string(to_int64(item, "period"));
        }
        return p;
      }();
    } else if (k == "fractal") {
      o.noise.fractal = to_str(value, "fractal");
    } else if (k == "octaves") {
      o.noise.octaves = static_cast<int>(to_int64(value, "octaves"));
    } else if (k == "lacunarity") {
      o.noise.lacunarity = to_double(value, "lacunarity");
    } else if (k == "persistence" || k == "gain") {
      o.noise.persistence = to_double(value, k.c_str());
      given.back() = "--persistence";
    } else if (k == "normalize") {
      o.noise.normalize = to_bool(value, "normalize");
    } else if (k == "decorrelate") {
      o.noise.decorrelate = to_bool(value, "decorrelate");
    } else if (k == "plane") {
      o.noise.plane = to_str(value, "plane");
    } else if (k == "warp") {
      o.noise.warp = to_str(value, "warp");
    } else if (k == "warp_amplitude") {
      o.noise.warp_amplitude = to_double(value, "warp_amplitude");
    } else if (k == "warp_frequency") {
      o.noise.warp_frequency = to_double(value, "warp_frequency");
    } else if (k == "warp_octaves") {
      o.noise.warp_octaves = static_cast<int>(std::clamp<std::int64_t>(to_int64(value, "warp_octaves"), -1, 1000));
    } else if (k == "warp_seed") {
      if (!is_int(value)) type_error("warp_seed: must be an integer from 0 to 18446744073709551615");
      o.noise.warp_seed = py::str(value).cast<std::string>();
    } else {
      type_error("render() got an unexpected keyword argument '" + k + "'");
    }
  }
  perlin_render::render_plan r;
  try {
    r = perlin_render::resolve(o, [&given](const char* name) {
      return std::find(given.begin(), given.end(), name) != given.end();
    });
  } catch (const perlin_render::usage_error& e) {
    throw py::value_error(e.what());
  }
  perlin_render::frame_values v;
  perlin_render::frame_buffer<std::uint8_t> pixels;
  {
    py::gil_scoped_release release;
    pixels = perlin_render::render_pixels(r, 0, v);
  }
  const auto h = static_cast<py::ssize_t>(r.height), w = static_cast<py::ssize_t>(r.width);
  if (r.cmap != nullptr) {
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

PYBIND11_MODULE(_perlin, m) {
  m.doc() = "Ken Perlin's improved noise, exact and fast: the C++ library perlin from Python";
  m.attr("__version__") = PERLIN_VERSION;
  py::register_exception<perlin::invalid_argument>(m, "InvalidArgument", PyExc_ValueError);
  py::register_exception<perlin::io_error>(m, "IOError", PyExc_OSError);

  py::class_<py_field>(m, "_Field")
      .def(py::init([](const py::object& seed, const py::object& noise, const py::object& interp,
                       const py::object& period, const py::object& fractal, const py::object& octaves,
                       const py::object& frequency, const py::object& lacunarity,
                       const py::object& persistence, const py::object& gain,
                       const py::object& normalize, const py::object& decorrelate, const py::object& plane,
                       const py::object& warp, const py::object& warp_amplitude, const py::object& warp_frequency,
                       const py::object& warp_octaves, const py::object& warp_seed) {
             const perlin::field_spec s =
                 spec_from(seed, noise, interp, period, fractal, octaves, frequency, lacunarity, persistence, gain,
                           normalize, decorrelate, plane, warp, warp_amplitude, warp_frequency, warp_octaves, warp_seed);
             py::dict kw;
             kw["seed"] = seed;
             kw["noise"] = noise;
             kw["interp"] = interp;
             kw["period"] = period;
             kw["fractal"] = fractal;
             kw["octaves"] = octaves;
             kw["frequency"] = frequency;
             kw["lacunarity"] = lacunarity;
             kw["persistence"] = py::float_(s.persistence);
             kw["normalize"] = normalize;
             kw["decorrelate"] = decorrelate;
             kw["plane"] = plane;
             if (s.warp != "none") {
               kw["warp"] = warp;
               kw["warp_amplitude"] = warp_amplitude;
               kw["warp_frequency"] = warp_frequency;
               kw["warp_octaves"] = warp_octaves;
               kw["warp_seed"] = warp_seed;
             }
             return py_field{perlin::make_field(s), kw};
           }),
           py::kw_only(), py::arg("seed") = py::none(), py::arg("noise") = "improved",
           py::arg("interp") = "quintic", py::arg("period") = py::none(), py::arg("fractal") = "none",
           py::arg("octaves") = 1, py::arg("frequency") = 1.0, py::arg("lacunarity") = 2.0,
           py::arg("persistence") = py::none(), py::arg("gain") = py::none(),
           py::arg("normalize") = false, py::arg("decorrelate") = false, py::arg("plane") = "aligned",
           py::arg("warp") = "none", py::arg("warp_amplitude") = 1.0, py::arg("warp_frequency") = 1.0,
           py::arg("warp_octaves") = 3, py::arg("warp_seed") = py::none())
      .def_property_readonly("_kwargs", [](const py_field& f) { return f.kwargs; })
      .def("_range", [](const py_field& f, std::size_t dims) { return f.field.range(dims); })
      .def("_eval", &eval_exact, py::arg("coords"), py::arg("gradient"), py::arg("threads"))
      .def("_points32", &eval_points<float>)
      .def("_points64", &eval_points<double>)
      .def("_grid32", [](const py_field& f, const perlin::grid& g, carray<float>& out, unsigned t, bool s) { return fill(f, g, out, t, s); })
      .def("_grid64", [](const py_field& f, const perlin::grid& g, carray<double>& out, unsigned t, bool s) { return fill(f, g, out, t, s); })
      .def("_grid_deriv32", &fill_deriv);

  py::class_<perlin::grid>(m, "_Grid").def("size", &perlin::grid::size);
  m.def("_make_grid", &make_grid);
  m.def("render", &render, py::arg("preset") = "plain",
        "The pixels `perlin render` writes to a PNG, as a uint8 (h, w) or (h, w, 3) array, or\n"
        "uint16 (h, w) with bits=16. Keywords: the command's options (size=(w, h), frequency,\n"
        "scale, origin, offset, bits, colormap, range, stretch, tileable, seed, noise, interp,\n"
        "period, fractal, octaves, lacunarity, persistence or gain, normalize, decorrelate,\n"
        "threads, strict).");
  m.def("targets", &perlin::available_targets, "The SIMD targets usable here, best first.");
  m.def("active_target", &perlin::active_target);
  m.def("set_max_target", [](const std::string& name) { perlin::set_max_target(name); },
        "Cap the SIMD target ('' removes the cap).");
}
