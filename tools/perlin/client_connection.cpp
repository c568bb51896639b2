#include "client_connection.hpp"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace perlin_cli {

namespace {

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

/// Whether descriptor `fd` is a socket with these local and peer addresses.
bool is_connection(int fd, const std::string& local_addr, int local_port,
                   const std::string& remote_addr, int remote_port) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  std::string host;
  int port = -1;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API's own cast
  if (getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0 || !address_of(a, host, port) ||
      port != local_port || host != local_addr) {
    return false;
  }
  len = sizeof a;
  // NOLINTNEXTLINE(cppcoreguidelines-pro-type-reinterpret-cast): the sockets API's own cast
  return getpeername(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0 && address_of(a, host, port) &&
         port == remote_port && host == remote_addr;
}

}  // namespace

client_connection::client_connection(const std::string& local_addr, int local_port,
                                     const std::string& remote_addr, int remote_port) {
  if (local_port < 0 || remote_port < 0) return;
  DIR* fds = opendir("/proc/self/fd");
  if (fds == nullptr) return;  // no /proc: unknown, taken as still there
  const int own = dirfd(fds);
  while (const dirent* e = readdir(fds)) {
    char* end = nullptr;
    const long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == own || fd < 0) continue;
    if (is_connection(static_cast<int>(fd), local_addr, local_port, remote_addr, remote_port)) {
      fd_ = static_cast<int>(fd);
      break;
    }
  }
  closedir(fds);
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
