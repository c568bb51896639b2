// Runs the perlin executable in a shell for the end-to-end tests and captures what it did.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace perlin_test {

struct run_result {
  int status;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// A path quoted for the shell.
inline std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

/// The float32 values of a .npy file (the header is skipped; callers check shapes themselves).
inline std::vector<float> npy_values(const std::filesystem::path& p) {
  const std::string bytes = slurp(p);
  const std::size_t header = static_cast<unsigned char>(bytes[8]) |
                             static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8;
  std::vector<float> v((bytes.size() - 10 - header) / 4);
  std::memcpy(v.data(), bytes.data() + 10 + header, v.size() * 4);
  return v;
}

/// The number of entries in a folder.
inline std::size_t count_files(const std::filesystem::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

/// A fresh empty folder under the system's temporary folder, removed by the destructor.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "perlin-test-XXXXXX").string();
    path = ::mkdtemp(tmpl.data());
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

/// Runs `perlin ARGS` with `input` on standard input; standard output goes to `stdout_path`
/// when given (e.g. /dev/full), and is captured otherwise.
inline run_result run_perlin(const std::string& args, const std::string& input = "",
                             const std::string& stdout_path = "") {
  const temp_dir dir;
  const auto in = dir.path / "in", out = dir.path / "out", err = dir.path / "err";
  std::ofstream(in, std::ios::binary) << input;
  const std::string target = stdout_path.empty() ? out.string() : stdout_path;
  const std::string cmd = std::string("'") + PERLIN_EXE + "' " + args + " < '" + in.string() +
                          "' > '" + target + "' 2> '" + err.string() + "'";
  const int raw = std::system(cmd.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return {status, stdout_path.empty() ? slurp(out) : std::string(), slurp(err)};
}

}  // namespace perlin_test
