// pending_file: O_TMPFILE where the system has it, a hidden named temporary otherwise, a
// signal-safe list of the named ones, then fsync, one rename, and fsync of the folder.
#include "perlin/pending_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "detail/error.hpp"
#include "perlin/error.hpp"

namespace perlin {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  detail::throw_io(path.string() + ": " + what);
}

[[noreturn]] void fail_errno(const std::filesystem::path& path, const std::string& what) {
  fail(path, what + ": " + std::strerror(errno));
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
  const auto parent = path.parent_path();
  return parent.empty() ? std::filesystem::path(".") : parent;
}

// ---- the named temporaries that a signal handler must be able to remove ----
// A lock-free list whose nodes are never freed, only reused: a handler walks it and takes each
// path with one atomic exchange, so it never races with the thread that owns the file.
struct temp_node {
  std::atomic<char*> path{nullptr};
  temp_node* next = nullptr;
};
std::atomic<temp_node*> g_temps{nullptr};

/// Adds `path` to the list; returns its node and, in `copy`, the list's own copy of the string
/// (mkostemp may fill in its X's in place, so that the list always holds the real name).
temp_node* remember(const std::string& path, char** copy_out = nullptr) {
  char* copy = ::strdup(path.c_str());
  if (copy == nullptr) throw std::bad_alloc();
  if (copy_out != nullptr) *copy_out = copy;
  for (temp_node* n = g_temps.load(); n != nullptr; n = n->next) {
    char* expected = nullptr;
    if (n->path.compare_exchange_strong(expected, copy)) return n;
  }
  auto* n = new temp_node;
  n->path.store(copy);
  n->next = g_temps.load();
  while (!g_temps.compare_exchange_weak(n->next, n)) {
  }
  return n;
}

void forget(void* node) noexcept {
  if (node == nullptr) return;
  // Null when a signal handler took (and removed) it already.
  std::free(static_cast<temp_node*>(node)->path.exchange(nullptr));
}

/// The process's umask, read without changing it (umask(2) can only be read by setting it,
/// which is not thread safe); 022 where /proc does not say.
unsigned current_umask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<unsigned>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return 022;
}

/// fsync of a folder, so that a rename in it is durable. File systems that cannot sync a
/// folder say EINVAL; that is not a failure of ours.
void sync_folder(const std::filesystem::path& target) {
  const auto folder = folder_of(target);
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail_errno(target, "cannot open its folder to flush it");
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0 && err != EINVAL && err != EROFS) {
    errno = err;
    fail_errno(target, "cannot flush its folder");
  }
}

std::string hidden_template(const std::filesystem::path& target) {
  // Built with += rather than "." + name: GCC 12 at -O3 warns falsely (-Wrestrict) on that.
  std::string name = ".";
  name += target.filename().string();
  name += ".tmp-XXXXXX";
  return (folder_of(target) / name).string();
}

/// Finished unnamed files that still hold their descriptor, process-wide.
std::atomic<long> g_unnamed_open{0};

/// Half the soft descriptor limit (at least 16): how many finished unnamed files may stay open.
long unnamed_budget() {
  static const long budget = [] {
    struct rlimit rl {};
    if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return 512L;
    return std::max(16L, static_cast<long>(rl.rlim_cur / 2));
  }();
  return budget;
}

/// The file a path names through any chain of symbolic links (the link's own folder resolves a
/// relative link), whether or not that file exists yet.
std::filesystem::path through_links(const std::filesystem::path& target) {
  std::filesystem::path p = target;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return p;
    if (hops == 40) fail(target, "has too many levels of symbolic links");
    std::error_code ec;
    const auto link = std::filesystem::read_symlink(p, ec);
    if (ec) fail(target, "cannot read the symbolic link: " + ec.message());
    p = link.is_absolute() ? link : folder_of(p) / link;
  }
}

}  // namespace

pending_file::pending_file(const std::filesystem::path& target) : target_(through_links(target)) {
  struct stat st {};
  if (::stat(target_.c_str(), &st) == 0) {
    if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
      direct_ = true;  // opened at the first write: a probe never blocks on a FIFO
      return;
    }
    if (!S_ISREG(st.st_mode)) {
      fail(target,
           S_ISDIR(st.st_mode) ? "is a folder" : "is not a regular file, a device or a FIFO");
    }
    mode_ = st.st_mode & 07777;
  } else {
    mode_ = 0666u & ~current_umask();
  }
  // Made in the folder of the file itself (target_, through any links), never the link's: a
  // rename or a link cannot cross file systems, and a link may point to another.
#ifdef O_TMPFILE
  fd_ = ::open(folder_of(target_).c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ >= 0) {
    unnamed_ = true;
    return;
  }
