// A graph (graph.hpp): its checks, its evaluation plan and its evaluation with the gradient.
// The written forms are recipe_form.cpp and json_form.cpp; the node kinds node_table.cpp.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "detail/error.hpp"
#include "graph/graph_data.hpp"
#include "perlin/option_table.hpp"
#include "runtime/text.hpp"

namespace perlin {

namespace {

using detail::graph_data;
using detail::graph_node_data;
using detail::plan_step;
using detail::value_grad;

constexpr std::size_t k_max_nodes = 1024;
constexpr std::size_t k_max_steps = 65536;

/// Runs f; an invalid_argument it throws names the node: "octaves: ..." becomes
/// "m.octaves: ...". (Without exceptions the handler sees the message without the node.)
template <class F>
void naming_node(std::string_view id, F&& f) {
#if PERLIN_HAS_EXCEPTIONS
  try {
    f();
  } catch (const invalid_argument& e) {
    const std::string what = std::string(e.what()).substr(e.parameter().size() + 2);
    const std::string name = detail::param_name(id, e.parameter());
    if (e.kind() == error_kind::size) detail::throw_size(name, what);
    detail::throw_invalid(name, what);
  }
#else
  f();
#endif
}

bool is_reserved_id(std::string_view id) {
  if (id == "out" || id == "perlin") return true;
  const auto settings = recipe_render_settings();
  return std::find(settings.begin(), settings.end(), id) != settings.end();
}

void check_id(std::string_view id) {
  if (!detail::is_node_id(id)) {
    detail::throw_invalid("graph", detail::quoted(id) +
                                       " is not a node id (a lower-case letter, then lower-case "
                                       "letters, digits or _; at most 64)");
  }
  if (is_reserved_id(id)) {
    detail::throw_invalid(std::string(id),
                          "is a reserved name (out, perlin and the render settings of "
                          "docs/recipes.md), not a node id");
  }
}

std::vector<std::string_view> kind_names() {
  std::vector<std::string_view> out;
  for (const auto& r : node_kinds()) out.push_back(r.name);
  return out;
}

/// A field node's spec and field from its options.
void build_field(graph_node_data& n, const std::vector<std::pair<std::string, std::string>>& ps) {
  std::set<const option_info*> seen;
  for (const auto& pair : ps) {
    const std::string& name = pair.first;
    const std::string& text = pair.second;
    const option_info* o = find_option(name);
    if (o == nullptr) {
      std::vector<std::string_view> names;
      for (const auto& row : field_options()) names.push_back(row.name);
      detail::throw_invalid(detail::param_name(n.id, name),
                            unknown_choice(name, names, "field option"));
    }
    if (!seen.insert(o).second) {
      detail::throw_invalid(detail::param_name(n.id, o->name), "given twice");
    }
    naming_node(n.id, [&] { o->set(n.state.spec, text); });
  }
  naming_node(n.id, [&] { n.state.source = make_field(n.state.spec); });
}

/// Another node's parameters from their text, then the row's prepare step.
void build_params(graph_node_data& n, const std::vector<std::pair<std::string, std::string>>& ps) {
  const auto params = n.row->parameters;
  std::vector<bool> given(params.size(), false);
  n.state.params.resize(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    n.state.params[i] = detail::parameter_default(params[i]);
  }
  for (const auto& [name, text] : ps) {
    std::size_t i = 0;
    while (i < params.size() && params[i].name != name) ++i;
    if (i == params.size()) {
      std::vector<std::string_view> names;
      for (const auto& p : params) names.push_back(p.name);
      const std::string what =
          names.empty() ? std::string(n.row->name) + " has no parameters"
                        : unknown_choice(name, names, std::string(n.row->name) + " parameter");
      detail::throw_invalid(detail::param_name(n.id, name), what);
    }
    if (given[i]) detail::throw_invalid(detail::param_name(n.id, name), "given twice");
    given[i] = true;
    n.state.params[i] = detail::parse_parameter(params[i], n.id, text);
  }
  if (n.row->formula->prepare != nullptr) n.row->formula->prepare(n.state, n.id);
}

void check_input_count(const graph_node_data& n, std::size_t count) {
  const node_info& r = *n.row;
  const auto c = static_cast<int>(count);
  if (c < r.min_inputs || (r.max_inputs != k_any_inputs && c > r.max_inputs)) {
    detail::throw_invalid(detail::param_name(n.id, "in"),
                          std::string(r.name) + " takes " + r.inputs_text() + " input" +
                              (r.max_inputs == 1 ? "" : "s") + ", got " + std::to_string(c));
  }
}

/// Refuses a cycle, naming it from the node whose input closes it: "a.in: a cycle: a -> b -> a".
void check_cycles(const graph_data& d) {
  const std::size_t n = d.nodes.size();
  std::vector<int> state(n, 0);  // 0 new, 1 on the path, 2 done
  std::vector<int> path;
  const auto visit = [&](const auto& self, int i) -> void {
    state[static_cast<std::size_t>(i)] = 1;
    path.push_back(i);
    for (const int in : d.nodes[static_cast<std::size_t>(i)].inputs) {
      if (state[static_cast<std::size_t>(in)] == 1) {
        std::string cycle;
        const auto from = std::find(path.begin(), path.end(), in);
        for (auto it = from; it != path.end(); ++it) {
          cycle += d.nodes[static_cast<std::size_t>(*it)].id + " -> ";
        }
        cycle += d.nodes[static_cast<std::size_t>(in)].id;
        detail::throw_invalid(detail::param_name(d.nodes[static_cast<std::size_t>(i)].id, "in"),
                              "a cycle: " + cycle);
      }
      if (state[static_cast<std::size_t>(in)] == 0) self(self, in);
    }
    path.pop_back();
    state[static_cast<std::size_t>(i)] = 2;
  };
  for (std::size_t i = 0; i < n; ++i) {
    if (state[i] == 0) visit(visit, static_cast<int>(i));
  }
}

void check_used(const graph_data& d) {
  std::vector<bool> used(d.nodes.size(), false);
  std::vector<int> stack = {d.output};
  while (!stack.empty()) {
    const int i = stack.back();
    stack.pop_back();
    if (used[static_cast<std::size_t>(i)]) continue;
    used[static_cast<std::size_t>(i)] = true;
    for (const int in : d.nodes[static_cast<std::size_t>(i)].inputs) stack.push_back(in);
  }
  for (std::size_t i = 0; i < d.nodes.size(); ++i) {
    if (!used[i]) {
      detail::throw_invalid(d.nodes[i].id,
                            "not used by the output " +
                                detail::quoted(d.nodes[static_cast<std::size_t>(d.output)].id) +
                                " (every node must feed the output: remove it or use it)");
    }
  }
}

/// The plan: a post-order walk from the output, one value step per (node, point context), a
/// transform's point step after its other inputs and before its first input.
struct planner {
  graph_data& d;
  std::map<std::pair<int, int>, int> memo;

