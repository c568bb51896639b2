// `perlin serve`: a local HTTP server for the live preview page. It serves one page (embedded,
// serve_page.hpp) and renders what the page asks for with the same code as `perlin render`
// (perlin_render's resolve and pipeline), so the picture, the numbers and the command it shows
// are exactly what the command line writes. It reads no files and writes none.
#include "serve.hpp"

#include <httplib.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <memory>
#include <semaphore>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/image_io.hpp"
#include "presets.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"
#include "serve_page.hpp"

namespace perlin_cli {

using namespace perlin_render;

namespace {

struct serve_options {
  int port = 8080;
  std::string host = "127.0.0.1";
  bool open = false;
};

/// Previews larger than this need download=1 (an export, checked against the CLI's own limits).
constexpr std::size_t k_preview_max = 2048;
/// Renders at once; further requests wait their turn (the page drops stale answers).
std::counting_semaphore<2> g_renders(2);

/// A request the server refuses: HTTP `status` with the message in JSON.
struct http_error : std::runtime_error {
  int status;
  http_error(int s, const std::string& what) : std::runtime_error(what), status(s) {}
};

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// The options of `perlin render` that the page offers, in the order the command lists them.
/// Flags take "1"/"true" or "0"/"false".
const std::vector<std::string>& option_names() {
  static const std::vector<std::string> names = {
      "preset", "size", "frequency", "scale", "origin", "offset", "noise", "interp", "seed",
      "period", "fractal", "octaves", "lacunarity", "persistence", "normalize", "decorrelate", "plane",
      "warp", "warp-amplitude", "warp-frequency", "warp-octaves", "warp-seed",
      "colormap", "bits", "range", "stretch", "tileable", "invert"};
  return names;
}

std::string option_list() {
  std::string out;
  for (const auto& n : option_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

bool is_flag(const std::string& name) {
  return name == "normalize" || name == "decorrelate" || name == "stretch" || name == "tileable" ||
         name == "invert";
}

bool parse_flag(const std::string& name, const std::string& v) {
  if (v == "1" || v == "true" || v.empty()) return true;
  if (v == "0" || v == "false") return false;
  throw usage_error("--" + name + ": '" + v + "' is not 1 or 0");
}

double parse_number(const std::string& name, const std::string& v) {
  const auto n = parse_list(v, "--" + name, 1, 1);
  return n[0];
}

long long parse_integer(const std::string& name, const std::string& v) {
  long long out = 0;
  const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size()) {
    throw usage_error("--" + name + ": '" + v + "' is not an integer");
  }
  return out;
}

/// A request's query as render options: the names of `perlin render`'s options without "--".
struct query {
  render_options options;
  std::vector<std::pair<std::string, std::string>> given;  // in option_names() order
  bool download = false;
};

query parse_query(const httplib::Request& req, const std::string& ext) {
  query q;
  render_options& o = q.options;
  o.output = "noise" + ext;
  o.quiet = true;
  for (const auto& [key, value] : req.params) {
    if (key == "download") {
      q.download = parse_flag(key, value);
      continue;
    }
    if (std::find(option_names().begin(), option_names().end(), key) == option_names().end()) {
      throw usage_error("unknown option '" + key + "' (valid: " + option_list() + ")");
    }
    if (value.size() > 200) throw usage_error("--" + key + ": value too long");
  }
  for (const auto& name : option_names()) {
    if (!req.has_param(name.c_str())) continue;
    const std::string v = req.get_param_value(name.c_str());
    if (is_flag(name) && !parse_flag(name, v)) continue;  // a flag set to 0 is not given
    q.given.emplace_back(name, is_flag(name) ? "" : v);
    if (name == "preset") o.preset = v;
    else if (name == "size") o.size = v;
    else if (name == "frequency") o.frequency = parse_number(name, v);
    else if (name == "scale") o.scale = parse_number(name, v);
    else if (name == "origin") o.origin = v;
    else if (name == "offset") o.offset = v;
    else if (name == "noise") o.noise.noise = v;
    else if (name == "interp") o.noise.interp = v;
    else if (name == "seed") o.noise.seed = v;
    else if (name == "period") o.noise.period = v;
    else if (name == "fractal") o.noise.fractal = v;
    else if (name == "octaves") o.noise.octaves = static_cast<int>(std::clamp(parse_integer(name, v), -1LL, 1000LL));
    else if (name == "lacunarity") o.noise.lacunarity = parse_number(name, v);
    else if (name == "persistence") o.noise.persistence = parse_number(name, v);
    else if (name == "normalize") o.noise.normalize = true;
    else if (name == "decorrelate") o.noise.decorrelate = true;
    else if (name == "plane") o.noise.plane = v;
    else if (name == "warp") o.noise.warp = v;
    else if (name == "warp-amplitude") o.noise.warp_amplitude = parse_number(name, v);
    else if (name == "warp-frequency") o.noise.warp_frequency = parse_number(name, v);
    else if (name == "warp-octaves") o.noise.warp_octaves = static_cast<int>(std::clamp(parse_integer(name, v), -1LL, 1000LL));
    else if (name == "warp-seed") o.noise.warp_seed = v;
    else if (name == "colormap") o.colormap = v;
    else if (name == "bits") o.bits = static_cast<int>(std::clamp(parse_integer(name, v), -1LL, 1000LL));
    else if (name == "range") o.range = v;
    else if (name == "stretch") o.stretch = true;
    else if (name == "tileable") o.tileable = true;
    else if (name == "invert") o.invert = true;
  }
  return q;
}

/// A value as a shell word: kept as is when it holds only safe characters, else single-quoted.
std::string shell_word(const std::string& v) {
  const bool safe = !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("+-.,_/:x").find(c) != std::string_view::npos;
  });
  if (safe) return v;
  std::string out = "'";
  for (const char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// The `perlin render` command line that writes the picture this query shows.
std::string command_of(const query& q, const std::string& ext) {
  std::string cmd = "perlin render -o noise" + ext;
  for (const auto& [name, value] : q.given) {
    cmd += " --" + name;
    if (!is_flag(name)) cmd += " " + shell_word(value);
  }
  return cmd;
}

/// C++ that computes the same values (the field and the pixel grid), from the resolved plan.
std::string cpp_of(const render_plan& r) {
  const noise_options& n = r.noise;
  std::string s = "#include <perlin/perlin.hpp>\n\nperlin::field_spec spec;\n";
  if (n.noise != "improved") s += "spec.noise = \"" + n.noise + "\";\n";
  if (n.noise == "value" && n.interp != "quintic") s += "spec.interp = \"" + n.interp + "\";\n";
  if (!n.seed.empty()) s += "spec.seed = " + n.seed + "u;\n";
  if (!n.period.empty()) s += "spec.period = {" + n.period + "};\n";
  if (n.fractal != "none") {
    s += "spec.fractal = \"" + n.fractal + "\";\nspec.octaves = " + std::to_string(n.octaves) + ";\n";
    if (n.lacunarity != 2.0) s += "spec.lacunarity = " + json_number(n.lacunarity) + ";\n";
    if (n.persistence != 0.5) s += "spec.persistence = " + json_number(n.persistence) + ";\n";
    if (n.normalize) s += "spec.normalize = true;\n";
    if (n.decorrelate) s += "spec.decorrelate = true;\n";
  }
  if (n.plane != "aligned") s += "spec.plane = \"" + n.plane + "\";\n";
  if (n.warp != "none") {
    s += "spec.warp = \"" + n.warp + "\";\nspec.warp_amplitude = " + json_number(n.warp_amplitude) +
         ";\nspec.warp_frequency = " + json_number(n.warp_frequency) + ";\n";
    if (n.warp != "basic") s += "spec.warp_octaves = " + std::to_string(n.warp_octaves) + ";\n";
    if (!n.warp_seed.empty()) s += "spec.warp_seed = " + n.warp_seed + "u;\n";
  }
  s += "const perlin::field f = perlin::make_field(spec);\n";
  s += "perlin::grid g = perlin::grid::plane(" + std::to_string(r.width) + ", " + std::to_string(r.height) +
       ");\ng.step = {" + json_number(r.step[0]) + ", " + json_number(r.step[1]) + ", 1, 1};\n";
  if (r.origin[0] != 0 || r.origin[1] != 0) {
    s += "g.origin = {" + json_number(r.origin[0]) + ", " + json_number(r.origin[1]) + ", 0, 0};\n";
  }
  if (r.first[0] != 0 || r.first[1] != 0) {
    s += "g.first = {" + std::to_string(r.first[0]) + ", " + std::to_string(r.first[1]) + ", 0, 0};\n";
  }
  s += "std::vector<float> values(g.size());\nconst auto [lo, hi] = perlin::fill_grid(f, g, values, {.threads = 0});\n";
  if (r.f != formula::plain) s += "// then the preset's formula (docs/render.md)\n";
  return s;
}

/// Python that gives the same pixels.
std::string python_of(const query& q) {
  std::string preset = "plain";
  std::string args;
  for (const auto& [name, value] : q.given) {
    if (name == "preset") {
      preset = value;
      continue;
    }
    std::string keyword = name;
    std::replace(keyword.begin(), keyword.end(), '-', '_');
    args += ", " + keyword + "=";
    if (is_flag(name)) {
      args += "True";
    } else if (name == "size") {
      const auto x = value.find('x');
      args += "(" + value.substr(0, x) + ", " + value.substr(x == std::string::npos ? value.size() : x + 1) + ")";
    } else if (name == "origin" || name == "offset" || (name == "range" && value != "bound") ||
               (name == "period" && value.find(',') != std::string::npos)) {
      args += "(" + value + ")";
    } else if (name == "noise" || name == "interp" || name == "fractal" || name == "colormap" || name == "plane" ||
               name == "warp" || (name == "range" && value == "bound")) {
      args += "\"" + value + "\"";
    } else {
      args += value;
    }
  }
  return "import perlin\n\npixels = perlin.render(\"" + preset + "\"" + args + ")\n";
}

/// Resolves and renders the query's picture (one frame), counting its time.
struct rendered {
  render_plan plan;
  frame_values values;
  double ms = 0;
};

rendered render_query(const query& q) {
  rendered out;
  out.plan = resolve(q.options, [&q](const char* name) {
    return std::any_of(q.given.begin(), q.given.end(),
                       [name](const auto& g) { return "--" + g.first == name; });
  });
  if (!q.download && (out.plan.width > k_preview_max || out.plan.height > k_preview_max)) {
    throw usage_error("--size: previews are at most 2048x2048 (add download=1 to export larger)");
  }
  g_renders.acquire();
  struct release {
    ~release() { g_renders.release(); }
  } releaser;
  const auto start = std::chrono::steady_clock::now();
  render_frame(out.plan, 0, out.values);
  apply_formula(out.plan, out.values);
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string stats_json(const query& q, const rendered& r) {
  const auto& v = r.values.values;
  double lo = INFINITY, hi = -INFINITY, sum = 0;
  for (const float x : v) {
    lo = std::min(lo, double(x));
    hi = std::max(hi, double(x));
    sum += x;
  }
  const auto [blo, bhi] = value_bounds(r.plan, r.values);
  std::vector<std::size_t> hist(64, 0);
  for (const float x : v) {
    const double t = std::clamp((x - blo) / (bhi - blo), 0.0, 1.0);
    ++hist[std::min<std::size_t>(63, static_cast<std::size_t>(t * 64))];
  }
  std::string h;
  for (const auto c : hist) h += (h.empty() ? "" : ",") + std::to_string(c);
  const std::string ext = r.plan.png ? ".png" : ".npy";
  return "{\"ms\":" + json_number(r.ms) + ",\"min\":" + json_number(lo) + ",\"max\":" + json_number(hi) +
         ",\"mean\":" + json_number(sum / static_cast<double>(v.size())) + ",\"lo\":" + json_number(blo) +
         ",\"hi\":" + json_number(bhi) + ",\"histogram\":[" + h + "],\"width\":" + std::to_string(r.plan.width) +
         ",\"height\":" + std::to_string(r.plan.height) + ",\"step\":[" + json_number(r.plan.step[0]) + "," +
         json_number(r.plan.step[1]) + "],\"origin\":[" + json_number(r.plan.origin[0]) + "," +
         json_number(r.plan.origin[1]) + "],\"command\":" + json_string(command_of(q, ".png")) +
         ",\"cpp\":" + json_string(cpp_of(r.plan)) + ",\"python\":" + json_string(python_of(q)) + "}";
}

/// Runs `body`, turning every failure into a JSON error with the right status: a bad option is
/// 400 with the CLI's message; anything else is 500. The server never dies on a request.
template <class F>
void answer(httplib::Response& res, F&& body) {
  try {
    body();
  } catch (const http_error& e) {
    res.status = e.status;
    res.set_content("{\"error\":" + json_string(e.what()) + "}", "application/json");
  } catch (const usage_error& e) {
    res.status = 400;
    res.set_content("{\"error\":" + json_string(e.what()) + "}", "application/json");
  } catch (const perlin::invalid_argument& e) {
    res.status = 400;
    res.set_content("{\"error\":" + json_string(e.what()) + "}", "application/json");
  } catch (const std::bad_alloc&) {
    res.status = 503;
    res.set_content("{\"error\":\"out of memory\"}", "application/json");
  } catch (const std::exception& e) {
    res.status = 500;
    res.set_content("{\"error\":" + json_string(e.what()) + "}", "application/json");
  }
}

/// The page with its choices filled in from the library's and the renderer's own tables, so
/// that the page offers exactly what `perlin render` accepts.
std::string page_html() {
  const auto options = [](const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += "<option>" + n + "</option>";
    return out;
  };
  std::vector<std::string> preset_names, colormap_names;
  for (const auto& p : presets()) preset_names.emplace_back(p.name);
  for (const auto& m : colormaps()) colormap_names.push_back(m.name);
  const std::pair<const char*, std::string> fills[] = {
      {"@preset@", options(preset_names)},
      {"@noise@", options(perlin::noise_kind_names())},
      {"@interp@", options(perlin::interpolation_names())},
      {"@fractal@", options(perlin::fractal_kind_names())},
      {"@plane@", options(perlin::plane_names())},
      {"@warp@", options(perlin::warp_kind_names())},
      {"@colormap@", options(colormap_names)},
  };
  std::string page = k_page;
  for (const auto& [token, html] : fills) {
    const auto at = page.find(token);
    if (at != std::string::npos) page.replace(at, std::string_view(token).size(), html);
  }
  return page;
}

void install_routes(httplib::Server& svr) {
  svr.Get("/", [page = page_html()](const httplib::Request&, httplib::Response& res) {
    res.set_content(page, "text/html; charset=utf-8");
  });
  svr.Get("/render.png", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const query q = parse_query(req, ".png");
      const rendered r = render_query(q);
      const auto pixels = to_pixels(r.plan, r.values);
      const auto format = r.plan.cmap != nullptr ? perlin::pixel_format::rgb8
                          : r.plan.bits == 16    ? perlin::pixel_format::gray16
                                                 : perlin::pixel_format::gray8;
      const auto png = perlin::encode_png(r.plan.width, r.plan.height, format, pixels);
      res.set_header("X-Render-Ms", json_number(r.ms));
      res.set_header("Cache-Control", "no-store");
      res.set_content(std::string(png.begin(), png.end()), "image/png");
    });
  });
  svr.Get("/render.npy", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      query q = parse_query(req, ".npy");
      q.options.bits = 8;
      q.options.colormap.reset();
      const rendered r = render_query(q);
      const std::size_t shape[2] = {r.plan.height, r.plan.width};
      const auto npy = perlin::encode_npy(shape, r.values.values);
      res.set_content(std::string(npy.begin(), npy.end()), "application/octet-stream");
    });
  });
  svr.Get("/stats.json", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const query q = parse_query(req, ".png");
      res.set_header("Cache-Control", "no-store");
      res.set_content(stats_json(q, render_query(q)), "application/json");
    });
  });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      res.set_content("{\"error\":\"" + std::string(res.status == 404 ? "not found" : "bad request") + "\"}",
                      "application/json");
    }
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content("{\"error\":\"internal error\"}", "application/json");
  });
}

