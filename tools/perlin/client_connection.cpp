#include "client_connection.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <system_error>
#include <utility>

namespace perlin_cli {

using clock_type = std::chrono::steady_clock;

struct gated_server::connection {
  int fd = -1;
  std::string in;  // bytes read and not yet answered, from `pos`
  std::size_t pos = 0;
  std::size_t served = 0;           // requests answered
  clock_type::time_point deadline;  // idle: of the next request's first byte; else of its end
  clock_type::time_point since;     // when it came (or came back) to the loop
  bool started = false;             // some bytes of the next request are here
  bool eof = false;                 // the client sent FIN: its whole requests, then close
  bool recheck = false;             // back from a worker: look at its bytes without new ones
  bool closing = false;             // our side is shut: what comes is read and dropped
  std::size_t drained = 0;          // bytes dropped while closing

  ~connection() {
    if (fd >= 0) ::close(fd);
  }
};

namespace {

thread_local int t_current_fd = -1;
thread_local double t_response_seconds = 0;  // 0: the server's default

clock_type::time_point after(double seconds) {
  return clock_type::now() +
         std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

/// Polls `fd` for `events` until `deadline`; true when one is there. Retries on EINTR.
bool wait_for(int fd, short events, clock_type::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    pollfd p{fd, events, 0};
    const int n = poll(&p, 1, static_cast<int>(std::max<std::int64_t>(0, left.count())));
    if (n > 0) return (p.revents & (events | POLLHUP | POLLERR)) != 0;
    if (n == 0 || errno != EINTR) return false;
  }
}

/// The numeric address and the port of a socket address (IPv4 or IPv6), or false.
bool address_of(const sockaddr_storage& a, std::string& host, int& port) {
  char text[INET6_ADDRSTRLEN] = {};
  if (a.ss_family == AF_INET) {
    sockaddr_in v4{};
    std::memcpy(&v4, &a, sizeof v4);
    if (inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text) == nullptr) return false;
    port = ntohs(v4.sin_port);
  } else if (a.ss_family == AF_INET6) {
    sockaddr_in6 v6{};
    std::memcpy(&v6, &a, sizeof v6);
    if (inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text) == nullptr) return false;
    port = ntohs(v6.sin6_port);
  } else {
    return false;
  }
  host = text;
  return true;
}

/// Where one request ends in the bytes read, or why it is refused.
struct request_extent {
  std::size_t end = 0;     ///< bytes from the start that make one whole request; 0: not yet
  std::string_view error;  ///< not empty: the status to answer with before closing
};

