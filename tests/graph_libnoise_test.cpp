// The libnoise-mode nodes of graphs against Debian's libnoise (libnoise-dev) itself, bit for bit:
// each node is built as libnoise's module over sources that return perlin fields' values (a
// noise::module::Module whose GetValue is the field's 3-D double path), with random parameters,
// and compared with the graph at random points. docs/graphs.md lists the modules.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// libnoise's headers (system headers for the warnings).
#include <libnoise/noise.h>

#include "perlin/field_spec.hpp"
#include "perlin/graph.hpp"
#include "perlin/option_table.hpp"

namespace {

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::string exact(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

/// A libnoise source whose value is a perlin field's (its double path, in 3-D).
class field_source : public noise::module::Module {
 public:
  explicit field_source(const std::string& recipe)
      : Module(0), field_(perlin::make_field(perlin::spec_from_recipe(recipe))) {}
  int GetSourceModuleCount() const override { return 0; }
  double GetValue(double x, double y, double z) const override {
    const double p[3] = {x, y, z};
    return field_.eval(std::span<const double>(p, 3));
  }

 private:
  perlin::field field_;
};

// Four sources: the graph's fields a, b, c, d and libnoise's modules over the same fields.
const char* const k_recipes[] = {
    "perlin=1&seed=1&fractal=fbm&octaves=3",
    "perlin=1&seed=2&fractal=ridged&octaves=2&frequency=0.7",
    "perlin=1&seed=3&frequency=0.5",
    "perlin=1&seed=4&fractal=billow&octaves=2",
};

std::string sources_text() {
  std::string out;
  const char ids[] = {'a', 'b', 'c', 'd'};
  for (int i = 0; i < 4; ++i) {
    const auto spec = perlin::spec_from_recipe(k_recipes[i]);
    out += "&" + std::string(1, ids[i]) + "=field";
    for (const auto& o : perlin::field_options()) {
      const std::string v = o.get(spec);
      if (v != o.default_text())
        out += "&" + std::string(1, ids[i]) + "." + std::string(o.name) + "=" + v;
    }
  }
  return out;
}

struct fixture {
  field_source a{k_recipes[0]}, b{k_recipes[1]}, c{k_recipes[2]}, d{k_recipes[3]};
  std::mt19937_64 rng{2026};
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  }

  /// Compares the graph `x` (over a, b, c, d: every source is used once by the output `o`, an
  /// add of x and the unused sources times 0 would change the bits, so the output is x itself and
  /// the unused sources are left out of the text) with libnoise's module at random points.
  void compare(const std::string& node_text, const std::string& uses,
               const noise::module::Module& module, int points = 25) {
    std::string text = "perlin=2&out=x&x=" + node_text;
    const std::string all = sources_text();
    // Only the sources the node uses (a graph refuses unused nodes).
    std::string kept;
    std::size_t at = 0;
    while (at < all.size()) {
      const std::size_t next = all.find('&', at + 1);
      const std::string pair =
          all.substr(at, next == std::string::npos ? std::string::npos : next - at);
      if (uses.find(pair[1]) != std::string::npos) kept += pair;
      at = next == std::string::npos ? all.size() : next;
    }
    const perlin::graph g = perlin::graph::from_text(text + kept);
    for (int i = 0; i < points; ++i) {
      const double p[3] = {uniform(-50, 50), uniform(-50, 50), uniform(-50, 50)};
      const double expected = module.GetValue(p[0], p[1], p[2]);
      const double got = g.eval(std::span<const double>(p, 3));
      ASSERT_EQ(bits(got), bits(expected))
          << g.recipe() << " at " << exact(p[0]) << " " << exact(p[1]) << " " << exact(p[2]) << ": "
          << exact(got) << " vs libnoise " << exact(expected);
    }
  }
};

constexpr int k_trials = 160;  // parameter sets per node kind; 25 points each

TEST(GraphLibnoise, CombinersAreAddMultiplyMinMax) {
  fixture f;
  for (int t = 0; t < k_trials; ++t) {
    noise::module::Add add;
    add.SetSourceModule(0, f.a);
    add.SetSourceModule(1, f.b);
    f.compare("add&x.in=a,b", "ab", add);
    noise::module::Add add3;
    add3.SetSourceModule(0, add);
    add3.SetSourceModule(1, f.c);
    f.compare("add&x.in=a,b,c", "abc", add3);
    noise::module::Multiply mul;
    mul.SetSourceModule(0, f.a);
    mul.SetSourceModule(1, f.b);
    f.compare("multiply&x.in=a,b", "ab", mul);
    noise::module::Min mn;
    mn.SetSourceModule(0, f.c);
    mn.SetSourceModule(1, f.a);
    f.compare("min&x.in=c,a", "ac", mn);
    noise::module::Min mn3;
    mn3.SetSourceModule(0, mn);
    mn3.SetSourceModule(1, f.d);
    f.compare("min&x.in=c,a,d", "acd", mn3);
    noise::module::Max mx;
    mx.SetSourceModule(0, f.b);
    mx.SetSourceModule(1, f.d);
    f.compare("max&x.in=b,d", "bd", mx);
    const double value = f.uniform(-2, 2);
    noise::module::Const k;
    k.SetConstValue(value);
    noise::module::Add plus_const;
    plus_const.SetSourceModule(0, f.a);
    plus_const.SetSourceModule(1, k);
    f.compare("add&x.in=a,k&k=constant&k.value=" + exact(value), "a", plus_const);
  }
}

TEST(GraphLibnoise, UnaryNodesAreAbsInvertClampScaleBiasExponent) {
  fixture f;
  for (int t = 0; t < k_trials; ++t) {
    noise::module::Abs abs;
    abs.SetSourceModule(0, f.b);
    f.compare("abs&x.in=b", "b", abs);
    noise::module::Invert inv;
    inv.SetSourceModule(0, f.a);
    f.compare("invert&x.in=a", "a", inv);
    const double lower = f.uniform(-1, 0.3);
    const double upper = lower + f.uniform(0.01, 1);
    noise::module::Clamp clamp;
    clamp.SetSourceModule(0, f.a);
    clamp.SetBounds(lower, upper);
    f.compare("clamp&x.in=a&x.lower=" + exact(lower) + "&x.upper=" + exact(upper), "a", clamp);
    const double scale = f.uniform(-3, 3), bias = f.uniform(-1, 1);
    noise::module::ScaleBias sb;
    sb.SetSourceModule(0, f.c);
    sb.SetScale(scale);
    sb.SetBias(bias);
    f.compare("scale-bias&x.in=c&x.scale=" + exact(scale) + "&x.bias=" + exact(bias), "c", sb);
    const double e = f.uniform(0, 4);
    noise::module::Exponent ex;
    ex.SetSourceModule(0, f.d);
    ex.SetExponent(e);
    f.compare("exponent&x.in=d&x.exponent=" + exact(e), "d", ex);
  }
}

TEST(GraphLibnoise, BlendAndSelectAreLibnoises) {
  fixture f;
  for (int t = 0; t < k_trials; ++t) {
    noise::module::Blend blend;
    blend.SetSourceModule(0, f.a);
    blend.SetSourceModule(1, f.b);
    blend.SetControlModule(f.c);
    f.compare("blend&x.in=a,b,c", "abc", blend);
    const double lower = f.uniform(-0.8, 0.3);
    const double upper = lower + f.uniform(0.01, 1);
    // Falloffs beyond (upper - lower) / 2 too (libnoise clamps them), and 0 (a hard switch).
    const double falloff = t % 5 == 0 ? 0.0 : f.uniform(0, 0.7);
    noise::module::Select sel;
    sel.SetSourceModule(0, f.a);
    sel.SetSourceModule(1, f.d);
    sel.SetControlModule(f.b);
    sel.SetBounds(lower, upper);
    sel.SetEdgeFalloff(falloff);
    f.compare("select&x.in=a,d,b&x.lower=" + exact(lower) + "&x.upper=" + exact(upper) +
                  "&x.falloff=" + exact(falloff),
              "abd", sel);
  }
}

TEST(GraphLibnoise, CurveAndTerraceInLibnoiseModeAreLibnoises) {
  fixture f;
  for (int t = 0; t < k_trials; ++t) {
    noise::module::Curve curve;
    curve.SetSourceModule(0, f.a);
    std::string points;
    const int n = 4 + static_cast<int>(f.rng() % 6);
    for (int i = 0; i < n; ++i) {
      const double in = f.uniform(-1.2, 1.2), out = f.uniform(-1, 1);
      curve.AddControlPoint(in, out);
      points += (i ? "," : "") + exact(in) + ":" + exact(out);
    }
    f.compare("curve&x.in=a&x.mode=libnoise&x.points=" + points, "a", curve);
    noise::module::Terrace terrace;
    terrace.SetSourceModule(0, f.b);
    const bool invert = (f.rng() & 1) != 0;
    terrace.InvertTerraces(invert);
    std::string levels;
    const int m = 2 + static_cast<int>(f.rng() % 6);
    for (int i = 0; i < m; ++i) {
      const double v = f.uniform(-1.2, 1.2);
      terrace.AddControlPoint(v);
      levels += (i ? "," : "") + exact(v);
    }
    f.compare("terrace&x.in=b&x.points=" + levels + (invert ? "&x.invert=true" : ""), "b", terrace);
  }
  // MakeControlPoints(n): -1 plus 2 / (n - 1), accumulated.
  for (int n = 2; n < 12; ++n) {
    noise::module::Terrace terrace;
    terrace.SetSourceModule(0, f.a);
    terrace.MakeControlPoints(n);
    std::string levels;
    double v = -1.0;
    const double step = 2.0 / (static_cast<double>(n) - 1.0);
    for (int i = 0; i < n; ++i, v += step) levels += (i ? "," : "") + exact(v);
    f.compare("terrace&x.in=a&x.points=" + levels, "a", terrace);
  }
}

TEST(GraphLibnoise, PointTransformsAreDisplaceScaleTranslateRotate) {
  fixture f;
  for (int t = 0; t < k_trials; ++t) {
    noise::module::Displace displace;
    displace.SetSourceModule(0, f.a);
    displace.SetDisplaceModules(f.b, f.c, f.d);
    f.compare("displace&x.in=a,b,c,d", "abcd", displace);
    const double sx = f.uniform(-3, 3), sy = f.uniform(-3, 3), sz = f.uniform(-3, 3);
    noise::module::ScalePoint scale;
    scale.SetSourceModule(0, f.b);
    scale.SetScale(sx, sy, sz);
    f.compare("scale-point&x.in=b&x.scale=" + exact(sx) + "," + exact(sy) + "," + exact(sz), "b",
              scale);
    noise::module::TranslatePoint translate;
    translate.SetSourceModule(0, f.c);
    translate.SetTranslation(sx, sy, sz);
    f.compare("translate-point&x.in=c&x.offset=" + exact(sx) + "," + exact(sy) + "," + exact(sz),
              "c", translate);
    const double ax = f.uniform(-360, 360), ay = f.uniform(-360, 360), az = f.uniform(-360, 360);
    noise::module::RotatePoint rotate;
    rotate.SetSourceModule(0, f.a);
    rotate.SetAngles(ax, ay, az);
    f.compare("rotate-point&x.in=a&x.angles=" + exact(ax) + "," + exact(ay) + "," + exact(az), "a",
              rotate);
  }
}

TEST(GraphLibnoise, AChainOfModulesIsTheGraph) {
  // A terrain of libnoise modules: a mask selecting between ridged and billow fields through a
  // curve, a terrace and a turned, displaced point: one graph, the same doubles.
  fixture f;
  noise::module::ScaleBias hills;
  hills.SetSourceModule(0, f.d);
  hills.SetScale(0.5);
  hills.SetBias(-0.25);
  noise::module::Select sel;
  sel.SetSourceModule(0, hills);
  sel.SetSourceModule(1, f.b);
  sel.SetControlModule(f.c);
  sel.SetBounds(0, 1000);
  sel.SetEdgeFalloff(0.125);
  noise::module::Curve curve;
  curve.SetSourceModule(0, sel);
  curve.AddControlPoint(-2, -1.5);
  curve.AddControlPoint(-1, -1);
  curve.AddControlPoint(0, -0.2);
  curve.AddControlPoint(0.5, 0.4);
  curve.AddControlPoint(1, 1);
  curve.AddControlPoint(2, 1.2);
  noise::module::Terrace terrace;
  terrace.SetSourceModule(0, curve);
  terrace.MakeControlPoints(5);
  noise::module::Displace displace;
  displace.SetSourceModule(0, terrace);
  displace.SetDisplaceModules(f.a, f.a, f.c);
  noise::module::RotatePoint rotate;
  rotate.SetSourceModule(0, displace);
  rotate.SetAngles(10, 20, 30);
  f.compare(
      "rotate-point&x.in=w&x.angles=10,20,30&w=displace&w.in=t,a,a,c&t=terrace&t.in=v&t.points="
      "-1,-0.5,0,0.5,1&v=curve&v.in=s&v.mode=libnoise&v.points=-2:-1.5,-1:-1,0:-0.2,0.5:0.4,1:1,2:"
      "1.2&s=select&s.in=h,b,c&s.lower=0&s.upper=1000&s.falloff=0.125&h=scale-bias&h.in=d&h."
      "scale=0.5&h.bias=-0.25",
      "abcd", rotate, 4000);
}

}  // namespace