bool is_loopback(const std::string& host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

int run_serve(const serve_options& o) {
  if (o.port < 0 || o.port > 65535) throw usage_error("--port: must be 0 to 65535");
  // SIGINT and SIGTERM stop the server from one thread (sigwait), not from a handler.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server svr;
  svr.set_payload_max_length(1 << 16);
  svr.new_task_queue = [] { return new httplib::ThreadPool(8); };
  install_routes(svr);
  const int port = o.port == 0 ? svr.bind_to_any_port(o.host) : (svr.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port));
  if (!is_loopback(o.host)) {
    std::fprintf(stderr, "perlin: warning: listening on %s, not only on this machine\n", o.host.c_str());
  }
  const std::string url = "http://" + (o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host) +
                          ":" + std::to_string(port) + "/";
  // The URL is how callers (and the tests) find the server: a failed write is an error.
  if (std::printf("perlin serve: %s\n", url.c_str()) < 0 || std::fflush(stdout) != 0) {
    throw std::runtime_error("cannot write to standard output");
  }
  std::atomic<bool> stopping{false};
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    stopping = true;
    svr.stop();
  });
  if (o.open) {
    const std::string cmd = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
  }
  const bool ok = svr.listen_after_bind();
  if (!stopping) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  std::fprintf(stderr, "perlin serve: stopped\n");
  return ok || stopping ? 0 : 1;
}

}  // namespace

void add_serve_command(CLI::App& app, std::function<int()>& run) {
  auto opts = std::make_shared<serve_options>();
  CLI::App* cmd = app.add_subcommand(
      "serve", "Serve a live preview page: tune the noise by eye, copy the exact command and code");
  cmd->add_option("--port", opts->port, "TCP port; 0 picks a free one")->capture_default_str();
  cmd->add_option("--host", opts->host, "Address to listen on (not loopback: reachable by others)")
      ->capture_default_str();
  cmd->add_flag("--open", opts->open, "Open the page in the browser");
  cmd->callback([opts, &run] { run = [opts] { return run_serve(*opts); }; });
}

}  // namespace perlin_cli