#endif
  // Registered before it exists, and named in the list's own copy, so that a signal never
  // misses it.
  char* name = nullptr;
  node_ = remember(hidden_template(target_), &name);
  fd_ = ::mkostemp(name, O_CLOEXEC);
  if (fd_ < 0) {
    const int err = errno;
    forget(node_);
    node_ = nullptr;
    errno = err;
    fail_errno(target, "cannot create a file in its folder");
  }
  temp_ = name;
}

pending_file::pending_file(pending_file&& o) noexcept
    : target_(std::move(o.target_)),
      temp_(std::move(o.temp_)),
      fd_(std::exchange(o.fd_, -1)),
      unnamed_(o.unnamed_),
      finished_(o.finished_),
      published_(std::exchange(o.published_, true)),
      direct_(o.direct_),
      holds_slot_(std::exchange(o.holds_slot_, false)),
      mode_(o.mode_),
      node_(std::exchange(o.node_, nullptr)) {}

pending_file& pending_file::operator=(pending_file&& o) noexcept {
  if (this != &o) {
    discard();
    target_ = std::move(o.target_);
    temp_ = std::move(o.temp_);
    fd_ = std::exchange(o.fd_, -1);
    unnamed_ = o.unnamed_;
    finished_ = o.finished_;
    published_ = std::exchange(o.published_, true);
    direct_ = o.direct_;
    holds_slot_ = std::exchange(o.holds_slot_, false);
    mode_ = o.mode_;
    node_ = std::exchange(o.node_, nullptr);
  }
  return *this;
}

pending_file::~pending_file() { discard(); }

void pending_file::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  release_slot();
  if (!published_ && !temp_.empty()) ::unlink(temp_.c_str());
  forget(node_);
  node_ = nullptr;
  published_ = true;  // nothing left to do
}

void pending_file::write(const void* data, std::size_t size) {
  if (direct_ && fd_ < 0 && !finished_) {
    fd_ = ::open(target_.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd_ < 0) fail_errno(target_, "cannot open it for writing");
  }
  if (fd_ < 0 || finished_) fail(target_, "write after the file was finished");
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(target_, "write failed");
    }
    p += n;
    size -= static_cast<std::size_t>(n);
  }
}

void pending_file::write_at(std::uint64_t offset, const void* data, std::size_t size) {
  if (direct_) fail(target_, "a device or FIFO cannot be written at an offset");
  if (fd_ < 0 || finished_) fail(target_, "write after the file was finished");
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd_, p, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(target_, "write failed");
    }
    p += n;
    offset += static_cast<std::uint64_t>(n);
    size -= static_cast<std::size_t>(n);
  }
}

std::size_t pending_file::read_at(std::uint64_t offset, void* data, std::size_t size) {
  if (direct_) fail(target_, "a device or FIFO cannot be read back");
  if (fd_ < 0 || finished_) fail(target_, "read after the file was finished");
  auto* p = static_cast<char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd_, p + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_errno(target_, "read failed");
    }
    if (n == 0) break;  // end of file
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void pending_file::finish() {
  if (finished_) return;
  if (direct_) {  // a device or FIFO: closing is all there is (an error there is a lost write)
    const int rc = fd_ >= 0 ? ::close(fd_) : 0;
    fd_ = -1;
    finished_ = true;
    if (rc != 0) fail_errno(target_, "close failed");
    return;
  }
  if (::fchmod(fd_, mode_) != 0) fail_errno(target_, "cannot set its mode");
  if (::fsync(fd_) != 0) fail_errno(target_, "fsync failed");
  if (unnamed_) {
    // An unnamed file keeps its descriptor (nothing survives even SIGKILL) while the process
    // holds fewer than half its descriptor limit in such files; past that it gets its hidden
    // name and closes, so any number of frames fits in the limit.
    if (g_unnamed_open.load() < unnamed_budget()) {
      ++g_unnamed_open;
      holds_slot_ = true;
      finished_ = true;
      return;
    }
    name_unnamed();
  }
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) fail_errno(target_, "close failed");
  finished_ = true;
}

void pending_file::release_slot() noexcept {
  if (holds_slot_) --g_unnamed_open;
  holds_slot_ = false;
}

void pending_file::name_unnamed() {
  // A hidden name in the target's folder, registered first so that a signal never misses it;
  // linkat cannot replace an existing file, so publish() renames it over the target.
  static std::atomic<unsigned> counter{0};
  std::string tmpl = hidden_template(target_);
  tmpl.resize(tmpl.size() - 6);
  for (int attempt = 0;; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "%d-%u", static_cast<int>(::getpid()), counter++);
    const std::string name = tmpl + suffix;
    node_ = remember(name);
    const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
    if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) {
      temp_ = name;
      unnamed_ = false;
      return;
    }
    const int err = errno;
    forget(node_);
    node_ = nullptr;
    if (err != EEXIST || attempt > 100) {
      errno = err;
      fail_errno(target_, "cannot give the new file a name");
    }
  }
}

