// The plan builders of the bulk calls (grid_plan.hpp) and the one decision of which path a call
// takes (route_of): from a field and a grid or a point batch to the plain data the per-target
// kernels read (detail/grid_plan.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "bulk/plans.hpp"
#include "detail/octaves.hpp"
#include "detail/reference.hpp"
#include "field/warp_displacement.hpp"
#include "noise/noise_kinds.hpp"
#include "perlin/lattice.hpp"

namespace perlin {

namespace {

/// Per-octave frequency, amplitude, offsets and periods: the recurrence of the scalar path
/// (detail::octave_walk).
struct octave_params {
  double freq;
  double amp;
  std::array<double, 4> offset;
  std::array<detail::axis_wrap, k_max_dims> wrap;
};

std::vector<octave_params> octave_list(const field& f) {
  std::vector<octave_params> out;
  for (detail::octave_walk o(f.fractal(), f.lattice()); o.index < f.fractal().active_octaves();
       o.next()) {
    out.push_back({o.freq, o.amp, {o.offset(0), o.offset(1), o.offset(2), o.offset(3)}, o.wraps});
  }
  return out;
}

/// The gather kernels' tables of a permutation (hash_tables).
detail::hash_tables hash_tables_of(const perlin::permutation& perm) {
  detail::hash_tables t;
  for (std::size_t i = 0; i < 512; ++i) t.perm[i] = perm[i];
  for (std::size_t i = 0; i < 256; ++i) t.bytes[i] = static_cast<std::uint8_t>(perm[i]);
  for (std::size_t i = 0; i < 512; ++i) t.perm_z0[i] = perm[perm[i]];
  for (std::size_t i = 0; i < 512; ++i) {
    const std::size_t next = (i + 1) & 511;  // the doubled table repeats every 256
    t.pairs[i] = t.perm[i] | t.perm[next] << 16;
    t.pairs_z0[i] = t.perm_z0[i] | t.perm_z0[next] << 16;
  }
  return t;
}

/// A permutation and its gather tables.
struct tables_entry {
  perlin::permutation perm;
  std::shared_ptr<const detail::hash_tables> tables;
};

/// The tables of the permutations used last, most recent first: building them (11 KB) cost about
/// 30% of a 64x64 grid call. Shared pointers, so that an entry pushed out while a call reads it
/// lives until that call ends. Eight entries cover the seeds of an animation's or a chunked
/// world's calls; a miss only costs the build.
std::shared_ptr<const detail::hash_tables> recent_hash_tables(const perlin::permutation& perm) {
  constexpr std::size_t k_entries = 8;
  static std::mutex lock;
  static std::vector<tables_entry> recent;  // at most k_entries, most recent first
  {
    const std::lock_guard<std::mutex> hold(lock);
    for (std::size_t i = 0; i < recent.size(); ++i) {
      if (recent[i].perm == perm) {
        std::rotate(recent.begin(), recent.begin() + static_cast<std::ptrdiff_t>(i),
                    recent.begin() + static_cast<std::ptrdiff_t>(i) + 1);
        return recent.front().tables;
      }
    }
  }
  auto built = std::make_shared<const detail::hash_tables>(hash_tables_of(perm));
  const std::lock_guard<std::mutex> hold(lock);
  if (recent.size() == k_entries) recent.pop_back();
  recent.insert(recent.begin(), {perm, built});
  return built;
}

/// The tables of `perm`: this thread's last ones when they are its, without the lock (a thread
/// that streams the chunks of one world asks for the same tables every call, and threads doing
/// so at once then do not wait on each other), else recent_hash_tables'.
std::shared_ptr<const detail::hash_tables> shared_hash_tables(const perlin::permutation& perm) {
  thread_local tables_entry last;
  if (last.tables == nullptr || last.perm != perm) last = {perm, recent_hash_tables(perm)};
  return last.tables;
}

template <class Plan>
void fill_common(Plan& plan, const field& f, bool strict) {
  plan.tables = shared_hash_tables(f.lattice().perm());
  plan.improved = f.kind() == noise_kind::improved;
  if (!plan.improved) plan.interp = std::get<value_noise>(f.base()).interp();
  plan.kind = f.fractal().kind();
  plan.ridged = {static_cast<float>(f.fractal().ridged_offset()),
                 static_cast<float>(f.fractal().ridged_gain())};
  plan.normalize = f.fractal().normalize();
  plan.normalize_by = static_cast<float>(1.0 / f.fractal().amplitude_sum());
  plan.strict = strict;
}

/// The float and double sample kernels cover 1 to 3 lattice dimensions with, on every octave,
/// no period or a power-of-two period (whose wrap is a mask).
bool points_kernel_covers(const field& f, std::size_t dims) {
  if (dims > 3) return false;
  for (detail::octave_walk o(f.fractal(), f.lattice()); o.index < f.fractal().active_octaves();
       o.next()) {
    for (std::size_t k = 0; k < dims; ++k) {
      if (o.wraps[k].modulo) return false;
    }
  }
  return true;
}

/// A field whose samples it turns onto a rotated plane (2-D and 3-D coordinates).
bool turns(const field& f, std::size_t dims) {
  return f.plane() == plane::rotated && dims >= 2 && dims <= 3;
}

/// The exact double rows: improved noise of kind none or fbm, aligned, not warped, 2-D or 3-D,
/// rows of up to 65,536 samples (the plan holds 20 bytes per column and octave: a wider row
/// would make it larger than a band of the output; those take the scalar path, same bits).
bool exact_rows_cover(const field& f, std::size_t dims, std::size_t row_length) {
  const fractal_kind kind = f.fractal().kind();
  return f.kind() == noise_kind::improved &&
         (kind == fractal_kind::none || kind == fractal_kind::fbm) && f.plane() == plane::aligned &&
         !f.warped() && (dims == 2 || dims == 3) && row_length <= 65536;
}

}  // namespace

/// The sample kernel (eval_points_d) for `dims` coordinates: the lattice dimensions it would
/// hash (3 on a rotated plane), or 0 when it does not cover the field: warps, 4-D, periods that
/// are not powers of two, value noise with the cosine interpolation.
std::size_t detail::sample_lattice_dims(const field& f, std::size_t dims) {
  const std::size_t lattice_dims = turns(f, dims) ? 3 : dims;
  if (f.warped() || lattice_dims > 3) return 0;
  if (f.kind() == noise_kind::value &&
      std::get<value_noise>(f.base()).interp() == interpolation::cosine) {
    return 0;
  }
  return points_kernel_covers(f, lattice_dims) ? lattice_dims : 0;
}

std::size_t detail::warp_lattice_dims(const field& f, std::size_t dims) {
  const std::size_t lattice_dims = turns(f, dims) ? 3 : dims;
  if (!f.warped() || lattice_dims > 3 || f.fractal().kind() == fractal_kind::eroded) return 0;
  if (f.kind() == noise_kind::value &&
      std::get<value_noise>(f.base()).interp() == interpolation::cosine) {
    return 0;
  }
  if (!points_kernel_covers(f, lattice_dims)) return 0;
  // Each warp octave's periods, as the scalar path scales them (warp.cpp's displace).
  std::array<detail::axis_wrap, k_max_dims> wraps =
      detail::wraps_of(detail::warp_lattice(f.warp(), f.lattice()));
  for (int i = 0; i < f.warp().active_octaves(); ++i) {
    for (std::size_t k = 0; k < lattice_dims; ++k) {
      if (wraps[k].modulo) return 0;
    }
    detail::scale_periods(wraps, 2);
  }
  return lattice_dims;
}

// The recurrence of warp.cpp's displace: freq_i = f F 2^i, scale_i = (A / f) 2^-i, the warp
// lattice's periods doubled each octave.
detail::warp_plan detail::make_warp_plan(const field& f, std::size_t dims, bool strict) {
  const std::size_t d = warp_lattice_dims(f, dims);
  const perlin::warp& w = f.warp();
  const lattice wl = detail::warp_lattice(w, f.lattice());
  detail::warp_plan plan;
  plan.dims = static_cast<int>(d);
  plan.progressive = w.kind() == warp_kind::progressive;
  plan.turned = turns(f, dims);
  plan.field = *make_points_plan(f, d, strict);
  std::array<detail::axis_wrap, k_max_dims> wraps = detail::wraps_of(wl);
  const double frequency = f.fractal().frequency();
  double freq = frequency * w.frequency();
  double scale = w.amplitude() / frequency;
  detail::points_plan one;
  one.tables = shared_hash_tables(wl.perm());
  one.dims = plan.dims;
  one.improved = plan.field.improved;
  one.interp = plan.field.interp;
  one.kind = fractal_kind::none;
  one.strict = strict;
  one.amp = {1.0f};
  for (int i = 0; i < w.active_octaves(); ++i) {
    for (std::size_t k = 0; k < d; ++k) {
      one.freq = {freq};
      std::array<double, 4> offset{};
      for (std::size_t c = 0; c < d; ++c) offset[c] = detail::warp_offset(i, k, c);
      one.offset = {offset};
      one.mask = {{wraps[0].mask, wraps[1].mask, wraps[2].mask, wraps[3].mask}};
      plan.noise.push_back(one);
    }
    plan.scale.push_back(scale);
    freq *= 2;
    scale *= 0.5;
    detail::scale_periods(wraps, 2);
  }
  return plan;
}

detail::bulk_route detail::route_of(const field& f, bulk_call call, std::size_t dims,
                                    std::size_t row_length) {
  // Noise kinds without SIMD kernels (simplex noise, noise/noise_kinds.hpp): field::eval per
  // sample.
  if (!detail::noise_kind_of(f.kind()).simd) return bulk_route::scalar;
  // The eroded fractal needs every octave's gradient: the sample kernel computes it, so float
  // grids' values take it (aligned or rotated, not warped); derivatives need every octave's
  // Hessian, which no kernel computes: the double scalar path, sample by sample.
  if (f.fractal().kind() == fractal_kind::eroded) {
    if (call == bulk_call::grid_float && !f.warped() && detail::sample_lattice_dims(f, dims) != 0)
      return bulk_route::sample_kernel;
    return bulk_route::scalar;
  }
  switch (call) {
    case bulk_call::grid_float:
      // The row kernels follow lattice-aligned rows: rotated planes go sample by sample (their
      // lattice coordinates in double, the noise in SIMD float); warped fields take the double
      // path.
      if (f.warped()) {
        return detail::warp_lattice_dims(f, dims) != 0 ? bulk_route::warp_kernel
                                                       : bulk_route::scalar;
      }
      if (f.plane() == plane::rotated && dims >= 2) {
        return detail::sample_lattice_dims(f, dims) != 0 ? bulk_route::sample_kernel
                                                         : bulk_route::scalar;
      }
      return bulk_route::row_kernel;
    case bulk_call::grid_double:
      if (exact_rows_cover(f, dims, row_length)) return bulk_route::exact_rows;
      if (f.fractal().kind() == fractal_kind::none && f.plane() == plane::aligned && !f.warped())
        return bulk_route::plain_scalar;
      return bulk_route::scalar;
    case bulk_call::grid_deriv_float:
      if (f.warped()) {
        return detail::warp_lattice_dims(f, dims) != 0 ? bulk_route::warp_kernel
                                                       : bulk_route::scalar;
      }
      return detail::sample_lattice_dims(f, dims) != 0 ? bulk_route::sample_kernel
                                                       : bulk_route::scalar;
    case bulk_call::points_float:
      // Points are not turned here (a rotated field's points take the scalar path).
      if (f.plane() == plane::rotated && dims >= 2) return bulk_route::scalar;
      if (f.warped()) {
        return detail::warp_lattice_dims(f, dims) != 0 ? bulk_route::warp_kernel
                                                       : bulk_route::scalar;
      }
      return points_kernel_covers(f, dims) ? bulk_route::point_kernel : bulk_route::scalar;
    case bulk_call::points_deriv_float:
      if (turns(f, dims)) return bulk_route::scalar;
      if (f.warped()) {
        return detail::warp_lattice_dims(f, dims) != 0 ? bulk_route::warp_kernel
                                                       : bulk_route::scalar;
      }
      return detail::sample_lattice_dims(f, dims) != 0 ? bulk_route::sample_kernel
                                                       : bulk_route::scalar;
    case bulk_call::grid_deriv_double:
    case bulk_call::points_double:
    case bulk_call::points_deriv_double:
      break;
  }
  return bulk_route::scalar;
}

const char* detail::route_name(bulk_route r) noexcept {
  switch (r) {
    case bulk_route::row_kernel:
      return "row_kernel";
    case bulk_route::sample_kernel:
      return "sample_kernel";
    case bulk_route::point_kernel:
      return "point_kernel";
    case bulk_route::warp_kernel:
      return "warp_kernel";
    case bulk_route::exact_rows:
      return "exact_rows";
    case bulk_route::plain_scalar:
      return "plain_scalar";
    case bulk_route::scalar:
      break;
  }
  return "scalar";
}

// The doubles of the plan come from the scalar path's own code: plain_octave's q, split_axis, fade.
std::optional<detail::exact_grid_plan> detail::make_exact_grid_plan(const field& f, const grid& g) {
  if (!exact_rows_cover(f, g.dims, g.count[0])) return std::nullopt;
  const lattice& lat = f.lattice();
  detail::exact_grid_plan plan;
  plan.dims = static_cast<int>(g.dims);
  plan.nx = g.count[0];
  plan.count = g.count;
  plan.row_stride = g.count[0];
  plan.tables = shared_hash_tables(lat.perm());
  plan.normalize = f.fractal().normalize();
  plan.amplitude_sum = f.fractal().amplitude_sum();
  // The octaves of fractal.cpp's loop (kind none is its one octave: plain_octave's operations).
  for (detail::octave_walk o(f.fractal(), lat); o.index < f.fractal().active_octaves(); o.next()) {
    // The octave coordinate of index i along axis a, split like the scalar path splits it.
    const auto sample = [&](std::size_t a, std::size_t i, detail::axis_index& li, double& fr) {
      double q = g.coordinate(a, i) * o.freq;
      if (o.decorrelated()) q = q + o.offset(a);
      if (!std::isfinite(q)) return false;
      li = detail::split_axis(q, o.wraps[a], fr);
      return true;
    };
    detail::exact_grid_plan::octave oct;
    oct.amp = o.amp;
    const std::size_t padded = plan.nx + detail::k_pad;
    oct.fx.resize(padded);
    oct.u.resize(padded);
    oct.cell.resize(padded);
    oct.a.reserve(padded);
    oct.b.reserve(padded);
    detail::axis_index previous{~0u, ~0u};
    for (std::size_t i = 0; i < padded; ++i) {
      detail::axis_index li{};
      double fr = 0;
      if (!sample(0, std::min(i, plan.nx - 1), li, fr)) return std::nullopt;
      oct.fx[i] = fr;
      oct.u[i] = detail::fade(fr);
      if (i < plan.nx && (li.i0 != previous.i0 || li.i1 != previous.i1)) {  // a new cell
        oct.a.push_back(lat.perm()[li.i0]);
        oct.b.push_back(lat.perm()[li.i1]);
        previous = li;
      }
      oct.cell[i] = static_cast<std::int32_t>(oct.a.size() - 1);
    }
    oct.cells = oct.a.size();
    oct.a.resize(oct.cells + detail::k_pad, oct.a.back());  // whole vectors of cells may be read
    oct.b.resize(oct.cells + detail::k_pad, oct.b.back());
    for (std::size_t a = 1; a < g.dims; ++a) {
      for (std::size_t i = 0; i < g.count[a]; ++i) {
        detail::axis_index li{};
        double fr = 0;
        if (!sample(a, i, li, fr)) return std::nullopt;
        oct.axis[a].push_back({li.i0, li.i1, fr, detail::fade(fr)});
      }
    }
    plan.octaves.push_back(std::move(oct));
  }
  return plan;
}

namespace {

/// make_grid_plan's work, in steps: the storage (one allocation a call, carved into the octaves'
/// tables and the call's scratch), then per octave its columns along x (per-sample gathers or
/// cells) and its samples along axes 1..3.
class grid_plan_builder {
 public:
  grid_plan_builder(detail::grid_plan& plan, const field& /*f*/, const grid& g, bool strict,
                    const detail::kernels& k)
      : plan_(plan),
        g_(g),
        k_(k),
        nx_(g.count[0]),
        padded_(nx_ + detail::k_pad),
        point_room_(2 * nx_ + detail::k_pad) {
    // Strict mode promises the same bits on every target: the same choice of method on each.
    plan.vendor = detail::this_cpu_vendor();
    widths_ = strict ? detail::k_portable_gather_below_width : k.gather_below_width(plan.vendor);
    // The axes' floors, fractions and blend weights, in lanes by the target's kernel (the same
    // doubles as one sample at a time); the cosine's weights are computed here.
    weight_ = plan.improved ? interpolation::quintic : plan.interp;
    cosine_ = weight_ == interpolation::cosine;
  }

