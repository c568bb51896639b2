#include "client_connection.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>

namespace perlin_cli {

using clock_type = std::chrono::steady_clock;

struct gated_server::connection {
  int fd = -1;
  std::string in;  // bytes read and not yet parsed, from `pos`
  std::size_t pos = 0;
  std::size_t served = 0;           // requests answered
  clock_type::time_point deadline;  // idle: of the next request's first byte; else of its end
  bool started = false;             // some bytes of the next request are here
  bool eof = false;                 // the client sent FIN: its whole requests, then close

  ~connection() {
    if (fd >= 0) ::close(fd);
  }
};

namespace {

thread_local int t_current_fd = -1;

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

/// Where one request ends in the bytes read.
struct request_extent {
  std::size_t end = 0;  ///< bytes from the start that make one whole request; 0: not whole yet
  bool exact = true;    ///< false: its body's end is not known (chunked, or over the limit)
};

/// The extent of the request at the start of `s`: the request line, the headers and a
/// Content-Length body. A body cpp-httplib will refuse (over `max_body`) or read in chunks counts
/// as whole at the headers' end (the worker's reads then end at the request's deadline), and the
/// connection closes after its answer: where the next request starts is not known.
request_extent whole_request(std::string_view s, std::size_t max_body) {
  std::size_t end = s.find("\r\n\r\n");
  std::size_t header_end = end == std::string_view::npos ? end : end + 4;
  if (const std::size_t lf = s.find("\n\n"); lf != std::string_view::npos && lf + 2 < header_end)
    header_end = lf + 2;
  if (header_end == std::string_view::npos) return {};
  // Content-Length and Transfer-Encoding, case-insensitively, at a line's start.
  const std::string_view head = s.substr(0, header_end);
  const auto named = [](std::string_view line, std::string_view name) {
    return line.size() > name.size() &&
           std::equal(name.begin(), name.end(), line.begin(), [](char a, char b) {
             return a == std::tolower(static_cast<unsigned char>(b));
           });
  };
  std::size_t body = 0;
  for (std::size_t line = head.find('\n'); line != std::string_view::npos && line + 1 < head.size();
       line = head.find('\n', line + 1)) {
    const std::string_view rest = head.substr(line + 1);
    if (named(rest, "transfer-encoding:")) return {header_end, false};
    constexpr std::string_view length_name = "content-length:";
    if (!named(rest, length_name)) continue;
    std::size_t i = length_name.size();
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
    bool digits = false;
    body = 0;
    while (i < rest.size() && std::isdigit(static_cast<unsigned char>(rest[i])) != 0 &&
           body <= max_body) {
      body = body * 10 + static_cast<std::size_t>(rest[i++] - '0');
      digits = true;
    }
    if (!digits || body > max_body) return {header_end, false};  // cpp-httplib answers it
  }
  if (s.size() < header_end + body) return {};
  return {header_end + body, true};
}

/// A fixed answer written without waiting (the connection closes after it), best effort.
void answer_and_drop(int fd, std::string_view status) {
  const std::string text =
      "HTTP/1.1 " + std::string(status) + "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  [[maybe_unused]] const ssize_t n =
      send(fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
}

/// cpp-httplib's Stream over a connection: reads come from the bytes the loop read, then from
/// the socket until the request's deadline; writes wait at most `write_seconds` each.
class connection_stream final : public httplib::Stream {
 public:
  connection_stream(gated_server::connection& c, clock_type::time_point read_deadline,
                    double write_seconds)
      : in_(c.in),
        pos_(c.pos),
        fd_(c.fd),
        read_deadline_(read_deadline),
        write_seconds_(write_seconds) {}

  bool is_readable() const override {
    return pos_ < in_.size() || wait_for(fd_, POLLIN, read_deadline_);
  }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, after(write_seconds_)); }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ < in_.size()) {
      const std::size_t n = std::min(size, in_.size() - pos_);
      std::memcpy(ptr, in_.data() + pos_, n);
      pos_ += n;
      return static_cast<ssize_t>(n);
    }
    // More of the request (a body): read in chunks into the connection's bytes, so that what
    // comes after this request stays for the next.
    in_.clear();
    pos_ = 0;
    char chunk[16384];
    for (;;) {
      if (!wait_for(fd_, POLLIN, read_deadline_)) return -1;
      const ssize_t n = recv(fd_, chunk, sizeof chunk, MSG_DONTWAIT);
      if (n > 0) {
        in_.assign(chunk, static_cast<std::size_t>(n));
        return read(ptr, size);
      }
      if (n == 0) return 0;
      if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return -1;
    }
  }

  ssize_t write(const char* ptr, size_t size) override {
    for (;;) {
      if (!wait_for(fd_, POLLOUT, after(write_seconds_))) return -1;
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
  std::string& in_;
  std::size_t& pos_;
  int fd_;
  clock_type::time_point read_deadline_;
  double write_seconds_;
};

/// Runs cpp-httplib's task at once on the accepting thread: the task only hands the socket to
/// the loop (process_and_close_socket below), so no thread is needed for it.
class hand_over_queue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

}  // namespace