void pending_file::make_named() {
  finish();
  if (unnamed_) {  // still unnamed (it kept its descriptor): name it now
    name_unnamed();
    close_unnamed();
  }
}

void pending_file::close_unnamed() noexcept {
  ::close(fd_);
  fd_ = -1;
  release_slot();
}

void pending_file::mark_published() noexcept {
  published_ = true;
  temp_.clear();
  forget(node_);
  node_ = nullptr;
}

void pending_file::publish() {
  if (published_) fail(target_, "published twice");
  if (direct_) {
    finish();
    published_ = true;
    return;
  }
  make_named();
  if (::rename(temp_.c_str(), target_.c_str()) != 0) fail_errno(target_, "cannot replace it");
  mark_published();
  sync_folder(target_);
}

namespace {

/// A descriptor closed at the end of its scope.
struct fd_guard {
  int fd = -1;
  explicit fd_guard(int f) : fd(f) {}
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
};

/// The names in folder `fd` (not . and ..), or false when it cannot be read or holds more than
/// `most` entries.
bool names_in(int fd, std::vector<std::string>& out, std::size_t most) {
  const int copy = ::dup(fd);
  if (copy < 0) return false;
  DIR* d = ::fdopendir(copy);
  if (d == nullptr) {
    ::close(copy);
    return false;
  }
  ::rewinddir(d);
  bool ok = true;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (out.size() == most) {
      ok = false;
      break;
    }
    out.push_back(name);
  }
  ::closedir(d);
  return ok;
}

/// The folder a set of files is published into, and what a swap needs to know of it.
struct swap_plan {
  std::filesystem::path parent;     // the folder that holds it
  std::string name;                 // its name in the parent
  std::vector<std::string> others;  // its files that stay (hard-linked into the new folder)
  unsigned mode = 0;
  gid_t group = 0;
};

/// Whether the set can be published by swapping its folder (publish_together's conditions).
bool plan_swap(const std::filesystem::path& folder, const std::vector<std::string>& new_names,
               const std::vector<std::string>& own_temps, swap_plan& plan) {
  struct stat st {
  }, here{};
  if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
    return false;
  // The working folder stays where it is: a shell inside it would be left in the old one.
  if (::stat(".", &here) != 0 || (here.st_dev == st.st_dev && here.st_ino == st.st_ino))
    return false;
  const ssize_t attrs = ::listxattr(folder.c_str(), nullptr, 0);
  if (attrs > 0) return false;  // ACLs and other attributes would not follow the swap
  std::error_code ec;
  auto abs = std::filesystem::absolute(folder, ec).lexically_normal();
  if (ec) return false;
  if (abs.filename().empty()) abs = abs.parent_path();
  if (abs == abs.root_path() || abs.filename() == "..") return false;
  plan.parent = abs.parent_path();
  plan.name = abs.filename().string();
  // The lexical parent must really hold this folder (no symbolic link on the way).
  struct stat again {};
  if (::lstat((plan.parent / plan.name).c_str(), &again) != 0 || again.st_dev != st.st_dev ||
      again.st_ino != st.st_ino)
    return false;
  plan.mode = st.st_mode & 07777;
  plan.group = st.st_gid;
  const fd_guard dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  std::vector<std::string> names;
  if (dir.fd < 0 || !names_in(dir.fd, names, 1000000)) return false;
  for (const auto& n : names) {
    if (std::find(new_names.begin(), new_names.end(), n) != new_names.end() ||
        std::find(own_temps.begin(), own_temps.end(), n) != own_temps.end())
      continue;
    struct stat e {};
    if (::fstatat(dir.fd, n.c_str(), &e, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(e.st_mode))
      return false;  // folders, links, devices: not carried across a swap
    plan.others.push_back(n);
  }
  return true;
}

}  // namespace

