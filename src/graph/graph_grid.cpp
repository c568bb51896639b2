// Bulk evaluation of graphs (graph_grid.hpp). The plan of graph.cpp, run over arrays: every field
// step fills a whole buffer through the field's bulk calls (its SIMD routes and the library's
// threads), then the other steps that are ready run in one pass over chunks of samples, chunk
// after chunk on every core, each step's kernel (graph_kernels.cpp) over the chunk. A point
// transform's point step computes, per sample, the point its input sees (and its Jacobian), a
// context whose field steps then take the point batches. Every step is elementwise, so neither
// the thread count nor the chunking changes a bit.
#include "perlin/graph_grid.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bulk/bulk_checks.hpp"
#include "detail/error.hpp"
#include "graph/graph_access.hpp"
#include "graph/graph_kernels.hpp"
#include "runtime/parallel.hpp"

namespace perlin {

namespace {

using detail::graph_data;
using detail::graph_node_data;
using detail::plan_step;
using detail::value_grad;

constexpr std::size_t k_chunk = 32768;  // samples per chunk of a pass (a tile: whole rows)
constexpr std::size_t k_samples_per_thread = 16384;  // the least work worth a thread

/// Buffers kept by each thread between calls (up to 64 MiB), so that a call in a row of calls
/// neither faults fresh pages in nor zeroes them.
template <class T>
class buffer_pool {
 public:
  static std::vector<T> take(std::size_t n) {
    auto& free = list();
    for (std::size_t i = 0; i < free.size(); ++i) {
      if (free[i].capacity() >= n) {
        std::vector<T> v = std::move(free[i]);
        free.erase(free.begin() + static_cast<std::ptrdiff_t>(i));
        v.resize(n);
        return v;
      }
    }
    return std::vector<T>(n);
  }
  static void give(std::vector<T>&& v) {
    constexpr std::size_t k_keep = std::size_t{64} << 20;
    if (v.capacity() == 0 || v.capacity() * sizeof(T) > k_keep) return;
    auto& free = list();
    std::size_t kept = v.capacity() * sizeof(T);
    for (const auto& f : free) kept += f.capacity() * sizeof(T);
    if (kept <= k_keep) free.push_back(std::move(v));
  }

 private:
  static std::vector<std::vector<T>>& list() {
    thread_local std::vector<std::vector<T>> free;
    return free;
  }
};

/// A point context: the points its steps see (planar, dims arrays of n) and, for derivatives,
/// the Jacobian of its points with respect to its parent's (jac[(r * q_dims + j) * n + i]).
struct context_data {
  int dims = 0;
  int q_dims = 0;
  bool ready = false;
  std::vector<double> q;
  std::vector<double> jac;
};

template <class T>
class engine {
 public:
  engine(const graph_data& d, std::size_t n, int dims, const grid* g, const point_set<T>* p,
         const bulk_options& o, bool deriv, std::span<T> out, std::span<T> gradient)
      : d_(d), n_(n), g_(g), p_(p), o_(o), deriv_(deriv), out_(out), gradient_(gradient) {
    ctx_.resize(static_cast<std::size_t>(d.contexts));
    ctx_[0].dims = dims;
    ctx_[0].ready = true;
    const std::size_t steps = d.plan.size();
    val_.resize(steps);
    grad_.resize(steps);
    done_.assign(steps, false);
    for (const auto& node : d.nodes) kernels_.push_back(detail::make_kernel(node, is_float));
  }

  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;
  ~engine() {
    for (auto& v : val_) buffer_pool<T>::give(std::move(v));
    for (auto& v : grad_) buffer_pool<T>::give(std::move(v));
  }

