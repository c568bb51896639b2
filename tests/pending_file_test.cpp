// perlin::publish_together: a set of files appears whole or not at all, SIGKILL included, by
// swapping in a folder that holds the new set; and where the folder cannot be swapped, the files
// are published one by one.
#include "perlin/pending_file.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "gtest/gtest.h"

namespace {

namespace fs = std::filesystem;
using perlin_test::slurp;
using perlin_test::temp_dir;

std::string name_of(std::size_t i) { return "f_" + std::to_string(1000 + i) + ".png"; }

void write_set(const fs::path& dir, std::size_t count, const std::string& text) {
  for (std::size_t i = 0; i < count; ++i) std::ofstream(dir / name_of(i)) << text;
}

std::vector<perlin::pending_file> pending_set(const fs::path& dir, std::size_t count,
                                              const std::string& text) {
  std::vector<perlin::pending_file> files;
  for (std::size_t i = 0; i < count; ++i) {
    files.emplace_back(dir / name_of(i));
    files.back().write(text.data(), text.size());
  }
  return files;
}

/// "old", "new", or "mixed": what the set in `dir` holds.
std::string state_of(const fs::path& dir, std::size_t count) {
  std::size_t olds = 0, news = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string t = slurp(dir / name_of(i));
    olds += t == "old" ? 1 : 0;
    news += t == "new" ? 1 : 0;
  }
  return olds == count ? "old" : news == count ? "new" : "mixed";
}

ino_t inode_of(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? st.st_ino : 0;
}

TEST(PendingFiles, ASetIsSwappedInWithTheFoldersOtherFilesAndMode) {
  const temp_dir d;
  const fs::path out = d.path / "frames";
  fs::create_directory(out);
  fs::permissions(out, static_cast<fs::perms>(0750));
  write_set(out, 8, "old");
  std::ofstream(out / "notes.txt") << "keep me";
  const ino_t notes = inode_of(out / "notes.txt"), folder = inode_of(out);
  auto files = pending_set(out, 10, "new");  // two more than the old set
  perlin::publish_together(files);
  EXPECT_EQ(state_of(out, 10), "new");
  EXPECT_NE(inode_of(out), folder) << "the folder was not swapped";
  EXPECT_EQ(fs::status(out).permissions(), static_cast<fs::perms>(0750));
  EXPECT_EQ(slurp(out / "notes.txt"), "keep me");
  EXPECT_EQ(inode_of(out / "notes.txt"), notes) << "other files are the same files (hard links)";
  std::vector<std::string> beside, inside;
  for (const auto& e : fs::directory_iterator(d.path)) beside.push_back(e.path().filename());
  for (const auto& e : fs::directory_iterator(out)) inside.push_back(e.path().filename());
  EXPECT_EQ(beside, std::vector<std::string>{"frames"}) << "the old folder is removed";
  EXPECT_EQ(inside.size(), 11u);
}

TEST(PendingFiles, FoldersThatCannotBeSwappedGetTheFilesOneByOne) {
  const temp_dir d;
  // A folder holding a folder (a swap would have to move it), and the working folder (a shell
  // inside it would be left in the old one): both keep their inode and get the whole new set.
  const fs::path out = d.path / "frames";
  fs::create_directories(out / "sub");
  write_set(out, 4, "old");
  const ino_t folder = inode_of(out);
  {
    auto files = pending_set(out, 4, "new");
    perlin::publish_together(files);
  }
  EXPECT_EQ(state_of(out, 4), "new");
  EXPECT_EQ(inode_of(out), folder);
  EXPECT_TRUE(fs::is_directory(out / "sub"));
  fs::remove(out / "sub");
  write_set(out, 4, "old");
  const fs::path was = fs::current_path();
  fs::current_path(out);
  {
    std::vector<perlin::pending_file> files;
    for (std::size_t i = 0; i < 4; ++i) {
      files.emplace_back(name_of(i));
      files.back().write("new", 3);
    }
    perlin::publish_together(files);
  }
  fs::current_path(was);
  EXPECT_EQ(state_of(out, 4), "new");
  EXPECT_EQ(inode_of(out), folder);
}

