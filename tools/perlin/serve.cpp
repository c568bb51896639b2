// `perlin serve`: a local HTTP server for the live preview page. It serves one page (embedded,
// src/page/html.hpp) and renders what the page asks for with the same code as `perlin render`
// (perlin_render's resolve and pipeline), so the picture, the numbers and the command it shows
// are exactly what the command line writes. It reads no files and writes none.
#include "serve.hpp"

#include <httplib.h>
#include <netdb.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "client_connection.hpp"
#include "page/html.hpp"
#include "page/query.hpp"
#include "perlin/error.hpp"
#include "perlin/field_spec.hpp"
#include "perlin/image_io.hpp"
#include "perlin/option_table.hpp"
#include "perlin/range.hpp"
#include "presets.hpp"
#include "render_pipeline.hpp"
#include "render_plan.hpp"
#include "runtime/text.hpp"
#include "usage.hpp"

namespace perlin_cli {

using namespace perlin_render;
using namespace perlin_page;

namespace {

struct serve_options {
  int port = 8080;
  std::string host = "127.0.0.1";
  bool open = false;
  double time_budget = 10;
  int workers = 32;
};

/// A request the server refuses: HTTP `status` with the message in JSON (and, for a 503 that
/// will pass, a Retry-After in seconds).
struct http_error : std::runtime_error {
  int status;
  int retry_after = 0;
  http_error(int s, const std::string& what, int retry = 0)
      : std::runtime_error(what), status(s), retry_after(retry) {}
};

/// The time budget of one render (--time-budget): previews get it, exports (download=1) six times
/// as much.
std::atomic<double> g_budget_seconds{10};

/// Renders whose estimated work (render_work) is at most this are cheap: a preview of the page
/// (512x512 with 16 evaluations a sample) takes tens of milliseconds.
constexpr double k_cheap_work = double(std::uint64_t{1} << 22);

/// The noise evaluations a render needs, estimated: per sample, one a fractal octave, one per
/// axis a warp octave, four with the gradient (relief, normal maps).
double render_work(const render_plan& plan) {
  const double octaves = plan.spec.fractal == "none" ? 1 : plan.spec.octaves;
  const double warp = plan.spec.warp == "none"    ? 0
                      : plan.spec.warp == "basic" ? 1
                                                  : plan.spec.warp_octaves;
  const double per_sample =
      (octaves + warp * static_cast<double>(std::max<std::size_t>(2, plan.dims))) *
      (plan.with_gradient() ? 4 : 1);
  return static_cast<double>(plan.samples()) * per_sample;
}

/// The 2 render slots, shared so that one client's costly renders cannot hold back another's
/// preview: costly renders (over k_cheap_work) take at most one slot together, so the other is
/// always free for cheap ones within a cheap render's time; a freed slot goes to the cheapest
/// request waiting (the earliest among equals). A request leaves the queue when its client does.
/// A request waiting keeps its worker: so costly requests are admitted only up to
/// `costly_limit` at once (running and waiting), fewer than the workers, and the rest are refused
/// at once (503, Retry-After): the other workers stay for previews.
class render_slots {
 public:
  enum class outcome { acquired, gone, busy };

  /// Costly requests admitted at once: at most 3 (one running, two waiting), and one worker
  /// left for cheap requests where there are 2 workers or more.
  void set_workers(int workers) { costly_limit_ = std::clamp(workers - 1, 1, 3); }