  value_range<T> run() {
    const std::size_t steps = d_.plan.size();
    std::size_t left = steps;
    while (left > 0) {
      // The field steps whose points are known: whole buffers through the bulk calls.
      for (std::size_t s = 0; s < steps; ++s) {
        if (done_[s] || !bulk_field(s)) continue;
        if (!ctx_[static_cast<std::size_t>(d_.plan[s].context)].ready) continue;
        run_field(s);
        done_[s] = true;
        --left;
      }
      // Then every other step whose inputs are done or come earlier in this pass.
      std::vector<std::size_t> pass;
      std::vector<bool> in_pass(steps, false);
      for (std::size_t s = 0; s < steps; ++s) {
        if (done_[s] || bulk_field(s)) continue;
        bool ready = true;
        for (const int in : d_.plan[s].inputs) {
          ready = ready &&
                  (done_[static_cast<std::size_t>(in)] || in_pass[static_cast<std::size_t>(in)]);
        }
        if (!ctx_[static_cast<std::size_t>(d_.plan[s].context)].ready) ready = false;
        if (!ready) continue;
        pass.push_back(s);
        in_pass[s] = true;
      }
      if (pass.empty() && left > 0) {
        // Only field steps of contexts made in the pass just run: none can be left here.
        detail::throw_invalid("graph", "internal error: the bulk plan is stuck");
      }
      run_pass(pass);
      for (const std::size_t s : pass) {
        done_[s] = true;
        --left;
        const plan_step& st = d_.plan[s];
        if (st.point_step) ctx_[static_cast<std::size_t>(st.child_context)].ready = true;
      }
    }
    // NaN never compares, so it is skipped (value_range's rule).
    // The output filled whole (a field of a derivative grid): one pass over it.
    if (ranges_.empty()) return range_of(0, n_);
    value_range<T> r;
    for (const auto& c : ranges_) {
      r.min = c.min < r.min ? c.min : r.min;
      r.max = c.max > r.max ? c.max : r.max;
    }
    return r;
  }

 private:
  static constexpr bool is_float = std::is_same_v<T, float>;

  bool is_field(std::size_t s) const {
    const plan_step& st = d_.plan[s];
    return !st.point_step && d_.nodes[static_cast<std::size_t>(st.node)].row->field_options;
  }
  /// A field step that fills chunk by chunk inside a pass (values at the caller's points, no
  /// gradients): each chunk a tile of the grid (grid::first) or a slice of the batch, whose
  /// values are the whole call's value for value (grid.hpp), so that its samples never leave
  /// the cache.
  bool chunk_field(std::size_t s) const {
    return is_field(s) && !deriv_ && d_.plan[s].context == 0;
  }
  /// A field step filled whole before a pass.
  bool bulk_field(std::size_t s) const { return is_field(s) && !chunk_field(s); }
  const graph_node_data& node(std::size_t s) const {
    return d_.nodes[static_cast<std::size_t>(d_.plan[s].node)];
  }
  int step_dims(std::size_t s) const {
    return ctx_[static_cast<std::size_t>(d_.plan[s].context)].dims;
  }

  /// The value buffer of step s (the caller's `out` for the output step).
  T* values(std::size_t s) {
    if (s + 1 == d_.plan.size()) return out_.data();
    if (val_[s].empty()) val_[s] = buffer_pool<T>::take(n_);
    return val_[s].data();
  }
  T* gradients(std::size_t s) {
    if (s + 1 == d_.plan.size()) return gradient_.data();
    if (grad_[s].empty())
      grad_[s] = buffer_pool<T>::take(static_cast<std::size_t>(step_dims(s)) * n_);
    return grad_[s].data();
  }