void publish_together(std::span<pending_file> files) {
  const auto one_by_one = [&] {
    for (auto& f : files) {
      if (!f.published_) f.publish();
    }
  };
  if (files.size() < 2) return one_by_one();
  const auto folder = folder_of(files[0].target_);
  std::vector<std::string> new_names;
  for (const auto& f : files) {
    if (f.direct_ || f.published_ || folder_of(f.target_) != folder) return one_by_one();
    new_names.push_back(f.target_.filename().string());
  }
  std::vector<std::string> own_temps;  // hidden names of files that closed their descriptor
  for (auto& f : files) {
    f.finish();
    if (!f.unnamed_) own_temps.push_back(std::filesystem::path(f.temp_).filename().string());
  }
  swap_plan plan;
  if (!plan_swap(folder, new_names, own_temps, plan)) return one_by_one();
  // The new folder, hidden beside the old one.
  std::string stage = (plan.parent / ("." + plan.name + ".perlin-XXXXXX")).string();
  if (::mkdtemp(stage.data()) == nullptr) return one_by_one();
  const fd_guard staged(::open(stage.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  const fd_guard old(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  std::size_t linked = 0, moved = 0;
  const auto undo = [&] {  // before the swap: everything back, the hidden folder removed
    for (std::size_t i = 0; i < moved; ++i) {
      if (files[i].unnamed_) {
        ::unlinkat(staged.fd, new_names[i].c_str(), 0);  // its descriptor still holds the data
      } else {
        ::renameat(staged.fd, new_names[i].c_str(), AT_FDCWD, files[i].temp_.c_str());
      }
    }
    for (std::size_t i = 0; i < linked; ++i) ::unlinkat(staged.fd, plan.others[i].c_str(), 0);
    ::rmdir(stage.c_str());
  };
  // The folder's group, then its mode (setgid included: chmod after chown, which may clear it).
  // A group this user may not give (not one of its groups) means no swap: one by one.
  bool ok = staged.fd >= 0 && old.fd >= 0 &&
            ::fchown(staged.fd, static_cast<uid_t>(-1), plan.group) == 0 &&
            ::fchmod(staged.fd, plan.mode) == 0;
  if (ok) {  // chmod may drop setgid without a word (a group the user is not in): check
    struct stat made {};
    ok = ::fstat(staged.fd, &made) == 0 && made.st_gid == plan.group &&
         (made.st_mode & 07777) == plan.mode;
  }
  while (ok && linked < plan.others.size()) {
    const char* n = plan.others[linked].c_str();
    if (::linkat(old.fd, n, staged.fd, n, 0) == 0) {
      ++linked;
    } else {
      ok = false;  // another file system below, or no right to link: one by one
    }
  }
  while (ok && moved < files.size()) {
    // An unnamed file gets its first name in the hidden folder: a SIGKILL from here on leaves
    // that folder, never a file in the set's folder.
    auto& f = files[moved];
    const std::string proc = "/proc/self/fd/" + std::to_string(f.fd_);
    const char* name = new_names[moved].c_str();
    if (f.unnamed_ ? ::linkat(AT_FDCWD, proc.c_str(), staged.fd, name, AT_SYMLINK_FOLLOW) == 0
                   : ::renameat(AT_FDCWD, f.temp_.c_str(), staged.fd, name) == 0) {
      ++moved;
    } else {
      ok = false;
    }
  }
  if (ok && ::fsync(staged.fd) != 0 && errno != EINVAL) ok = false;
  // The one step: the folder's name now holds the new set, the hidden name the old one (file
  // systems without RENAME_EXCHANGE say EINVAL: one by one).
  if (!ok || ::renameat2(AT_FDCWD, stage.c_str(), AT_FDCWD, (plan.parent / plan.name).c_str(),
                         RENAME_EXCHANGE) != 0) {
    undo();
    return one_by_one();
  }
  for (auto& f : files) {
    if (f.unnamed_) f.close_unnamed();  // its name is the one in the swapped folder
    f.mark_published();
  }
  sync_folder(plan.parent / plan.name);  // the parent holds both names
  // Descriptors follow the folders: `staged` is now the set's folder, `old` the old one (under
  // the hidden name). Files of the old folder that are also in the new one (the same inode), and
  // the old files the set replaced, go; a file that appeared since the scan moves across.
  std::vector<std::string> left;
  if (names_in(old.fd, left, 1000000)) {
    bool empty = true;
    for (const auto& n : left) {
      struct stat a {
      }, b{};
      const bool same = ::fstatat(old.fd, n.c_str(), &a, AT_SYMLINK_NOFOLLOW) == 0 &&
                        ::fstatat(staged.fd, n.c_str(), &b, AT_SYMLINK_NOFOLLOW) == 0 &&
                        a.st_dev == b.st_dev && a.st_ino == b.st_ino;
      const bool replaced = std::find(new_names.begin(), new_names.end(), n) != new_names.end();
      if (same || replaced) {
        if (::unlinkat(old.fd, n.c_str(), 0) != 0) empty = false;
      } else if (::renameat2(old.fd, n.c_str(), staged.fd, n.c_str(), RENAME_NOREPLACE) != 0) {
        empty = false;  // kept where it is rather than lost
      }
    }
    if (empty) ::rmdir(stage.c_str());
  }
}

void remove_pending_files() noexcept {
  for (temp_node* n = g_temps.load(); n != nullptr; n = n->next) {
    char* p = n->path.exchange(nullptr);
    if (p != nullptr) ::unlink(p);  // the string is leaked: the process is about to exit
  }
}

}  // namespace perlin