  /// Waits for a slot for a render of `work`: gone when `gone()` turned true while waiting, busy
  /// (at once) when a costly render finds `costly_limit` costly ones admitted already.
  template <class Gone>
  outcome acquire(double work, Gone&& gone) {
    std::unique_lock lock(mutex_);
    const bool costly = work > k_cheap_work;
    if (costly && costly_admitted_ >= costly_limit_) return outcome::busy;
    if (costly) ++costly_admitted_;
    const auto me = waiting_.emplace(work, next_++).first;
    for (;;) {
      if (my_turn(me)) {
        waiting_.erase(me);
        --free_;
        if (costly) ++costly_running_;
        return outcome::acquired;
      }
      changed_.wait_for(lock, std::chrono::milliseconds(100));
      if (!my_turn(me) && gone()) {
        waiting_.erase(me);
        if (costly) --costly_admitted_;
        changed_.notify_all();
        return outcome::gone;
      }
    }
  }
  void release(double work) {
    {
      const std::lock_guard lock(mutex_);
      ++free_;
      if (work > k_cheap_work) {
        --costly_running_;
        --costly_admitted_;
      }
    }
    changed_.notify_all();
  }

 private:
  using entry = std::pair<double, std::uint64_t>;  // work, arrival
  bool eligible(const entry& e) const { return e.first <= k_cheap_work || costly_running_ == 0; }
  /// A slot is free and `me` is the first eligible request in the queue (cheapest first).
  bool my_turn(std::set<entry>::iterator me) const {
    if (free_ == 0 || !eligible(*me)) return false;
    for (auto it = waiting_.begin(); it != me; ++it) {
      if (eligible(*it)) return false;
    }
    return true;
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::set<entry> waiting_;
  std::uint64_t next_ = 0;
  int free_ = 2;
  int costly_running_ = 0;
  int costly_admitted_ = 0;  // running and waiting
  int costly_limit_ = 3;
};

render_slots g_renders;

/// One of the 2 render slots, held while a picture is evaluated, mapped and encoded (every copy
/// of its data is made inside the slot). Made before the slot is acquired, so that nothing
/// between acquiring and owning can throw and lose the slot.
class render_slot {
 public:
  explicit render_slot(double work) : work_(work) {}
  ~render_slot() {
    if (held_) g_renders.release(work_);
  }
  render_slot(const render_slot&) = delete;
  render_slot& operator=(const render_slot&) = delete;
  void hold() { held_ = true; }