  int push(plan_step step) {
    if (d.plan.size() >= k_max_steps) {
      detail::throw_invalid("graph", "needs more than " + std::to_string(k_max_steps) +
                                         " node evaluations a point (point transforms used "
                                         "many times over)");
    }
    d.plan.push_back(std::move(step));
    return static_cast<int>(d.plan.size()) - 1;
  }

  int build(int node, int context) {
    if (const auto it = memo.find({node, context}); it != memo.end()) return it->second;
    const graph_node_data& n = d.nodes[static_cast<std::size_t>(node)];
    plan_step step;
    step.node = node;
    step.context = context;
    if (n.row->point_transform) {
      plan_step point;
      point.node = node;
      point.context = context;
      point.point_step = true;
      for (std::size_t i = 1; i < n.inputs.size(); ++i) {
        point.inputs.push_back(build(n.inputs[i], context));
      }
      const int child = d.contexts++;
      point.child_context = child;
      push(std::move(point));
      step.child_context = child;
      step.inputs.push_back(build(n.inputs[0], child));
    } else {
      for (const int in : n.inputs) step.inputs.push_back(build(in, context));
    }
    const int at = push(std::move(step));
    memo[{node, context}] = at;
    return at;
  }
};

/// A point context while evaluating: the point its nodes see and how it was made.
struct context_state {
  double q[4] = {0, 0, 0, 0};
  int dims = 0;
  detail::point_map map;
};

}  // namespace

graph::graph() : graph(field_spec{}) {}

graph::graph(const field_spec& spec) {
  std::vector<std::pair<std::string, std::string>> params;
  const field_spec defaults;
  for (const auto& o : field_options()) {
    const std::string v = o.get(spec);
    if (v != o.get(defaults)) params.emplace_back(std::string(o.name), v);
  }
  *this = graph({graph_node{"f", "field", {}, std::move(params)}}, "f");
}

graph::graph(std::vector<graph_node> nodes, std::string_view output) {
  auto d = std::make_shared<graph_data>();
  if (nodes.empty()) detail::throw_invalid("graph", "has no nodes");
  if (nodes.size() > k_max_nodes) {
    detail::throw_invalid("graph", "has " + std::to_string(nodes.size()) + " nodes (at most " +
                                       std::to_string(k_max_nodes) + ")");
  }
  std::sort(nodes.begin(), nodes.end(),
            [](const graph_node& a, const graph_node& b) { return a.id < b.id; });
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    check_id(nodes[i].id);
    if (i > 0 && nodes[i].id == nodes[i - 1].id) {
      detail::throw_invalid(nodes[i].id, "is given twice (each node has its own id)");
    }
  }
  const auto index_of = [&](std::string_view id) -> int {
    const auto it =
        std::lower_bound(nodes.begin(), nodes.end(), id,
                         [](const graph_node& n, std::string_view key) { return n.id < key; });
    return it != nodes.end() && it->id == id ? static_cast<int>(it - nodes.begin()) : -1;
  };
  const auto unknown_node = [&](std::string_view id) {
    std::vector<std::string_view> ids;
    ids.reserve(nodes.size());
    for (const auto& n : nodes) ids.push_back(n.id);
    return unknown_choice(id, ids, "node");
  };
  d->nodes.resize(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    graph_node_data& n = d->nodes[i];
    n.id = nodes[i].id;
    n.row = find_node_kind(nodes[i].kind);
    if (n.row == nullptr) {
      detail::throw_invalid(n.id, unknown_choice(nodes[i].kind, kind_names(), "node kind"));
    }
    if (n.row->field_options) {
      build_field(n, nodes[i].parameters);
    } else {
      build_params(n, nodes[i].parameters);
    }
    check_input_count(n, nodes[i].inputs.size());
    for (const auto& in : nodes[i].inputs) {
      const int at = index_of(in);
      if (at < 0) detail::throw_invalid(detail::param_name(n.id, "in"), unknown_node(in));
      n.inputs.push_back(at);
    }
  }
  if (output.empty()) detail::throw_invalid("out", "the graph has no output (give out=ID)");
  d->output = index_of(output);
  if (d->output < 0) detail::throw_invalid("out", unknown_node(output));
  check_cycles(*d);
  check_used(*d);
  planner{*d, {}}.build(d->output, 0);
  data_ = std::move(d);
}