  void allocate(std::size_t octave_count, std::size_t longest);
  void add_octave(const detail::octave_walk& op);

 private:
  using sample = detail::octave_plan::axis_sample;
  static constexpr std::size_t k_line_words = detail::k_storage_alignment / 4;  // floats, int32s
  static std::size_t whole_lines(std::size_t words) {
    return (words + k_line_words - 1) / k_line_words * k_line_words;
  }
  /// n entries from `next`, which then moves on by `stride` (n when 0).
  template <class T>
  static std::span<T> take(T*& next, std::size_t n, std::size_t stride = 0) {
    const std::span view(next, n);
    next += stride == 0 ? n : stride;
    return view;
  }
  /// The padding of a column table past nx: copies of its last column.
  template <class T>
  void pad_with_last(std::span<T> column) const {
    std::fill(column.begin() + static_cast<std::ptrdiff_t>(nx_), column.end(), column[nx_ - 1]);
  }
  void fill_axis(std::size_t a, const detail::octave_walk& op);
  void fill_gathers(detail::octave_plan& o, const detail::axis_wrap& wrap);
  void fill_cells(detail::octave_plan& o, const detail::axis_wrap& wrap);
  void fill_points(detail::octave_plan& o);
  void fill_samples(detail::octave_plan& o, std::size_t a, const detail::axis_wrap& wrap);