 private:
  double work_;
  bool held_ = false;
};

/// Most bytes one request may hold (values, gradient, pixels, the encoded file): with 2 slots, the
/// server never holds more than twice this for renders. Larger files are `perlin render`'s.
constexpr std::uint64_t k_request_memory = std::uint64_t{1} << 30;  // 1 GiB

/// Resolves and renders the query's picture (one frame), counting its time.
struct rendered {
  render_plan plan;
  frame_values values;
  double ms = 0;
  std::unique_ptr<render_slot> slot;  // held until the response's bytes are made
};

/// SIGINT or SIGTERM came: renders stop between bands, and requests waiting for a slot leave.
std::atomic<bool> g_stopping{false};

/// The client went away: its render stops (the answer has nowhere to go).
struct client_gone : std::runtime_error {
  client_gone() : std::runtime_error("the client closed the connection") {}
};

/// The query's plan, if the server renders it: a size over the CLI's memory limit is 413, as a
/// size over the server's own (the CLI's check, in resolve, says it first).
render_plan resolve_servable(const query& q) {
  render_plan plan;
  try {
    plan = resolve(q.options);
  } catch (const perlin::invalid_argument& e) {
    // The memory limit is the size's error of kind size (a bad size's text is of kind value).
    if (e.parameter() == "size" && e.kind() == perlin::error_kind::size) {
      throw http_error(413, std::string(e.what()) + "; the server renders at most " +
                                std::to_string(k_request_memory >> 20) +
                                " MiB a request: use perlin render for larger files");
    }
    throw;
  }
  check_servable(q, plan);
  return plan;
}

/// Renders the query for the client on `client`: stops between bands (65,536 samples) when the
/// time budget is spent (503) or the client has gone away.
rendered render_query(const query& q, const client_connection& client) {
  rendered out;
  out.plan = resolve_servable(q);
  // Every copy counted: the float values, a relief's gradient, the pixels, the encoded file.
  const std::uint64_t per_sample =
      4 + (out.plan.with_gradient() ? 8 : 0) +
      2 * std::max<std::uint64_t>(4, perlin::bytes_per_pixel(pixel_format_of(out.plan)));
  if (static_cast<double>(out.plan.samples()) * static_cast<double>(per_sample) >
      static_cast<double>(k_request_memory)) {
    throw http_error(413, "--size: the server renders at most " +
                              std::to_string(k_request_memory >> 20) +
                              " MiB a request (this one needs about " +
                              std::to_string(out.plan.samples() * per_sample >> 20) +
                              " MiB); use perlin render for larger files");
  }
  const double work = render_work(out.plan);
  // A time budget per render, checked between bands of 65,536 samples: a costly request gives
  // its slot back instead of holding it for minutes.
  const double budget = g_budget_seconds.load() * (q.download ? 6 : 1);
  // Its answer gets as long to be written: a client that reads slowly cannot hold its worker.
  client_connection::set_response_seconds(budget);
  out.slot = std::make_unique<render_slot>(work);
  switch (g_renders.acquire(work, [&] { return g_stopping || !client.still_there(); })) {
    case render_slots::outcome::acquired:
      out.slot->hold();
      break;
    case render_slots::outcome::busy:
      throw http_error(503,
                       "the server is busy with costly renders; try again, or use perlin render "
                       "for costly fields",
                       static_cast<int>(std::ceil(g_budget_seconds.load())));
    case render_slots::outcome::gone:
      if (g_stopping) throw http_error(503, "the server is stopping");
      throw client_gone();  // left while waiting for a slot
  }
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double>(budget));
  out.plan.band_samples = std::size_t{1} << 16;
  render_frame(out.plan, 0, out.values, [&](double done) {
    if (g_stopping) throw http_error(503, "the server is stopping");
    if (!client.still_there()) throw client_gone();
    if (std::chrono::steady_clock::now() > deadline) {
      throw http_error(503, "the render took longer than " + perlin::detail::number_text(budget) +
                                " s (" + std::to_string(static_cast<int>(done * 100)) +
                                "% done); use perlin render for costly fields, or a smaller size");
    }
  });
  apply_formula(out.plan, out.values);
  out.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

/// Runs `body`, turning every failure into a JSON error with the right status: a bad option is
/// 400 with the library's message; anything else is 500. The server never dies on a request.
template <class F>
void answer(httplib::Response& res, F&& body) {
  try {
    body();
  } catch (const client_gone& e) {
    res.status = 499;  // nginx's "client closed request": nobody reads it
    res.set_content("{\"error\":" + json_string(e.what()) + "}", "application/json");
  } catch (const http_error& e) {
    res.status = e.status;
    if (e.retry_after > 0) res.set_header("Retry-After", std::to_string(e.retry_after));
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

std::string stats_json_of(const query& q, const rendered& r) {
  return stats_json(q, r.plan, r.values, r.ms);
}

void install_routes(httplib::Server& svr) {
  svr.Get("/", [page = page_html(page_backend::server)](const httplib::Request&,
                                                        httplib::Response& res) {
    res.set_content(page, "text/html; charset=utf-8");
  });
  svr.Get("/render.png", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const query q = parse_query(req.params, ".png");
      rendered r = render_query(q, client_connection::current());
      const auto pixels = to_pixels(r.plan, r.values);
      const auto format = pixel_format_of(r.plan);
      const auto png = perlin::encode_png(r.plan.width, r.plan.height, format, pixels,
                                          {.recipe = r.plan.recipe});
      res.set_header("X-Render-Ms", json_number(r.ms));
      // The stats ride with the picture (one request per change); headers are ASCII.
      std::string stats = stats_json(q, r.plan, r.values, r.ms);
      for (char& c : stats) c = static_cast<unsigned char>(c) < 0x80 ? c : '?';
      res.set_header("X-Stats", stats);
      res.set_header("Cache-Control", "no-store");
      res.set_content(std::string(png.begin(), png.end()), "image/png");
    });
  });
  svr.Get("/render.npy", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      query q = parse_query(req.params, ".npy");
      drop_pixel_settings(q);
      const rendered r = render_query(q, client_connection::current());
      const std::size_t shape[2] = {r.plan.height, r.plan.width};
      const auto npy = perlin::encode_npy(shape, r.values.values);
      res.set_content(std::string(npy.begin(), npy.end()), "application/octet-stream");
    });
  });
  svr.Get("/stats.json", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const query q = parse_query(req.params, ".png");
      res.set_header("Cache-Control", "no-store");
      res.set_content(stats_json_of(q, render_query(q, client_connection::current())),
                      "application/json");
    });
  });
  // The page's GPU mode: the field's GLSL ES program and the picture's geometry (no render).
  svr.Get("/shader.json", [](const httplib::Request& req, httplib::Response& res) {
    answer(res, [&] {
      const query q = parse_query(req.params, ".png");
      const render_plan plan = resolve_servable(q);
      res.set_header("Cache-Control", "no-store");
      res.set_content(shader_json(plan), "application/json");
    });
  });
  svr.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) {
      res.set_content(
          "{\"error\":\"" + std::string(res.status == 404 ? "not found" : "bad request") + "\"}",
          "application/json");
    }
  });
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, const std::exception_ptr&) {
        res.status = 500;
        res.set_content("{\"error\":\"internal error\"}", "application/json");
      });
}