graph graph::from_text(std::string_view text,
                       std::vector<std::pair<std::string, std::string>>* skipped) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') return from_json(text);
  return from_recipe(text, skipped);
}

double graph::eval(std::span<const double> p, std::span<double> gradient) const {
  if (p.empty() || p.size() > 4) {
    detail::throw_size("point", "must have 1 to 4 coordinates, got " + std::to_string(p.size()));
  }
  if (!gradient.empty() && gradient.size() != p.size()) {
    detail::throw_size("gradient", "must be empty or hold one value per coordinate");
  }
  const graph_data& d = *data_;
  const bool grad = !gradient.empty();
  // Scratch per thread, reused from call to call: eval is never re-entered on one thread while
  // it runs (field nodes are plain fields, never graphs; keep it so, or give each call its own).
  thread_local std::vector<value_grad> values;
  thread_local std::vector<context_state> contexts;
  thread_local std::vector<const value_grad*> args;
  values.resize(d.plan.size());
  contexts.resize(static_cast<std::size_t>(d.contexts));
  context_state& root = contexts[0];
  root.dims = static_cast<int>(p.size());
  std::copy(p.begin(), p.end(), root.q);
  for (std::size_t i = 0; i < d.plan.size(); ++i) {
    const plan_step& s = d.plan[i];
    const graph_node_data& n = d.nodes[static_cast<std::size_t>(s.node)];
    const context_state& c = contexts[static_cast<std::size_t>(s.context)];
    // The inputs' values: on the stack for up to 8 inputs (every kind but a long add or min).
    const value_grad* small[8];
    const value_grad** argv = small;
    if (s.inputs.size() > 8) {
      args.resize(s.inputs.size());
      argv = args.data();
    }
    for (std::size_t k = 0; k < s.inputs.size(); ++k) {
      argv[k] = &values[static_cast<std::size_t>(s.inputs[k])];
    }
    const std::size_t argc = s.inputs.size();
    if (s.point_step) {
      context_state& child = contexts[static_cast<std::size_t>(s.child_context)];
      child.map = detail::point_map{};
      n.row->formula->map_point(n.state, c.q, c.dims, argv, argc, child.map, grad);
      child.dims = child.map.r_dims;
      std::copy(child.map.r, child.map.r + 4, child.q);
      continue;
    }
    value_grad& out = values[i];
    const auto dims = static_cast<std::size_t>(c.dims);
    if (n.row->field_options) {
      out.v = n.state.source.eval(std::span<const double>(c.q, dims),
                                  grad ? std::span<double>(out.g, dims) : std::span<double>());
    } else if (n.row->point_transform) {
      // The chain rule through the transform: g_q[j] = sum_i J[i][j] g_r[i].
      const value_grad& src = *argv[0];
      const context_state& child = contexts[static_cast<std::size_t>(s.child_context)];
      out.v = src.v;
      if (grad) {
        for (int j = 0; j < c.dims; ++j) {
          double sum = 0;
          for (int r = 0; r < child.dims; ++r) sum += child.map.jac[r][j] * src.g[r];
          out.g[j] = sum;
        }
      }
    } else {
      n.row->formula->combine(n.state, argv, argc, out, c.dims, grad);
    }
  }
  const value_grad& result = values.back();
  if (grad) std::copy(result.g, result.g + p.size(), gradient.begin());
  return result.v;
}