  detail::grid_plan& plan_;
  const grid& g_;
  const detail::kernels& k_;
  const std::size_t nx_, padded_, point_room_;
  std::size_t column_stride_ = 0, point_stride_ = 0;
  std::array<double, 4> widths_{};
  interpolation weight_ = interpolation::quintic;
  bool cosine_ = false;
  // Where the next tables go in the storage, and the call's scratch in it.
  float* next_float_ = nullptr;
  std::int32_t* next_int_ = nullptr;
  sample* next_sample_ = nullptr;
  double* floors_ = nullptr;
  double* fractions_ = nullptr;
  double* weights_ = nullptr;
  std::uint32_t* cx0_ = nullptr;  // per cell: lower
  std::uint32_t* cx1_ = nullptr;  // and upper lattice index along x
};

/// Everything the plan's octaves view, and the call's scratch, in one allocation
/// (grid_plan::storage): per octave, 2 float and at most 2 int32 columns (px0 and px1, or cell)
/// and up to 2 nx points (each cell's two), each padded by k_pad and each starting on 64 bytes
/// (the kernels' loads at multiples of N columns are then whole cache lines: misaligned, every
/// AVX-512 load splits two), then the samples of axes 1..3, the axis kernel's floors, fractions
/// and weights, the cells' lattice indices, and the octave plans and amplitudes themselves.
void grid_plan_builder::allocate(std::size_t octave_count, std::size_t longest) {
  column_stride_ = whole_lines(padded_);
  point_stride_ = whole_lines(point_room_);
  std::size_t samples_per_octave = 0;
  for (std::size_t a = 1; a < g_.dims; ++a) samples_per_octave += g_.count[a];
  const std::size_t float_bytes = 2 * column_stride_ * octave_count * sizeof(float);
  const std::size_t int_bytes =
      (2 * column_stride_ + point_stride_) * octave_count * sizeof(std::int32_t);
  const std::size_t sample_bytes = samples_per_octave * octave_count * sizeof(sample);
  const std::size_t double_bytes = 3 * longest * sizeof(double);
  const std::size_t cx_bytes = 2 * nx_ * sizeof(std::uint32_t);
  const std::size_t octave_bytes = octave_count * sizeof(detail::octave_plan);
  const std::size_t amp_bytes = octave_count * sizeof(float);
  static_assert(alignof(sample) <= alignof(double) && sizeof(sample) % alignof(double) == 0);
  // The octave plans follow the cells' indices (a multiple of 8 bytes from the 64-byte start):
  // aligned, and views and numbers only, so the storage's release is their end.
  static_assert(alignof(detail::octave_plan) <= 8 &&
                std::is_trivially_destructible_v<detail::octave_plan>);
  // new std::byte[n], not make_unique (which zeroes what is written next) or
  // make_unique_for_overwrite (which the WebAssembly build's libc++ lacks); aligned by hand
  // rather than by an aligned operator new, whose memalign cost a 64x64 call 1.5% more
  // instructions.
  constexpr std::size_t align = detail::k_storage_alignment;
  plan_.storage.reset(new std::byte[float_bytes + int_bytes + sample_bytes + double_bytes +
                                    cx_bytes + octave_bytes + amp_bytes + align - 1]);
  const auto address = reinterpret_cast<std::uintptr_t>(plan_.storage.get());
  std::byte* next_byte = plan_.storage.get() + ((align - address % align) % align);
  // The arrays of trivial types in it: a std::byte array creates them implicitly (C++20's
  // implicit object creation); std::launder gives the pointers to them.
  const auto carve = [&]<class T>(std::type_identity<T>, std::size_t bytes) {
    T* at = std::launder(reinterpret_cast<T*>(next_byte));
    next_byte += bytes;
    return at;
  };
  next_float_ = carve(std::type_identity<float>{}, float_bytes);
  next_int_ = carve(std::type_identity<std::int32_t>{}, int_bytes);
  next_sample_ = carve(std::type_identity<sample>{}, sample_bytes);
  floors_ = carve(std::type_identity<double>{}, double_bytes);
  fractions_ = floors_ + longest;
  weights_ = fractions_ + longest;
  cx0_ = carve(std::type_identity<std::uint32_t>{}, cx_bytes);
  cx1_ = cx0_ + nx_;
  plan_.octaves = {carve(std::type_identity<detail::octave_plan>{}, octave_bytes), octave_count};
  plan_.amp = {carve(std::type_identity<float>{}, amp_bytes), octave_count};
}

/// Axis a's floors, fractions and weights at octave `op` into the scratch.
void grid_plan_builder::fill_axis(std::size_t a, const detail::octave_walk& op) {
  const detail::axis_line line{.origin = g_.origin[a],
                               .first = static_cast<double>(g_.first[a]),
                               .step = g_.step[a],
                               .freq = op.freq,
                               .offset = op.offset(a),
                               .weight = weight_};
  k_.axis_fractions(line, g_.count[a], floors_, fractions_, weights_);
  if (cosine_) {
    for (std::size_t i = 0; i < g_.count[a]; ++i)
      weights_[i] = detail::blend_weight(false, interpolation::cosine, fractions_[i]);
  }
}

/// Per-sample gathers read each column's p[x] at both corners, and no cells (after
/// fill_axis(0, ...)).
void grid_plan_builder::fill_gathers(detail::octave_plan& o, const detail::axis_wrap& wrap) {
  o.px0 = take(next_int_, padded_, column_stride_);
  o.px1 = take(next_int_, padded_, column_stride_);
  // Raw pointers: through o's spans the loop reloaded them after every store.
  const std::int32_t* perm = plan_.tables->perm.data();
  std::int32_t* px0 = o.px0.data();
  std::int32_t* px1 = o.px1.data();
  const double* floors = floors_;
  for (std::size_t i = 0; i < nx_; ++i) {
    const detail::axis_index li = detail::lattice_index(floors[i], wrap);
    px0[i] = perm[li.i0];
    px1[i] = perm[li.i1];
  }
  pad_with_last(o.px0);
  pad_with_last(o.px1);
}

/// The cells of an octave that is not hashed per sample, and the lattice points they have as
/// corners (after fill_axis(0, ...)).
void grid_plan_builder::fill_cells(detail::octave_plan& o, const detail::axis_wrap& wrap) {
  // The cells along the row: a new one where the floor changes, its lattice indices computed
  // once (not per column). Raw pointers and no call inside the loop: they stay in registers.
  o.cell = take(next_int_, padded_, column_stride_);
  o.points = take(next_int_, point_room_, point_stride_);
  std::int32_t* cell = o.cell.data();
  const double* floors = floors_;
  std::uint32_t* cx0 = cx0_;
  std::uint32_t* cx1 = cx1_;
  std::int32_t cells = 0;
  double previous_floor = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < nx_; ++i) {
    const double fl = floors[i];
    if (fl != previous_floor) {  // a new cell along the row
      const detail::axis_index li = detail::lattice_index(fl, wrap);
      cx0[cells] = li.i0;
      cx1[cells] = li.i1;
      ++cells;
      previous_floor = fl;
    }
    cell[i] = cells - 1;
  }
  o.cells = static_cast<std::size_t>(cells);
  pad_with_last(o.cell);
  fill_points(o);
}

/// The lattice points along x the cells' corners are (after fill_cells): when each cell's upper
/// corner is the next one's lower (cells 1 sample wide or more, rising), or its previous one's
/// (falling), every point once; otherwise each cell's two.
void grid_plan_builder::fill_points(detail::octave_plan& o) {
  const auto& perm = plan_.tables->perm;
  const std::uint32_t* cx0 = cx0_;
  const std::uint32_t* cx1 = cx1_;
  bool rising = true, falling = true;
  for (std::size_t c = 0; c + 1 < o.cells; ++c) {
    rising = rising && cx1[c] == cx0[c + 1];
    falling = falling && cx1[c + 1] == cx0[c];
  }
  std::size_t point_count = 0;
  const auto add_points = [&](const std::uint32_t* from, std::size_t n) {
    for (std::size_t c = 0; c < n; ++c) o.points[point_count++] = perm[from[c]];
  };
  if (rising) {
    add_points(cx0, o.cells);
    add_points(cx1 + o.cells - 1, 1);
    o.side_offset = {0, 1};
  } else if (falling) {
    add_points(cx1, 1);
    add_points(cx0, o.cells);
    o.side_offset = {1, 0};
  } else {
    add_points(cx0, o.cells);
    add_points(cx1, o.cells);
    o.side_offset = {0, static_cast<std::uint32_t>(o.cells)};
  }
  o.point_count = point_count;
  // Padding so that the vectorised passes may read whole vectors of points.
  o.points = o.points.first(point_count + detail::k_pad);
  std::fill(o.points.begin() + static_cast<std::ptrdiff_t>(point_count), o.points.end(),
            o.points[point_count - 1]);
}

/// The samples of axis a (1..3) of octave o (after fill_axis(a, ...)).
void grid_plan_builder::fill_samples(detail::octave_plan& o, std::size_t a,
                                     const detail::axis_wrap& wrap) {
  // Member by member: a whole struct built on the stack and copied in 16 bytes at a time
  // stalled on store forwarding (a quarter of a small grid's plan).
  o.axis[a] = take(next_sample_, g_.count[a]);
  sample* samples = o.axis[a].data();
  const double* floors = floors_;
  const double* fractions = fractions_;
  const double* weights = weights_;
  // The lattice indices once per cell along the axis, like the cells along x.
  detail::axis_index li{};
  double previous_floor = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t idx = 0; idx < g_.count[a]; ++idx) {
    if (floors[idx] != previous_floor) {
      li = detail::lattice_index(floors[idx], wrap);
      previous_floor = floors[idx];
    }
    samples[idx].i0 = li.i0;
    samples[idx].i1 = li.i1;
    samples[idx].f = fractions[idx];
    samples[idx].t = weights[idx];
  }
}

