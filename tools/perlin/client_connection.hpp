// The connections of `perlin serve`. cpp-httplib 0.11 gives each connection a worker thread that
// reads the request with a timeout per read (a client sending one byte a second holds it for
// ever) and forgets what it read ahead (of requests sent in one write, only the first was
// answered). Here one thread (an event loop over poll) holds every connection until a request
// has arrived whole, within a deadline for the whole request; only then does a worker take the
// connection, answer its requests in order from the bytes read (cpp-httplib's own request parser
// and response writer, through its Stream interface), and hand the connection back.
#pragma once

#include <httplib.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace perlin_cli {

/// The limits of the server's connections.
struct connection_limits {
  std::size_t workers = 32;               ///< threads that answer requests that have arrived whole
  double request_seconds = 2;             ///< a request arrives whole within this of its first byte
  double idle_seconds = 2;                ///< a connection with no request in it closes after this
  double response_seconds = 10;           ///< a response is written whole within this of its first
                                          ///< byte (a client that reads slowly); a handler may set
                                          ///< its own (client_connection::set_response_seconds)
  double linger_seconds = 2;              ///< a closing connection is drained this long at most
  std::size_t keep_alive_max = 100;       ///< requests on one connection
  std::size_t max_connections = 512;      ///< waiting connections (past it, idle ones are dropped)
  std::size_t max_ready = 256;            ///< whole requests waiting for a worker (past it, 503)
  std::size_t max_request_bytes = 98304;  ///< the request line and headers (else 431)
  std::size_t max_body_bytes = 65536;     ///< a request's Content-Length (else 413)
};

/// An HTTP server (cpp-httplib's routes, handlers and guards) whose connections wait in one event
/// loop until a request has arrived whole. A slow client holds no worker: its request is closed
/// (408) `request_seconds` after its first byte however it trickles. Requests sent together
/// (pipelined) are answered in order on one connection. A request is whole when its headers
/// (each line ending in CRLF) and its Content-Length body have arrived; the loop refuses, at once
/// and before any worker, what has no such end: a body without a length on a method that takes
/// one (411), a length over `max_body_bytes` (413), a Transfer-Encoding (501), a line ending in a
/// bare LF or a malformed length (400). A worker reads only the request's own bytes, never the
/// socket. Connections close gracefully: the server's side is shut, what the client still sends
/// is read and dropped for at most `linger_seconds`, so an answer is never cut by a reset.
class gated_server : public httplib::Server {
 public:
  explicit gated_server(const connection_limits& limits);
  ~gated_server() override;
  gated_server(const gated_server&) = delete;
  gated_server& operator=(const gated_server&) = delete;

  /// Serves until request_stop() (after bind_to_port): the loop, the workers and cpp-httplib's
  /// accept. False if it could not start (a thread or a pipe) or accepting failed.
  bool run();

  /// Stops the server, from any thread, at any time: also before run() has begun listening (a
  /// stop asked for then takes effect as soon as it listens). Responses being written stop.
  void request_stop();

  struct connection;

 private:
  bool process_and_close_socket(socket_t sock) override;  // cpp-httplib's, per accepted socket
  void loop();
  /// Moves the connections whose request is whole to the workers (503 past max_ready).
  void hand_over(std::vector<std::unique_ptr<connection>>& whole,
                 std::vector<std::unique_ptr<connection>>& waiting);
  void work();
  void serve(std::unique_ptr<connection> c);
  void hand_back(std::unique_ptr<connection> c);
  void wake();
  void finish();  // ends the loop and the workers, joins them

  connection_limits limits_;
  std::mutex mutex_;
  std::condition_variable ready_cv_;
  std::deque<std::unique_ptr<connection>> inbox_;  // new and returned connections, for the loop
  std::deque<std::unique_ptr<connection>> ready_;  // a request whole, for a worker
  bool stopping_ = false;
  std::atomic<bool> stop_requested_{false};
  int wake_[2] = {-1, -1};  // a pipe that wakes the loop
  std::thread loop_thread_;
  std::vector<std::thread> workers_;
};

/// The connection a request came on: the one the calling thread is answering (a handler runs on
/// the worker that answers its request).
class client_connection {
 public:
  /// The connection of the request this thread answers; unknown (taken as still there) outside.
  static client_connection current();

  /// False once the client has closed its end (it sent FIN: a client that shuts down its writing
  /// side but still waits for the answer is taken as gone, as nginx does) or the connection
  /// failed. Never blocks and never reads: request bytes the client sent ahead (HTTP pipelining)
  /// stay for the server.
  [[nodiscard]] bool still_there() const;

  /// Whether the socket is known.
  [[nodiscard]] bool known() const { return fd_ >= 0; }

  /// The time the response to this thread's request may take to be written, from its first byte
  /// (else connection_limits::response_seconds): past it the connection is closed.
  static void set_response_seconds(double seconds);

 private:
  int fd_ = -1;
};

}  // namespace perlin_cli
