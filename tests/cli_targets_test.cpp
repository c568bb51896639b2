// Writes never destroy what they target (docs/render.md): a symbolic link's file is written and
// the link kept, a FIFO and a character device are written through and kept, other special files
// are refused; nothing half-written appears.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_support.hpp"

namespace fs = std::filesystem;
using perlin_test::q;
using perlin_test::run_perlin;
using perlin_test::slurp;
using perlin_test::temp_dir;

namespace {

bool is_png(const std::string& bytes) { return bytes.rfind("\x89PNG\r\n\x1a\n", 0) == 0; }

}  // namespace

TEST(CliOutputTargets, ASymbolicLinkWritesItsFileAndStays) {
  const temp_dir d;
  fs::create_directories(d.path / "real");
  fs::create_directories(d.path / "out");
  std::ofstream(d.path / "real" / "a.png") << "old";
  fs::create_symlink("../real/a.png", d.path / "out" / "link.png");
  fs::create_symlink("../real/new.png", d.path / "out" / "dangling.png");
  ASSERT_EQ(run_perlin("render -q --size 16x8 -o " + q(d.path / "out" / "link.png")).status, 0);
  ASSERT_EQ(run_perlin("render -q --size 16x8 -o " + q(d.path / "out" / "dangling.png")).status, 0);
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "link.png"));
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "dangling.png"));
  EXPECT_TRUE(is_png(slurp(d.path / "real" / "a.png")));
  EXPECT_TRUE(is_png(slurp(d.path / "real" / "new.png")));
  // The temporary file was made beside the file, not beside the link: nothing else appeared.
  EXPECT_EQ(perlin_test::count_files(d.path / "out"), 2u);
  EXPECT_EQ(perlin_test::count_files(d.path / "real"), 2u);
}

TEST(CliOutputTargets, AFifoIsWrittenThroughAndKept) {
  const temp_dir d;
  const auto fifo = d.path / "pipe.png";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const auto r = run_perlin("render -q --size 16x8 -o " + q(fifo));
  reader.join();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(is_png(got));
  struct stat st {};
  ASSERT_EQ(::stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST(CliOutputTargets, ADeviceIsWrittenThroughAndNeverReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "making device nodes needs root";
  const temp_dir d;
  const auto null = d.path / "null", full = d.path / "full";
  ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
  ASSERT_EQ(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)), 0);
  EXPECT_EQ(run_perlin("render -q --size 16x8 --format png -o " + q(null)).status, 0);
  const auto r = run_perlin("render -q --size 16x8 --format png -o " + q(full));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("No space left on device"), std::string::npos) << r.err;
  for (const auto& p : {null, full}) {
    struct stat st {};
    ASSERT_EQ(::stat(p.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << p;
  }
  EXPECT_EQ(perlin_test::count_files(d.path), 2u);
}

TEST(CliOutputTargets, OtherSpecialFilesAreRefused) {
  const temp_dir d;
  fs::create_directories(d.path / "folder.png");
  const auto r = run_perlin("render -q --size 16x8 -o " + q(d.path / "folder.png"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is a folder"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::is_directory(d.path / "folder.png"));
}

TEST(CliOutputTargets, ManyFramesHoldBoundedDescriptors) {
  // Each finished frame releases its descriptor: 300 frames under a limit of 64 descriptors.
  const temp_dir d;
  const std::string cmd = "sh -c \"ulimit -n 64 && '" + std::string(PERLIN_EXE) +
                          "' render -q --size 4x4 --frames 300 -o '" + (d.path / "h.png").string() +
                          "'\"";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  EXPECT_TRUE(fs::exists(d.path / "h_0299.png"));
}

// `perlin targets`: the SIMD targets and their self-checks (the library side is in
// targets_test.cpp).
TEST(CliTargets, ListsTheActiveTarget) {
  const auto r = run_perlin("targets");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find(" *: self-check passed\n"), std::string::npos) << r.out;
  // The portable fallback is always there, last: SCALAR or EMU128 depending on the compiler;
  // every line says its self-check's result.
  EXPECT_TRUE(r.out.ends_with("SCALAR: self-check passed\n") ||
              r.out.ends_with("EMU128: self-check passed\n") ||
              r.out.ends_with("SCALAR *: self-check passed\n") ||
              r.out.ends_with("EMU128 *: self-check passed\n"))
      << r.out;
}