TEST(PendingFiles, SigkillAtAnyMomentOfPublishingLeavesTheOldSetOrTheNew) {
  // A child publishes 64 new files over 64 old ones and is killed at moments spread over the
  // publishing. Published one by one, the set would often be found half replaced.
  const temp_dir d;
  const fs::path out = d.path / "frames";
  fs::create_directory(out);
  constexpr std::size_t n = 64;
  write_set(out, n, "old");
  std::size_t olds = 0, news = 0, delay_us = 0;
  for (int round = 0; round < 60; ++round) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      auto files = pending_set(out, n, "new");
      for (auto& f : files) f.finish();
      (void)!::write(ready[1], "x", 1);
      perlin::publish_together(files);
      ::_exit(0);
    }
    char c = 0;
    ASSERT_EQ(::read(ready[0], &c, 1), 1);
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::microseconds(delay_us)) {
    }
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    ::close(ready[0]);
    ::close(ready[1]);
    const std::string state = state_of(out, n);
    ASSERT_NE(state, "mixed") << "killed " << delay_us << " us into the publishing";
    if (state == "old") {
      ++olds;
      delay_us = delay_us * 3 / 2 + 50;  // later next time (a walk that suits any speed: TSan)
    } else {
      ++news;
      delay_us = delay_us * 3 / 5;  // back into the publishing
      write_set(out, n, "old");
    }
    // A kill during the swap may leave the hidden stage folder beside `frames`; nothing else.
    for (const auto& e : fs::directory_iterator(d.path)) {
      const std::string name = e.path().filename();
      if (name != "frames") {
        EXPECT_EQ(name.rfind(".frames.perlin-", 0), 0u) << name;
        fs::remove_all(e.path());
      }
    }
    for (const auto& e : fs::directory_iterator(out)) {
      const std::string name = e.path().filename();
      EXPECT_EQ(name.rfind("f_", 0), 0u) << "left in the folder: " << name;
    }
  }
  // The kills came both before and after the swap (the search above walks the delay to it).
  EXPECT_GT(olds, 5u);
  EXPECT_GT(news, 5u);
}

TEST(PendingFiles, ASwappedFolderKeepsItsGroupAndSetgid) {
  // A folder shared through its group (setgid, so that new files take the group): the swapped-in
  // folder must have the same group and mode, or the set's readers lose it.
  const group* g = ::getgrnam("nogroup");
  if (::geteuid() != 0 || g == nullptr)
    GTEST_SKIP() << "giving a folder another group (nogroup) needs root and that group";
  const temp_dir d;
  const fs::path out = d.path / "frames";
  fs::create_directory(out);
  ASSERT_EQ(::chown(out.c_str(), static_cast<uid_t>(-1), g->gr_gid), 0);
  ASSERT_EQ(::chmod(out.c_str(), 02775), 0);
  write_set(out, 4, "old");
  const ino_t folder = inode_of(out);
  auto files = pending_set(out, 4, "new");
  perlin::publish_together(files);
  EXPECT_EQ(state_of(out, 4), "new");
  EXPECT_NE(inode_of(out), folder) << "the folder was not swapped";
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_gid, g->gr_gid) << "the folder's group";
  EXPECT_EQ(st.st_mode & 07777, 02775u) << "the folder's mode, setgid included";
  for (std::size_t i = 0; i < 4; ++i) {
    ASSERT_EQ(::stat((out / name_of(i)).c_str(), &st), 0);
    EXPECT_EQ(st.st_gid, g->gr_gid) << "a new file takes the setgid folder's group";
  }
}

/// A tmpfs mounted on a fresh folder for the test's lifetime (root only); `why` says why not.
struct tmpfs_mount {
  std::filesystem::path at;
  bool mounted = false;
  std::string why;
  explicit tmpfs_mount(const fs::path& folder) : at(folder) {
    fs::create_directory(at);
    if (::geteuid() != 0) {
      why = "mounting a tmpfs needs root";
    } else if (::mount("perlin-test", at.c_str(), "tmpfs", 0, "size=4m") != 0) {
      why = std::string("mount -t tmpfs refused: ") + std::strerror(errno);
    } else {
      mounted = true;
    }
  }
  ~tmpfs_mount() {
    if (mounted) ::umount2(at.c_str(), MNT_DETACH);
  }
  tmpfs_mount(const tmpfs_mount&) = delete;
  tmpfs_mount& operator=(const tmpfs_mount&) = delete;
};