/// Octave `op` of the scalar path's recurrence, built in place (on the stack then copied, its
/// 300 bytes were written twice).
void grid_plan_builder::add_octave(const detail::octave_walk& op) {
  const auto oi = static_cast<std::size_t>(op.index);
  detail::octave_plan& o = *::new (plan_.octaves.data() + oi) detail::octave_plan();
  o.freq = op.freq;
  o.offset = {op.offset(0), op.offset(1), op.offset(2), op.offset(3)};
  o.wrap = op.wraps;
  plan_.amp[oi] = static_cast<float>(op.amp);
  // 4-D rows always take the cells (row_by_gathers covers 1 to 3 dimensions).
  o.gather = g_.dims <= 3 && std::abs(g_.step[0] * op.freq) * widths_[g_.dims - 1] > 1.0;
  o.fx = take(next_float_, padded_, column_stride_);
  o.t = take(next_float_, padded_, column_stride_);
  fill_axis(0, op);
  for (std::size_t i = 0; i < nx_; ++i) {  // in lanes (cvtpd2ps): no branch, no min
    o.fx[i] = static_cast<float>(fractions_[i]);
    o.t[i] = static_cast<float>(weights_[i]);
  }
  pad_with_last(o.fx);
  pad_with_last(o.t);
  if (o.gather) {
    fill_gathers(o, op.wraps[0]);
  } else {
    fill_cells(o, op.wraps[0]);
  }
  for (std::size_t a = 1; a < g_.dims; ++a) {
    fill_axis(a, op);
    fill_samples(o, a, op.wraps[a]);
  }
}

}  // namespace