bool is_loopback(const std::string& host);

/// The requests the server refuses before routing: a Host header that names neither a loopback
/// name nor the --host address (DNS rebinding: a web page's name resolving to 127.0.0.1), an
/// Origin of another site (a page elsewhere making this server render); byte ranges are ignored
/// (each range of a multi-range request would be a copy of the image).
void install_guards(httplib::Server& svr, const std::string& listen_host) {
  svr.set_pre_routing_handler([listen_host](const httplib::Request& req, httplib::Response& res) {
    const auto refuse = [&](int status, const std::string& why) {
      res.status = status;
      res.set_content("{\"error\":" + json_string(why) + "}", "application/json");
      return httplib::Server::HandlerResponse::Handled;
    };
    // The host part of "name:port", "[::1]:port" or "name".
    const auto host_of = [](const std::string& h) {
      if (!h.empty() && h[0] == '[')
        return h.substr(1, h.find(']') == std::string::npos ? 0 : h.find(']') - 1);
      return h.substr(0, h.find(':'));
    };
    const auto allowed = [&](const std::string& host) {
      return host == "localhost" || host == "127.0.0.1" || host == "::1" ||
             (host == listen_host && !host.empty()) ||
             (!is_loopback(listen_host) && listen_host == "0.0.0.0");
    };
    const std::string host = host_of(req.get_header_value("Host"));
    if (!allowed(host)) {
      return refuse(403,
                    "Host '" + host + "' is not this server's name (loopback names, or --host)");
    }
    if (req.has_header("Origin")) {
      const std::string origin = req.get_header_value("Origin");
      const std::string prefix = "http://";
      if (origin.rfind(prefix, 0) != 0 || !allowed(host_of(origin.substr(prefix.size())))) {
        return refuse(
            403, "Origin '" + origin + "' is another site: the preview serves its own page only");
      }
    }
    // Byte ranges are ignored (RFC 7233 lets a server send the whole representation): cpp-httplib
    // would otherwise build a copy of the image per range. The request object is cpp-httplib's
    // own, handed to the handlers as const; clearing its parsed ranges here is what ignoring is.
    auto& mutable_req = const_cast<httplib::Request&>(req);
    mutable_req.ranges.clear();
    mutable_req.headers.erase("Range");
    return httplib::Server::HandlerResponse::Unhandled;
  });
}