  /// Context 0's points as arrays (for point steps at the graph's own points).
  void root_points() {
    context_data& c = ctx_[0];
    if (!c.q.empty()) return;
    const auto dims = static_cast<std::size_t>(c.dims);
    c.q.resize(dims * n_);
    if (g_ != nullptr) {
      std::size_t i = 0;
      const std::size_t nx = g_->count[0], ny = g_->count[1], nz = g_->count[2];
      for (std::size_t l = 0; l < g_->count[3]; ++l) {
        for (std::size_t k = 0; k < nz; ++k) {
          for (std::size_t j = 0; j < ny; ++j) {
            for (std::size_t x = 0; x < nx; ++x, ++i) {
              const std::size_t idx[4] = {x, j, k, l};
              for (std::size_t a = 0; a < dims; ++a) c.q[a * n_ + i] = g_->coordinate(a, idx[a]);
            }
          }
        }
      }
    } else {
      const std::span<const T> axes[4] = {p_->x, p_->y, p_->z, p_->w};
      for (std::size_t a = 0; a < dims; ++a) {
        for (std::size_t i = 0; i < n_; ++i) c.q[a * n_ + i] = static_cast<double>(axes[a][i]);
      }
    }
  }

  void run_field(std::size_t s) {
    const plan_step& st = d_.plan[s];
    const field& f = node(s).state.source;
    T* v = values(s);
    const std::span<T> vs(v, n_);
    const auto dims = static_cast<std::size_t>(step_dims(s));
    const std::span<T> gs = deriv_ ? std::span<T>(gradients(s), dims * n_) : std::span<T>();
    if (st.context == 0 && g_ != nullptr) {
      if (deriv_) {
        fill_grid_deriv(f, *g_, vs, gs, o_);
      } else {
        fill_grid(f, *g_, vs, o_);
      }
      return;
    }
    if (st.context == 0) {
      if (deriv_) {
        eval_points_deriv(f, *p_, vs, gs, o_);
      } else {
        eval_points(f, *p_, vs, o_);
      }
      return;
    }
    const context_data& c = ctx_[static_cast<std::size_t>(st.context)];
    std::vector<T> rounded;
    const T* axes[4] = {nullptr, nullptr, nullptr, nullptr};
    if constexpr (is_float) {
      rounded.resize(dims * n_);
      for (std::size_t i = 0; i < dims * n_; ++i) rounded[i] = static_cast<T>(c.q[i]);
      for (std::size_t a = 0; a < dims; ++a) axes[a] = rounded.data() + a * n_;
    } else {
      for (std::size_t a = 0; a < dims; ++a) axes[a] = c.q.data() + a * n_;
    }
    point_set<T> ps;
    std::span<const T>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
    for (std::size_t a = 0; a < dims; ++a) *spans[a] = std::span<const T>(axes[a], n_);
    if (deriv_) {
      eval_points_deriv(f, ps, vs, gs, o_);
    } else {
      eval_points(f, ps, vs, o_);
    }
  }

  void run_pass(const std::vector<std::size_t>& pass) {
    // A value step whose every reader runs in this pass lives in a chunk's scratch only.
    std::vector<bool> in_pass(d_.plan.size(), false);
    for (const std::size_t s : pass) in_pass[s] = true;
    std::vector<bool> read_outside(d_.plan.size(), false);
    for (std::size_t r = 0; r < d_.plan.size(); ++r) {
      for (const int in : d_.plan[r].inputs) {
        if (!in_pass[r]) read_outside[static_cast<std::size_t>(in)] = true;
      }
    }
    local_.assign(d_.plan.size(), -1);
    int locals = 0;
    for (const std::size_t s : pass) {
      const plan_step& st = d_.plan[s];
      if (st.point_step) {
        if (st.context == 0) root_points();
        prepare_context(s);
      } else if (!deriv_ && !read_outside[s] && s + 1 != d_.plan.size()) {
        local_[s] = locals++;
      } else {
        values(s);
        if (deriv_) gradients(s);
      }
    }
    make_chunks();
    const std::size_t chunks = chunks_.size();
    // The pass that writes the output finds each chunk's range while the chunk is in the cache.
    const bool last_pass = in_pass[d_.plan.size() - 1];
    if (last_pass) ranges_.assign(chunks, value_range<T>{});
    const unsigned threads =
        detail::thread_count(o_.threads, std::max<std::size_t>(1, n_ / k_samples_per_thread));
    detail::parallel_for(chunks, std::min<unsigned>(threads, static_cast<unsigned>(chunks)),
                         [&](std::size_t cb, std::size_t ce) {
                           std::vector<T> scratch(static_cast<std::size_t>(locals) * stride_);
                           for (std::size_t c = cb; c < ce; ++c) {
                             for (const std::size_t s : pass) run_step(s, c, scratch.data());
                             if (last_pass) chunk_range(c);
                           }
                         });
  }

