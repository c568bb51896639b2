// The progress bar of `perlin render`, on stderr.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>

namespace perlin_cli {

/// Progress on stderr: only when stderr is a terminal and the render takes over half a second.
class progress {
 public:
  explicit progress(bool enabled) : enabled_(enabled && ::isatty(2) != 0) {}
  progress(const progress&) = delete;
  progress& operator=(const progress&) = delete;
  void update(double fraction) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::milliseconds(500)) return;
    const int width = 40;
    const int filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\rrendering %3d%% [%s%s]", static_cast<int>(fraction * 100),
                 std::string(static_cast<std::size_t>(filled), '#').c_str(),
                 std::string(static_cast<std::size_t>(width - filled), '.').c_str());
    shown_ = true;
  }
  ~progress() {
    if (shown_) std::fprintf(stderr, "\r%60s\r", "");
  }

 private:
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace perlin_cli
