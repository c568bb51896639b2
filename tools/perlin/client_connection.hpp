// Whether the client of a request is still connected, for `perlin serve` to stop renders nobody
// waits for. cpp-httplib 0.11 gives a handler no view of its socket, so the socket is found by
// the request's two addresses.
#pragma once

#include <string>

namespace perlin_cli {

/// The connection a request came on (its socket, found by the local and remote address and port).
class client_connection {
 public:
  /// Finds the process's socket whose local and peer addresses are these (numeric, as cpp-httplib
  /// writes them). When none matches, the connection is unknown and taken as still there.
  client_connection(const std::string& local_addr, int local_port, const std::string& remote_addr,
                    int remote_port);

  /// False once the client has closed its end (it sent FIN: a client that shuts down its writing
  /// side but still waits for the answer is taken as gone, as nginx does) or the connection
  /// failed. Never blocks and never reads: request bytes the client sent ahead (HTTP pipelining)
  /// stay in the socket for the server.
  [[nodiscard]] bool still_there() const;

  /// Whether the socket was found.
  [[nodiscard]] bool known() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace perlin_cli