  /// Sizes the context a point step makes: its dimension from the transform's rule.
  void prepare_context(std::size_t s) {
    const plan_step& st = d_.plan[s];
    const context_data& parent = ctx_[static_cast<std::size_t>(st.context)];
    context_data& c = ctx_[static_cast<std::size_t>(st.child_context)];
    // The dimension of the point the input sees, from a point of the parent's dimension.
    detail::point_map m;
    const double q[4] = {0, 0, 0, 0};
    value_grad zero;
    std::vector<const value_grad*> rest(st.inputs.size(), &zero);
    node(s).row->formula->map_point(node(s).state, q, parent.dims, rest.data(), rest.size(), m,
                                    false);
    c.dims = m.r_dims;
    c.q_dims = parent.dims;
    c.q.resize(static_cast<std::size_t>(c.dims) * n_);
    if (deriv_) c.jac.resize(static_cast<std::size_t>(c.dims * c.q_dims) * n_);
  }

  /// Step s's values from sample b on: its chunk scratch or its buffer.
  T* at(std::size_t s, std::size_t b, T* scratch) {
    const int l = local_[s];
    return l >= 0 ? scratch + static_cast<std::size_t>(l) * stride_ : values(s) + b;
  }

  /// The smallest and largest output value of a chunk: lane by lane (no reduction, so the
  /// compiler vectorises it), then across the lanes. NaN never compares, so it is skipped.
  void chunk_range(std::size_t c) { ranges_[c] = range_of(chunks_[c].first, chunks_[c].second); }

  value_range<T> range_of(std::size_t b, std::size_t e) const {
    constexpr std::size_t k_lanes = 16;
    T lo[k_lanes], hi[k_lanes];
    std::fill(lo, lo + k_lanes, std::numeric_limits<T>::infinity());
    std::fill(hi, hi + k_lanes, -std::numeric_limits<T>::infinity());
    const T* v = out_.data();
    const std::size_t full = b + (e - b) / k_lanes * k_lanes;
    for (std::size_t i = b; i < full; i += k_lanes) {
      for (std::size_t j = 0; j < k_lanes; ++j) {
        lo[j] = v[i + j] < lo[j] ? v[i + j] : lo[j];
        hi[j] = v[i + j] > hi[j] ? v[i + j] : hi[j];
      }
    }
    for (std::size_t i = full; i < e; ++i) {
      lo[0] = v[i] < lo[0] ? v[i] : lo[0];
      hi[0] = v[i] > hi[0] ? v[i] : hi[0];
    }
    value_range<T> r;
    for (std::size_t j = 0; j < k_lanes; ++j) {
      r.min = lo[j] < r.min ? lo[j] : r.min;
      r.max = hi[j] > r.max ? hi[j] : r.max;
    }
    return r;
  }

  /// The chunks of a pass: runs of whole rows of one plane of a grid (a tile), or of samples.
  void make_chunks() {
    if (!chunks_.empty()) return;
    if (g_ == nullptr || g_->dims == 1) {
      for (std::size_t b = 0; b < n_; b += k_chunk)
        chunks_.push_back({b, std::min(n_, b + k_chunk)});
      stride_ = std::min(n_, k_chunk);
      return;
    }
    const std::size_t w = g_->count[0], h = g_->count[1];
    const std::size_t rows = std::max<std::size_t>(1, k_chunk / w);
    const std::size_t planes = n_ / (w * h);
    for (std::size_t p = 0; p < planes; ++p) {
      for (std::size_t j = 0; j < h; j += rows) {
        const std::size_t b = (p * h + j) * w;
        chunks_.push_back({b, b + std::min(rows, h - j) * w});
      }
    }
    stride_ = std::min(rows, h) * w;
  }