detail::grid_plan detail::make_grid_plan(const field& f, const grid& g, bool strict,
                                         const kernels& k) {
  detail::grid_plan plan;
  fill_common(plan, f, strict);
  plan.dims = static_cast<int>(g.dims);
  std::size_t longest = 0;
  for (std::size_t a = 0; a < g.dims; ++a) {
    plan.count[a] = g.count[a];
    plan.origin[a] = g.origin[a];
    plan.step[a] = g.step[a];
    plan.first[a] = g.first[a];
    longest = std::max(longest, g.count[a]);
  }
  grid_plan_builder build(plan, f, g, strict, k);
  const auto octave_count = static_cast<std::size_t>(f.fractal().active_octaves());
  build.allocate(octave_count, longest);
  // The octaves of the scalar path's recurrence (detail::octave_walk), walked here rather than
  // listed first: a list was one more allocation a call.
  for (detail::octave_walk op(f.fractal(), f.lattice());
       static_cast<std::size_t>(op.index) < octave_count; op.next()) {
    build.add_octave(op);
  }
  return plan;
}

std::optional<detail::points_plan> detail::make_points_plan(const field& f, std::size_t dims,
                                                            bool strict) {
  if (!points_kernel_covers(f, dims)) return std::nullopt;
  const auto octaves = octave_list(f);
  detail::points_plan plan;
  fill_common(plan, f, strict);
  plan.dims = static_cast<int>(dims);
  plan.erosion = static_cast<float>(f.fractal().erosion());
  for (const auto& op : octaves) {
    plan.amp.push_back(static_cast<float>(op.amp));
    plan.freq.push_back(op.freq);
    plan.offset.push_back(op.offset);
    plan.mask.push_back({op.wrap[0].mask, op.wrap[1].mask, op.wrap[2].mask, op.wrap[3].mask});
  }
  return plan;
}

}  // namespace perlin