/// The extent of the request at the start of `s`: the request line and the headers, each line
/// ending in CRLF, up to an empty line, then a Content-Length body. What a worker could not
/// answer from these bytes alone is refused as soon as the headers are seen: cpp-httplib would
/// read a body without a length until the stream ends, skip an oversized one byte by byte, read
/// chunks, and take a bare LF as no end of the headers.
request_extent whole_request(std::string_view s, std::size_t max_body) {
  const auto named = [](std::string_view line, std::string_view name) {
    return line.size() >= name.size() &&
           std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  std::string_view method;
  bool chunked = false;
  bool bad_length = false;
  bool has_length = false;
  std::uint64_t length = 0;
  std::size_t line = 0;
  for (bool first = true;; first = false) {
    const std::size_t lf = s.find('\n', line);
    if (lf == std::string_view::npos) return {};
    if (lf == line || s[lf - 1] != '\r') return {0, "400 Bad Request"};  // a bare LF
    const std::string_view text = s.substr(line, lf - 1 - line);
    line = lf + 1;
    if (first) {
      method = text.substr(0, text.find(' '));
      continue;
    }
    if (text.empty()) break;  // the headers' end
    if (named(text, "transfer-encoding:")) chunked = true;
    constexpr std::string_view length_name = "content-length:";
    if (!named(text, length_name)) continue;
    std::string_view value = text.substr(length_name.size());
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
      value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    std::uint64_t n = 0;
    const bool digits =
        !value.empty() && value.size() <= 18 && std::all_of(value.begin(), value.end(), [](char c) {
          return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
    for (const char c : value) n = digits ? n * 10 + static_cast<std::uint64_t>(c - '0') : 0;
    bad_length = bad_length || !digits || (has_length && n != length);
    has_length = true;
    length = n;
  }
  if (chunked) return {0, "501 Not Implemented"};  // no request here needs a body
  if (bad_length) return {0, "400 Bad Request"};
  if (length > max_body) return {0, "413 Payload Too Large"};
  // The methods whose body cpp-httplib reads (until the stream ends, without a length).
  if (!has_length && (method == "POST" || method == "PUT" || method == "PATCH" ||
                      method == "DELETE" || method == "PRI")) {
    return {0, "411 Length Required"};
  }
  if (s.size() - line < length) return {};
  return {line + static_cast<std::size_t>(length), {}};
}

/// A fixed answer written without waiting (the connection closes after it), best effort.
void answer_and_close(int fd, std::string_view status, std::string_view extra = {}) {
  const std::string text = "HTTP/1.1 " + std::string(status) + "\r\n" + std::string(extra) +
                           "Connection: close\r\nContent-Length: 0\r\n\r\n";
  [[maybe_unused]] const ssize_t n =
      send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// cpp-httplib's Stream over one whole request: reads come from the request's bytes only (the
/// loop read them; at their end a read gives 0, the end of the stream), never from the socket;
/// the response is written within a deadline from its first byte, and not at all once the server
/// is stopping.
class connection_stream final : public httplib::Stream {
 public:
  connection_stream(gated_server::connection& c, std::size_t end, double response_seconds,
                    const std::atomic<bool>& stopping)
      : in_(c.in),
        pos_(c.pos),
        end_(end),
        fd_(c.fd),
        response_seconds_(response_seconds),
        stopping_(stopping) {}

  bool is_readable() const override { return pos_ < end_; }
  bool is_writable() const override { return !stopping_ && wait_for(fd_, POLLOUT, deadline()); }

  ssize_t read(char* ptr, size_t size) override {
    const std::size_t n = std::min(size, end_ - std::min(pos_, end_));
    std::memcpy(ptr, in_.data() + pos_, n);
    pos_ += n;
    return static_cast<ssize_t>(n);
  }

  ssize_t write(const char* ptr, size_t size) override {
    const auto until = deadline();
    for (;;) {
      // In slices, so that a server stopping stops the writes too.
      if (stopping_ || clock_type::now() >= until) return -1;
      if (!wait_for(fd_, POLLOUT, std::min(until, after(0.1)))) continue;
      const ssize_t n = send(fd_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API's own cast
    if (getpeername(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0 || !address_of(a, ip, port))
      port = -1;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API's own cast
    if (getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0 || !address_of(a, ip, port))
      port = -1;
  }
  socket_t socket() const override { return fd_; }

 private:
  /// The response's deadline, from its first write (the handler may have set its own time).
  clock_type::time_point deadline() const {
    if (!writing_) {
      deadline_ = after(t_response_seconds > 0 ? t_response_seconds : response_seconds_);
      writing_ = true;
    }
    return deadline_;
  }

  std::string& in_;
  std::size_t& pos_;
  std::size_t end_;
  int fd_;
  double response_seconds_;
  const std::atomic<bool>& stopping_;
  mutable bool writing_ = false;
  mutable clock_type::time_point deadline_;
};

/// Runs cpp-httplib's task at once on the accepting thread: the task only hands the socket to
/// the loop (process_and_close_socket below), so no thread is needed for it.
class hand_over_queue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

/// Starts closing `c` gracefully: our side is shut (the client reads every byte sent, then the
/// end), and what the client still sends is read and dropped until it closes too or
/// `seconds` pass. Closing at once with unread bytes would reset the connection and cut the
/// answer on its way.
void start_closing(gated_server::connection& c, double seconds) {
  ::shutdown(c.fd, SHUT_WR);
  c.closing = true;
  c.in.clear();
  c.in.shrink_to_fit();
  c.pos = 0;
  c.deadline = after(seconds);
}

}  // namespace

gated_server::gated_server(const connection_limits& limits) : limits_(limits) {
  new_task_queue = [] { return new hand_over_queue; };
  set_read_timeout(static_cast<time_t>(limits.request_seconds), 0);
  set_keep_alive_max_count(limits.keep_alive_max);
  set_keep_alive_timeout(static_cast<time_t>(limits.idle_seconds));  // its Keep-Alive header
  set_payload_max_length(limits.max_body_bytes);
}

gated_server::~gated_server() = default;

bool gated_server::process_and_close_socket(socket_t sock) {
  auto c = std::make_unique<connection>();
  c->fd = sock;
  const int flags = fcntl(sock, F_GETFL, 0);
  if (flags < 0 || fcntl(sock, F_SETFL, flags | O_NONBLOCK) != 0) return false;  // closes it
  c->deadline = after(limits_.idle_seconds);
  hand_back(std::move(c));
  return true;
}

void gated_server::wake() {
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_[1], &byte, 1);
}

void gated_server::hand_back(std::unique_ptr<connection> c) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;  // closes it
    c->since = clock_type::now();
    inbox_.push_back(std::move(c));
  }
  wake();
}

void gated_server::request_stop() {
  // Server::stop does nothing before cpp-httplib listens (a signal just after the start was
  // lost): the loop calls it, once, as soon as cpp-httplib is listening.
  stop_requested_ = true;
  {
    const std::lock_guard lock(mutex_);
    if (!stopping_ && wake_[1] >= 0) wake();
  }
  ready_cv_.notify_all();
}

void gated_server::finish() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    ready_.clear();
    inbox_.clear();
  }
  ready_cv_.notify_all();
  wake();
  if (loop_thread_.joinable()) loop_thread_.join();
  for (auto& t : workers_) {
    if (t.joinable()) t.join();
  }
  ::close(wake_[0]);
  ::close(wake_[1]);
  wake_[0] = wake_[1] = -1;
}

bool gated_server::run() {
  if (pipe2(wake_, O_NONBLOCK | O_CLOEXEC) != 0) return false;
  try {
    loop_thread_ = std::thread([this] { loop(); });
    for (std::size_t i = 0; i < std::max<std::size_t>(1, limits_.workers); ++i)
      workers_.emplace_back([this] { work(); });
  } catch (const std::system_error&) {  // no thread for the moment: not serving at all
    finish();
    return false;
  }
  const bool ok = listen_after_bind();
  finish();
  return ok || stop_requested_;
}

namespace {

/// What the loop does with a connection after looking at it once.
enum class visit_result { keep, drop, whole };

/// Too many connections: the closing ones go first, then the idle ones, then those with a
/// request under way; in each, the one that waited longest.
void evict_excess(std::vector<std::unique_ptr<gated_server::connection>>& waiting,
                  std::size_t max_connections) {
  if (waiting.size() <= max_connections) return;
  const auto rank = [](const gated_server::connection& c) {
    return c.closing ? 0 : c.started ? 2 : 1;
  };
  std::stable_sort(waiting.begin(), waiting.end(), [&](const auto& a, const auto& b) {
    return rank(*a) != rank(*b) ? rank(*a) > rank(*b) : a->since > b->since;
  });
  waiting.resize(max_connections);
}

/// Polls the wake pipe and the waiting connections until the nearest deadline (`soon`: within
/// 10 ms, while a stop waits for cpp-httplib to listen). False when poll failed (the
/// connections wait their turn).
bool poll_waiting(const std::vector<std::unique_ptr<gated_server::connection>>& waiting,
                  int wake_fd, bool soon, std::vector<pollfd>& polled) {
  auto next = clock_type::now() + std::chrono::seconds(1);
  if (soon) next = clock_type::now() + std::chrono::milliseconds(10);
  polled.assign(1, pollfd{wake_fd, POLLIN, 0});
  for (const auto& c : waiting) {
    polled.push_back(pollfd{c->fd, POLLIN, 0});
    next = std::min(next, c->recheck ? clock_type::now() : c->deadline);
  }
  const auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(next - clock_type::now()).count();
  const int n = poll(polled.data(), polled.size(), static_cast<int>(std::max<long>(0, left) + 1));
  if (n < 0) {  // EINTR, or no memory for the moment
    std::this_thread::sleep_for(std::chrono::milliseconds(errno == EINTR ? 0 : 10));
    return false;
  }
  return true;
}

/// A closing connection drains until the client closes, for a while, a bounded amount.
visit_result drain_closing(gated_server::connection& c, short revents, clock_type::time_point now,
                           const connection_limits& limits, std::span<char> chunk) {
  bool drop = false;
  while (revents != 0) {
    const ssize_t got = recv(c.fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    c.drained += got > 0 ? static_cast<std::size_t>(got) : 0;
    if (got <= 0 || c.drained > 16 * limits.max_request_bytes) {
      drop = true;
      break;
    }
  }
  return drop || now >= c.deadline ? visit_result::drop : visit_result::keep;
}

/// Reads what arrived on `c` into its buffer; returns whether it read something and sets
/// `drop` when the connection failed.
bool read_arrived(gated_server::connection& c, const connection_limits& limits,
                  std::span<char> chunk, bool& drop) {
  bool fresh = false;
  for (;;) {
    const ssize_t got = recv(c.fd, chunk.data(), chunk.size(), MSG_DONTWAIT);
    if (got > 0) {
      if (!c.started) c.deadline = after(limits.request_seconds);
      c.started = true;
      c.in.append(chunk.data(), static_cast<std::size_t>(got));
      fresh = true;
      if (c.in.size() > limits.max_request_bytes) break;
      continue;
    }
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    if (got < 0 && errno == EINTR) continue;
    // The client closed its end (or the connection failed): the requests it sent whole are
    // still answered (a render counts it as gone, client_connection::still_there).
    c.eof = got == 0;
    drop = !c.eof;
    break;
  }
  return fresh;
}

/// One look at a connection that is not closing: reads what arrived, and says whether a request
/// is whole, the connection is done, or it waits on (answering 4xx and starting to close where
/// its request cannot be).
visit_result visit(gated_server::connection& c, short revents, clock_type::time_point now,
                   const connection_limits& limits, std::span<char> chunk) {
  bool drop = false;
  bool fresh = std::exchange(c.recheck, false);  // only then can a request be whole
  if (revents != 0 && read_arrived(c, limits, chunk, drop)) fresh = true;
  if (!drop && fresh && c.started) {
    const request_extent e = whole_request(c.in, limits.max_body_bytes);
    if (!e.error.empty()) {
      answer_and_close(c.fd, e.error);
      start_closing(c, limits.linger_seconds);
      return visit_result::keep;
    }
    if (e.end > 0) return visit_result::whole;
  }
  if (c.eof) return visit_result::drop;
  if (!drop && c.in.size() > limits.max_request_bytes) {
    answer_and_close(c.fd, "431 Request Header Fields Too Large");
    start_closing(c, limits.linger_seconds);
    return visit_result::keep;
  }
  if (!drop && now >= c.deadline) {
    if (!c.started) return visit_result::drop;
    answer_and_close(c.fd, "408 Request Timeout");
    start_closing(c, limits.linger_seconds);
    return visit_result::keep;
  }
  return drop ? visit_result::drop : visit_result::keep;
}

}  // namespace

void gated_server::hand_over(std::vector<std::unique_ptr<connection>>& whole,
                             std::vector<std::unique_ptr<connection>>& waiting) {
  if (whole.empty()) return;
  {
    const std::lock_guard lock(mutex_);
    for (auto& c : whole) {
      if (ready_.size() < limits_.max_ready) {
        ready_.push_back(std::move(c));
      } else {  // every worker busy and many waiting: come back later
        answer_and_close(c->fd, "503 Service Unavailable", "Retry-After: 1\r\n");
        start_closing(*c, limits_.linger_seconds);
        waiting.push_back(std::move(c));
      }
    }
  }
  ready_cv_.notify_all();
}

void gated_server::loop() {
  std::vector<std::unique_ptr<connection>> waiting;
  std::vector<pollfd> polled;
  std::array<char, 16384> chunk{};
  bool stopped = false;  // cpp-httplib was told to stop (once it listens)
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return;
      for (auto& c : inbox_) waiting.push_back(std::move(c));
      inbox_.clear();
    }
    // A stop asked for before cpp-httplib listened (Server::stop did nothing then).
    if (stop_requested_ && !stopped && is_running()) {
      stop();
      stopped = true;
    }
    evict_excess(waiting, limits_.max_connections);
    if (!poll_waiting(waiting, wake_[0], stop_requested_ && !stopped, polled)) continue;
    if ((polled[0].revents & POLLIN) != 0) {
      while (::read(wake_[0], chunk.data(), chunk.size()) > 0) {
      }
    }
    const auto now = clock_type::now();
    std::vector<std::unique_ptr<connection>> whole;
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      auto& c = waiting[i];
      const short revents = polled[i + 1].revents;
      const visit_result r = c->closing ? drain_closing(*c, revents, now, limits_, chunk)
                                        : visit(*c, revents, now, limits_, chunk);
      if (r == visit_result::whole) whole.push_back(std::move(c));
      if (r == visit_result::drop) c.reset();
    }
    std::erase_if(waiting, [](const auto& c) { return c == nullptr; });
    hand_over(whole, waiting);
  }
}