  /// Fills a chunk of a field step: its tile of the grid or its slice of the batch, one thread.
  void fill_chunk(std::size_t s, std::size_t b, std::size_t e, T* out) {
    const field& f = node(s).state.source;
    bulk_options o = o_;
    o.threads = 1;
    const std::span<T> os(out, e - b);
    if (g_ != nullptr) {
      grid t = *g_;
      if (g_->dims == 1) {
        t.count[0] = e - b;
        t.first[0] = g_->first[0] + static_cast<std::int64_t>(b);
      } else {
        const std::size_t w = g_->count[0], h = g_->count[1];
        const std::size_t row = b / w;
        const std::size_t plane = row / h;
        t.count[1] = (e - b) / w;
        t.first[1] = g_->first[1] + static_cast<std::int64_t>(row % h);
        if (g_->dims > 2) {
          t.count[2] = 1;
          t.count[3] = 1;
          t.first[2] = g_->first[2] + static_cast<std::int64_t>(plane % g_->count[2]);
          t.first[3] = g_->first[3] + static_cast<std::int64_t>(plane / g_->count[2]);
        }
      }
      fill_grid(f, t, os, o);
      return;
    }
    point_set<T> ps;
    const std::span<const T> axes[4] = {p_->x, p_->y, p_->z, p_->w};
    std::span<const T>* spans[4] = {&ps.x, &ps.y, &ps.z, &ps.w};
    for (std::size_t a = 0; a < 4; ++a) {
      if (!axes[a].empty()) *spans[a] = axes[a].subspan(b, e - b);
    }
    eval_points(f, ps, os, o);
  }

  void run_step(std::size_t s, std::size_t chunk, T* scratch) {
    const std::size_t b = chunks_[chunk].first, e = chunks_[chunk].second;
    const plan_step& st = d_.plan[s];
    const graph_node_data& nd = node(s);
    if (nd.row->field_options) {
      fill_chunk(s, b, e, at(s, b, scratch));
      return;
    }
    if (st.point_step) {
      point_step(s, b, e, scratch);
      return;
    }
    if (nd.row->point_transform) {
      transform_value(s, b, e, scratch);
      return;
    }
    const detail::node_kernel& k = kernels_[static_cast<std::size_t>(st.node)];
    if (!deriv_ && k.kind != detail::kernel_kind::generic) {
      const T* ins[64];
      std::vector<const T*> many;
      const T** in = ins;
      if (st.inputs.size() > 64) {
        many.resize(st.inputs.size());
        in = many.data();
      }
      for (std::size_t m = 0; m < st.inputs.size(); ++m) {
        in[m] = at(static_cast<std::size_t>(st.inputs[m]), b, scratch);
      }
      detail::run_kernel<T>(k, in, st.inputs.size(), at(s, b, scratch), e - b);
      return;
    }
    generic(s, b, e, scratch);
  }

