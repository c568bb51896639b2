// The progress bar of `perlin render`, on stderr.
#pragma once

#include <unistd.h>

#include <algorithm>
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
  /// `fraction` of the whole job is done; `phase` says what runs now (evaluating, encoding,
  /// writing), so that the bar never sits at 100% while a file is still being made.
  void update(double fraction, const char* phase = "evaluating") {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::milliseconds(500)) return;
    const int width = 40;
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int filled = static_cast<int>(fraction * width);
    std::fprintf(stderr, "\r%-10s %3d%% [%s%s]", phase, static_cast<int>(fraction * 100),
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