void gated_server::work() {
  for (;;) {
    std::unique_ptr<connection> c;
    {
      std::unique_lock lock(mutex_);
      ready_cv_.wait(lock, [&] { return stopping_ || !ready_.empty(); });
      if (stopping_) return;
      c = std::move(ready_.front());
      ready_.pop_front();
    }
    serve(std::move(c));
  }
}

void gated_server::serve(std::unique_ptr<connection> c) {
  for (;;) {
    ++c->served;
    // The loop (or the previous turn here) saw this request whole.
    const std::size_t end = whole_request(c->in, limits_.max_body_bytes).end;
    const bool last = c->served >= limits_.keep_alive_max || stop_requested_;
    connection_stream stream(*c, end, limits_.response_seconds, stop_requested_);
    bool closed = false;
    t_current_fd = c->fd;
    t_response_seconds = 0;
    const bool ok = process_request(stream, last, closed, nullptr);
    t_current_fd = -1;
    t_response_seconds = 0;
    if (!ok) return;  // the answer could not be written: closes it
    // A body the handler did not read (cpp-httplib reads none for GET) is skipped.
    c->in.erase(0, end);
    c->pos = 0;
    c->started = !c->in.empty();
    if (closed || last) {
      start_closing(*c, limits_.linger_seconds);
      hand_back(std::move(c));
      return;
    }
    // The next request sent ahead (pipelined): answered now, in order.
    if (c->started && whole_request(c->in, limits_.max_body_bytes).end > 0) continue;
    if (c->eof) return;  // closes it
    // Back to the loop: a part of the next request, or one it refuses, or nothing yet.
    c->recheck = c->started;
    c->deadline = after(c->started ? limits_.request_seconds : limits_.idle_seconds);
    hand_back(std::move(c));
    return;
  }
}

client_connection client_connection::current() {
  client_connection c;
  c.fd_ = t_current_fd;
  return c;
}

void client_connection::set_response_seconds(double seconds) { t_response_seconds = seconds; }

bool client_connection::still_there() const {
  if (fd_ < 0) return true;
  pollfd p{fd_, static_cast<short>(POLLIN | POLLRDHUP), 0};
  int n = 0;
  do {
    n = poll(&p, 1, 0);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return true;  // nothing to read and no hang-up
  if ((p.revents & (POLLHUP | POLLERR | POLLNVAL | POLLRDHUP)) != 0) return false;
  // Readable: either the next pipelined request, or the end of the stream.
  char c = 0;
  const ssize_t got = recv(fd_, &c, 1, MSG_PEEK | MSG_DONTWAIT);
  return got != 0 && !(got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

}  // namespace perlin_cli