  /// The node's formula per element, in double (value_grad), rounded to T.
  void generic(std::size_t s, std::size_t b, std::size_t e, T* scratch) {
    const plan_step& st = d_.plan[s];
    const graph_node_data& nd = node(s);
    const int dims = step_dims(s);
    const std::size_t n_in = st.inputs.size();
    std::vector<value_grad> in(n_in);
    std::vector<const value_grad*> ptr(n_in);
    std::vector<const T*> iv(n_in), ig(n_in);
    for (std::size_t m = 0; m < n_in; ++m) {
      ptr[m] = &in[m];
      iv[m] = at(static_cast<std::size_t>(st.inputs[m]), b, scratch);
      if (deriv_) ig[m] = gradients(static_cast<std::size_t>(st.inputs[m]));
    }
    T* ov = at(s, b, scratch);
    T* og = deriv_ ? gradients(s) : nullptr;
    for (std::size_t i = b; i < e; ++i) {
      for (std::size_t m = 0; m < n_in; ++m) {
        in[m].v = static_cast<double>(iv[m][i - b]);
        if (deriv_) {
          for (int j = 0; j < dims; ++j) {
            in[m].g[j] = static_cast<double>(ig[m][static_cast<std::size_t>(j) * n_ + i]);
          }
        }
      }
      value_grad out;
      nd.row->formula->combine(nd.state, ptr.data(), n_in, out, dims, deriv_);
      ov[i - b] = static_cast<T>(out.v);
      if (deriv_) {
        for (int j = 0; j < dims; ++j)
          og[static_cast<std::size_t>(j) * n_ + i] = static_cast<T>(out.g[j]);
      }
    }
  }

  void point_step(std::size_t s, std::size_t b, std::size_t e, T* scratch) {
    const plan_step& st = d_.plan[s];
    const graph_node_data& nd = node(s);
    const context_data& parent = ctx_[static_cast<std::size_t>(st.context)];
    context_data& c = ctx_[static_cast<std::size_t>(st.child_context)];
    const std::size_t n_rest = st.inputs.size();
    value_grad rest[4];
    const value_grad* ptr[4] = {&rest[0], &rest[1], &rest[2], &rest[3]};
    const T* rv[4] = {nullptr, nullptr, nullptr, nullptr};
    const T* rg[4] = {nullptr, nullptr, nullptr, nullptr};
    for (std::size_t m = 0; m < n_rest; ++m) {
      rv[m] = at(static_cast<std::size_t>(st.inputs[m]), b, scratch);
      if (deriv_) rg[m] = gradients(static_cast<std::size_t>(st.inputs[m]));
    }
    const auto qd = static_cast<std::size_t>(parent.dims);
    const auto rd = static_cast<std::size_t>(c.dims);
    for (std::size_t i = b; i < e; ++i) {
      double q[4] = {0, 0, 0, 0};
      for (std::size_t a = 0; a < qd; ++a) q[a] = parent.q[a * n_ + i];
      for (std::size_t m = 0; m < n_rest; ++m) {
        rest[m].v = static_cast<double>(rv[m][i - b]);
        if (deriv_) {
          for (std::size_t j = 0; j < qd; ++j)
            rest[m].g[j] = static_cast<double>(rg[m][j * n_ + i]);
        }
      }
      detail::point_map m;
      nd.row->formula->map_point(nd.state, q, parent.dims, ptr, n_rest, m, deriv_);
      for (std::size_t a = 0; a < rd; ++a) c.q[a * n_ + i] = m.r[a];
      if (deriv_) {
        for (std::size_t r = 0; r < rd; ++r) {
          for (std::size_t j = 0; j < qd; ++j) c.jac[(r * qd + j) * n_ + i] = m.jac[r][j];
        }
      }
    }
  }

  /// A transform's value: its input's, the gradient pulled back through the Jacobian.
  void transform_value(std::size_t s, std::size_t b, std::size_t e, T* scratch) {
    const plan_step& st = d_.plan[s];
    const auto src = static_cast<std::size_t>(st.inputs[0]);
    const T* sv = at(src, b, scratch);
    std::copy(sv, sv + (e - b), at(s, b, scratch));
    if (!deriv_) return;
    const context_data& c = ctx_[static_cast<std::size_t>(st.child_context)];
    const T* sg = gradients(src);
    T* og = gradients(s);
    const auto qd = static_cast<std::size_t>(c.q_dims);
    const auto rd = static_cast<std::size_t>(c.dims);
    for (std::size_t i = b; i < e; ++i) {
      for (std::size_t j = 0; j < qd; ++j) {
        double sum = 0;
        for (std::size_t r = 0; r < rd; ++r) {
          sum += c.jac[(r * qd + j) * n_ + i] * static_cast<double>(sg[r * n_ + i]);
        }
        og[j * n_ + i] = static_cast<T>(sum);
      }
    }
  }