dev_t device_of(const fs::path& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 ? st.st_dev : 0;
}

/// The names in a folder, sorted.
std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(PendingFiles, ALinkIsKeptAndItsFileReplacedInThatFilesFolder) {
  const temp_dir d;
  fs::create_directories(d.path / "out");
  fs::create_directories(d.path / "real");
  std::ofstream(d.path / "real" / "a.png") << "old";
  fs::permissions(d.path / "real" / "a.png", static_cast<fs::perms>(0640));
  fs::create_symlink("../real/a.png", d.path / "out" / "link.png");
  fs::create_symlink("link.png", d.path / "out" / "chain.png");  // a link to the link
  const ino_t before = inode_of(d.path / "real" / "a.png");
  const int held = ::open((d.path / "real" / "a.png").c_str(), O_RDONLY);  // keeps its inode
  ASSERT_GE(held, 0);
  for (const char* name : {"link.png", "chain.png"}) {
    perlin::pending_file f(d.path / "out" / name);
    EXPECT_EQ(f.target(), d.path / "out" / "../real/a.png");
    f.write(name, std::strlen(name));
    f.publish();
    EXPECT_EQ(slurp(d.path / "real" / "a.png"), name);
  }
  EXPECT_NE(inode_of(d.path / "real" / "a.png"), before) << "replaced by a new file, not rewritten";
  char was[4] = {};
  EXPECT_EQ(::pread(held, was, 3, 0), 3);
  EXPECT_STREQ(was, "old") << "the old file is untouched";
  ::close(held);
  EXPECT_EQ(fs::status(d.path / "real" / "a.png").permissions(), static_cast<fs::perms>(0640));
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "link.png"));
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "chain.png"));
  EXPECT_EQ(names_in(d.path / "out"), (std::vector<std::string>{"chain.png", "link.png"}));
  EXPECT_EQ(names_in(d.path / "real"), std::vector<std::string>{"a.png"});
}

TEST(PendingFiles, ALinkToAnotherFileSystemIsWrittenThere) {
  // The new file must be made in the linked file's folder: made beside the link, it could not be
  // renamed (or linked) across the file systems ("Invalid cross-device link"), after all the work.
  const temp_dir d;
  const tmpfs_mount other(d.path / "other");
  if (!other.mounted) GTEST_SKIP() << "no second file system: " << other.why;
  ASSERT_NE(device_of(d.path), device_of(other.at));
  fs::create_directories(d.path / "out");
  std::ofstream(other.at / "a.tif") << "old";
  fs::create_symlink(other.at / "a.tif", d.path / "out" / "a.tif");
  fs::create_symlink(other.at / "new.tif", d.path / "out" / "dangling.tif");  // not there yet
  for (const char* name : {"a.tif", "dangling.tif"}) {
    perlin::pending_file f(d.path / "out" / name);
    f.write("new", 3);
    f.finish();  // as a set's files are, before the last one is made
    ASSERT_NO_THROW(f.publish()) << name;
  }
  // As a set (the links' folder holds links, so they are published one by one; the files' own
  // folder is a mount point, which cannot be swapped).
  for (int i = 0; i < 2; ++i) {
    std::vector<perlin::pending_file> files;
    files.emplace_back(d.path / "out" / "a.tif");
    files.back().write("set", 3);
    files.emplace_back(d.path / "out" / "dangling.tif");
    files.back().write("set", 3);
    ASSERT_NO_THROW(perlin::publish_together(files));
  }
  EXPECT_EQ(slurp(other.at / "a.tif"), "set");
  EXPECT_EQ(slurp(other.at / "new.tif"), "set");
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "a.tif"));
  EXPECT_TRUE(fs::is_symlink(d.path / "out" / "dangling.tif"));
  EXPECT_EQ(names_in(d.path / "out"), (std::vector<std::string>{"a.tif", "dangling.tif"}));
  EXPECT_EQ(names_in(other.at), (std::vector<std::string>{"a.tif", "new.tif"}));
}

}  // namespace