/// Why binding `host`:`port` fails, and what to try: the system's message for binding a socket
/// there as the server does (cpp-httplib's bind_to_port says only that it failed).
std::string why_not_listening(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string other_host =
      "; --host takes an address of this machine (127.0.0.1, ::1, or 0.0.0.0 for every interface)";
  if (const int rc = getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
      rc != 0) {
    return gai_strerror(rc) + other_host;
  }
  int error = 0;
  for (const addrinfo* a = found; a != nullptr && error == 0; a = a->ai_next) {
    const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      error = errno;
      continue;
    }
    int yes = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 1) != 0) error = errno;
    ::close(fd);
  }
  freeaddrinfo(found);
  if (error == 0) return "the port was taken while the server started; try again, or --port 0";
  std::string why = std::strerror(error);
  if (error == EADDRINUSE || error == EACCES) {
    const std::string next = std::to_string(port == 0 || port == 65535 ? 8080 : port + 1);
    return why + "; try --port " + next + ", or --port 0 for a free one";
  }
  if (error == EADDRNOTAVAIL) return why + other_host;
  return why;
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

  if (!(o.time_budget > 0) || !(o.time_budget <= 86400))
    throw usage_error("--time-budget: must be > 0 and at most 86400");
  g_budget_seconds = o.time_budget;
  if (o.workers < 1 || o.workers > 1024) throw usage_error("--workers: must be 1 to 1024");
  if (o.host.empty()) {
    throw usage_error(
        "--host: give an address to listen on (127.0.0.1, ::1, or 0.0.0.0 for every interface)");
  }
  connection_limits limits;
  limits.workers = static_cast<std::size_t>(o.workers);
  // Slow clients cannot hold the workers: a connection waits in one event loop until its request
  // is whole, which must happen within 2 s of its first byte (else 408); an idle kept-alive
  // connection is closed after 2 s. Workers (32) answer whole requests; at most 2 render, and
  // costly requests hold at most 3 of them (render_slots).
  g_renders.set_workers(o.workers);
  gated_server svr(limits);
  // One server per port: SO_REUSEADDR only (cpp-httplib's default, SO_REUSEPORT, lets a second
  // server bind the same port and take half of its requests).
  svr.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  install_routes(svr);
  install_guards(svr, o.host);
  const int port =
      o.port == 0 ? svr.bind_to_any_port(o.host) : (svr.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) {
    throw std::runtime_error("cannot listen on " + o.host + ":" + std::to_string(o.port) + ": " +
                             why_not_listening(o.host, o.port));
  }
  if (!is_loopback(o.host)) {
    std::fprintf(stderr, "perlin: warning: listening on %s, not only on this machine\n",
                 o.host.c_str());
  }
  const std::string url = "http://" +
                          (o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host) +
                          ":" + std::to_string(port) + "/";
  // The URL is how callers (and the tests) find the server: a failed write is an error.
  if (std::printf("perlin serve: %s\n", url.c_str()) < 0 || std::fflush(stdout) != 0) {
    throw std::runtime_error("cannot write to standard output");
  }
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    g_stopping = true;
    svr.request_stop();  // also before cpp-httplib listens
  });
  if (o.open) {
    const std::string cmd = "xdg-open '" + url + "' >/dev/null 2>&1 &";
    [[maybe_unused]] const int rc = std::system(cmd.c_str());
  }
  const bool ok = svr.run();
  // Wakes the thread that waits for the signals (sigwait on SIGINT and SIGTERM).
  // NOLINTNEXTLINE(bugprone-bad-signal-to-kill-thread)
  if (!g_stopping) pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  std::fprintf(stderr, "perlin serve: stopped\n");
  return ok || g_stopping ? 0 : 1;
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
  cmd->add_option(
         "--time-budget", opts->time_budget,
         "Seconds one preview may render (exports: 6 times as long); past it the request gets 503")
      ->capture_default_str();
  // For the tests: fewer workers make "more slow clients than workers" cheap to send.
  cmd->add_option("--workers", opts->workers, "Threads that answer requests")->group("");
  cmd->callback([opts, &run] { run = [opts] { return run_serve(*opts); }; });
}

}  // namespace perlin_cli