  const graph_data& d_;
  std::size_t n_;
  const grid* g_;
  const point_set<T>* p_;
  bulk_options o_;
  bool deriv_;
  std::span<T> out_, gradient_;
  std::vector<context_data> ctx_;
  std::vector<std::vector<T>> val_, grad_;
  std::vector<bool> done_;
  std::vector<std::pair<std::size_t, std::size_t>> chunks_;  ///< [begin, end) of each chunk
  std::size_t stride_ = 0;
  std::vector<value_range<T>> ranges_;  ///< per chunk of the pass that writes the output ///< a
                                        ///< chunk's scratch size per step
  std::vector<int> local_;              ///< per step: its scratch slot in the current pass, or -1
  std::vector<detail::node_kernel> kernels_;
};

template <class T>
value_range<T> grid_call(const graph& gr, const grid& g, std::span<T> out, std::span<T> gradient,
                         const bulk_options& o, bool deriv) {
  detail::check_grid(g);  // the fields' checks (bulk/bulk_checks.hpp)
  const std::size_t n = g.size();
  detail::check_out(out, n, "out");
  if (deriv) detail::check_out(gradient, n * g.dims, "gradient");
  engine<T> e(detail::graph_access::data(gr), n, static_cast<int>(g.dims), &g, nullptr, o, deriv,
              out, gradient);
  return e.run();
}

template <class T>
void points_call(const graph& gr, const point_set<T>& p, std::span<T> out, std::span<T> gradient,
                 const bulk_options& o, bool deriv) {
  const std::size_t dims = detail::point_dims(p, out.size());
  if (deriv) detail::check_out(gradient, out.size() * dims, "gradient");
  if (out.empty()) return;
  engine<T> e(detail::graph_access::data(gr), out.size(), static_cast<int>(dims), nullptr, &p, o,
              deriv, out, gradient);
  e.run();
}

}  // namespace

value_range<float> fill_grid(const graph& gr, const grid& g, std::span<float> out,
                             const bulk_options& o) {
  return grid_call<float>(gr, g, out, {}, o, false);
}
value_range<double> fill_grid(const graph& gr, const grid& g, std::span<double> out,
                              const bulk_options& o) {
  return grid_call<double>(gr, g, out, {}, o, false);
}
value_range<float> fill_grid_deriv(const graph& gr, const grid& g, std::span<float> out,
                                   std::span<float> gradient, const bulk_options& o) {
  return grid_call<float>(gr, g, out, gradient, o, true);
}
value_range<double> fill_grid_deriv(const graph& gr, const grid& g, std::span<double> out,
                                    std::span<double> gradient, const bulk_options& o) {
  return grid_call<double>(gr, g, out, gradient, o, true);
}
void eval_points(const graph& gr, const point_set<float>& p, std::span<float> out,
                 const bulk_options& o) {
  points_call<float>(gr, p, out, {}, o, false);
}
void eval_points(const graph& gr, const point_set<double>& p, std::span<double> out,
                 const bulk_options& o) {
  points_call<double>(gr, p, out, {}, o, false);
}
void eval_points_deriv(const graph& gr, const point_set<float>& p, std::span<float> out,
                       std::span<float> gradient, const bulk_options& o) {
  points_call<float>(gr, p, out, gradient, o, true);
}
void eval_points_deriv(const graph& gr, const point_set<double>& p, std::span<double> out,
                       std::span<double> gradient, const bulk_options& o) {
  points_call<double>(gr, p, out, gradient, o, true);
}

}  // namespace perlin