float graph::eval(std::span<const float> p, std::span<float> gradient) const {
  double q[4] = {0, 0, 0, 0};
  double g[4] = {0, 0, 0, 0};
  if (p.size() > 4 || p.empty()) {
    detail::throw_size("point", "must have 1 to 4 coordinates, got " + std::to_string(p.size()));
  }
  if (!gradient.empty() && gradient.size() != p.size()) {
    detail::throw_size("gradient", "must be empty or hold one value per coordinate");
  }
  std::copy(p.begin(), p.end(), q);
  const double v = eval(std::span<const double>(q, p.size()),
                        gradient.empty() ? std::span<double>() : std::span<double>(g, p.size()));
  for (std::size_t j = 0; j < gradient.size(); ++j) gradient[j] = static_cast<float>(g[j]);
  return static_cast<float>(v);
}

const std::string& graph::output() const noexcept {
  return data_->nodes[static_cast<std::size_t>(data_->output)].id;
}

std::vector<graph_node> graph::nodes() const {
  std::vector<graph_node> out;
  const field_spec defaults;
  for (const auto& n : data_->nodes) {
    graph_node g;
    g.id = n.id;
    g.kind = std::string(n.row->name);
    for (const int in : n.inputs) g.inputs.push_back(data_->nodes[static_cast<std::size_t>(in)].id);
    if (n.row->field_options) {
      for (const auto& o : field_options()) {
        const std::string v = o.get(n.state.spec);
        if (v != o.get(defaults)) g.parameters.emplace_back(std::string(o.name), v);
      }
    } else {
      for (std::size_t i = 0; i < n.row->parameters.size(); ++i) {
        const auto& p = n.row->parameters[i];
        if (n.state.params[i] == detail::parameter_default(p)) continue;
        g.parameters.emplace_back(std::string(p.name),
                                  detail::parameter_text(p, n.state.params[i]));
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

const field_spec* graph::single_field() const noexcept {
  if (data_->nodes.size() != 1 || !data_->nodes[0].row->field_options) return nullptr;
  return &data_->nodes[0].state.spec;
}

std::vector<std::int64_t> graph::periods() const {
  const graph_node_data* first = nullptr;
  for (const auto& n : data_->nodes) {
    if (n.row->field_options) {
      const field_spec& s = n.state.spec;
      if (s.period.empty()) {
        detail::throw_invalid(detail::param_name(n.id, "period"),
                              "the field has no periods, so the graph does not tile (every "
                              "field needs the same periods)");
      }
      if (first == nullptr) {
        first = &n;
      } else if (s.period != first->state.spec.period ||
                 s.frequency != first->state.spec.frequency) {
        detail::throw_invalid(detail::param_name(n.id, "period"),
                              "the field's periods or frequency differ from " +
                                  detail::quoted(first->id) +
                                  "'s, so the graph does not tile (every field needs the same "
                                  "periods and frequency)");
      }
    } else if (n.row->name == "rotate-point") {
      for (const double a : n.state.params[0].list) {
        if (a != 0) {
          detail::throw_invalid(detail::param_name(n.id, "angles"),
                                "a turned point breaks tiling (angles 0,0,0 keep it)");
        }
      }
    } else if (n.row->name == "scale-point") {
      for (const double s : n.state.params[0].list) {
        if (s != std::floor(s)) {
          detail::throw_invalid(detail::param_name(n.id, "scale"),
                                "a scale that is not a whole number breaks tiling");
        }
      }
    }
  }
  if (first == nullptr) detail::throw_invalid("graph", "has no field to take periods from");
  return first->state.spec.period;
}

bool operator==(const graph& a, const graph& b) {
  return a.data_ == b.data_ || a.recipe() == b.recipe();
}

}  // namespace perlin