gated_server::gated_server(const connection_limits& limits) : limits_(limits) {
  new_task_queue = [] { return new hand_over_queue; };
  set_read_timeout(static_cast<time_t>(limits.request_seconds), 0);
  set_keep_alive_max_count(limits.keep_alive_max);
  set_keep_alive_timeout(static_cast<time_t>(limits.idle_seconds));  // its Keep-Alive header
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

void gated_server::hand_back(std::unique_ptr<connection> c) {
  {
    const std::lock_guard lock(mutex_);
    if (stopping_) return;  // closes it
    inbox_.push_back(std::move(c));
  }
  const char byte = 1;
  [[maybe_unused]] const ssize_t n = ::write(wake_[1], &byte, 1);
}

bool gated_server::run() {
  if (pipe2(wake_, O_NONBLOCK | O_CLOEXEC) != 0) return false;
  loop_thread_ = std::thread([this] { loop(); });
  for (std::size_t i = 0; i < std::max<std::size_t>(1, limits_.workers); ++i)
    workers_.emplace_back([this] { work(); });
  const bool ok = listen_after_bind();
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    ready_.clear();
    inbox_.clear();
  }
  ready_cv_.notify_all();
  const char byte = 0;
  [[maybe_unused]] const ssize_t n = ::write(wake_[1], &byte, 1);
  loop_thread_.join();
  for (auto& t : workers_) t.join();
  ::close(wake_[0]);
  ::close(wake_[1]);
  return ok;
}

void gated_server::loop() {
  std::vector<std::unique_ptr<connection>> waiting;
  std::vector<pollfd> polled;
  char chunk[16384];
  for (;;) {
    {
      const std::lock_guard lock(mutex_);
      if (stopping_) return;
      for (auto& c : inbox_) waiting.push_back(std::move(c));
      inbox_.clear();
    }
    // Too many connections waiting: the ones nearest their deadline go first.
    if (waiting.size() > limits_.max_connections) {
      std::sort(waiting.begin(), waiting.end(),
                [](const auto& a, const auto& b) { return a->deadline > b->deadline; });
      waiting.resize(limits_.max_connections);
    }
    auto next = clock_type::now() + std::chrono::seconds(1);
    polled.assign(1, pollfd{wake_[0], POLLIN, 0});
    for (const auto& c : waiting) {
      polled.push_back(pollfd{c->fd, POLLIN, 0});
      next = std::min(next, c->deadline);
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(next - clock_type::now()).count();
    const int n = poll(polled.data(), polled.size(), static_cast<int>(std::max<long>(0, left) + 1));
    if (n < 0) {  // EINTR, or no memory for the moment: the connections wait their turn
      std::this_thread::sleep_for(std::chrono::milliseconds(errno == EINTR ? 0 : 10));
      continue;
    }
    if ((polled[0].revents & POLLIN) != 0) {
      while (::read(wake_[0], chunk, sizeof chunk) > 0) {
      }
    }
    const auto now = clock_type::now();
    std::vector<std::unique_ptr<connection>> whole;
    for (std::size_t i = 0; i < waiting.size(); ++i) {
      auto& c = waiting[i];
      bool drop = false;
      bool fresh = false;  // bytes came: only then can the request have become whole
      if (polled[i + 1].revents != 0) {
        for (;;) {
          const ssize_t got = recv(c->fd, chunk, sizeof chunk, MSG_DONTWAIT);
          if (got > 0) {
            if (!c->started) c->deadline = after(limits_.request_seconds);
            c->started = true;
            c->in.append(chunk, static_cast<std::size_t>(got));
            fresh = true;
            if (c->in.size() > limits_.max_request_bytes) break;
            continue;
          }
          if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
          if (got < 0 && errno == EINTR) continue;
          // The client closed its end (or the connection failed): the requests it sent whole
          // are still answered (a render counts it as gone, client_connection::still_there).
          c->eof = got == 0;
          drop = !c->eof;
          break;
        }
      }
      if (!drop && fresh && whole_request(c->in, limits_.max_request_bytes).end > 0) {
        whole.push_back(std::move(c));
        continue;
      }
      if (c->eof) {
        drop = true;
      } else if (!drop && c->in.size() > limits_.max_request_bytes) {
        answer_and_drop(c->fd, "431 Request Header Fields Too Large");
        drop = true;
      } else if (!drop && now >= c->deadline) {
        if (c->started) answer_and_drop(c->fd, "408 Request Timeout");
        drop = true;
      }
      if (drop) c.reset();
    }
    std::erase_if(waiting, [](const auto& c) { return c == nullptr; });
    if (!whole.empty()) {
      {
        const std::lock_guard lock(mutex_);
        for (auto& c : whole) ready_.push_back(std::move(c));
      }
      ready_cv_.notify_all();
    }
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
    bool stopping = false;
    {
      const std::lock_guard lock(mutex_);
      stopping = stopping_;
    }
    const request_extent extent = whole_request(c->in, limits_.max_request_bytes);
    const bool last = c->served >= limits_.keep_alive_max || stopping || !extent.exact;
    connection_stream stream(*c, after(limits_.request_seconds), limits_.write_seconds);
    bool closed = false;
    t_current_fd = c->fd;
    const bool ok = process_request(stream, last, closed, nullptr);
    t_current_fd = -1;
    if (!ok || closed || last) return;  // closes it
    // A body the handler did not read (cpp-httplib reads none for GET) is skipped.
    c->in.erase(0, std::max(c->pos, extent.end));
    c->pos = 0;
    c->started = !c->in.empty();
    // The next request sent ahead (pipelined): answered now, in order.
    if (c->started && whole_request(c->in, limits_.max_request_bytes).end > 0) continue;
    if (c->eof) return;  // closes it
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
