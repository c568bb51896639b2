// Files that appear complete or not at all, even when the process is interrupted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace perlin {

/// A file written in full before it appears at its path. Part of perlin::image.
///
/// - On Linux the data goes into an unnamed file in the target's folder (O_TMPFILE): nothing is
///   visible until publish(), and nothing is left behind if the process dies, even by SIGKILL.
///   Where the file system refuses unnamed files (or no descriptor is left), a hidden temporary
///   `.NAME.tmp-XXXXXX` beside the target is used instead; it is removed by the destructor, and by
///   remove_pending_files(), which a program's SIGINT/SIGTERM handler may call.
/// - publish() flushes the data to disk (fsync), puts the file at its path with one rename
///   (an existing file is replaced whole, never truncated), then flushes the folder so that the
///   new name survives a power loss.
/// - The mode is that of the file it replaces, or 0666 minus the process's umask for a new one.
/// - A target that is a symbolic link is not replaced: the file it points to (through any chain
///   of links) is written, atomically, in that file's folder: the new file is made there, not
///   beside the link, so a link to another file system works.
/// - A target that exists and is a character device or a FIFO (/dev/null, /dev/stdout, a pipe)
///   is written through: opened at the first write, closed by publish(); never replaced. Any
///   other target that is not a regular file (a folder, a socket, a block device) is refused.
/// - Every failure throws perlin::io_error naming the path and the reason; the destructor then
///   removes what was written. Not thread safe: one thread writes one file.
class pending_file {
  friend void publish_together(std::span<pending_file> files);

 public:
  /// Opens the pending file in the folder of `target` (of the file it names, for a symbolic
  /// link). Throws perlin::io_error when the folder does not exist or does not accept a new file.
  explicit pending_file(const std::filesystem::path& target);
  pending_file(pending_file&& other) noexcept;
  pending_file& operator=(pending_file&& other) noexcept;
  pending_file(const pending_file&) = delete;
  pending_file& operator=(const pending_file&) = delete;
  /// Discards the file unless it was published.
  ~pending_file();

  /// Appends `size` bytes (retrying short writes and EINTR).
  void write(const void* data, std::size_t size);
  /// Whether write_at and read_at work: a regular file, not a device or FIFO written through.
  [[nodiscard]] bool seekable() const noexcept { return !direct_; }
  /// Writes `size` bytes at byte `offset` (the file grows as needed), for formats that go back
  /// to fill in a header (TIFF); it does not move where write() appends.
  void write_at(std::uint64_t offset, const void* data, std::size_t size);
  /// Reads back up to `size` bytes at `offset`; returns the bytes read (fewer at the end).
  [[nodiscard]] std::size_t read_at(std::uint64_t offset, void* data, std::size_t size);
  /// Flushes the data to disk. An unnamed file keeps its descriptor while the process holds
  /// fewer than half its descriptor limit in finished unnamed files; past that (the 600th frame
  /// under a limit of 1024) it is given its hidden name and closed, so any number of pending
  /// files fits in the limit (the name is removed by the destructor and remove_pending_files();
  /// only SIGKILL or a power cut can leave it behind). A named file is closed. Called by
  /// publish() if not called before.
  void finish();
  /// Makes the file appear at its target path, replacing any file there, durably.
  void publish();

  [[nodiscard]] const std::filesystem::path& target() const noexcept { return target_; }

 private:
  void discard() noexcept;
  void name_unnamed();
  /// Finishes the file and gives it its hidden name (an unnamed file is linked and closed).
  void make_named();
  /// Closes an unnamed file's descriptor once the file has a name.
  void close_unnamed() noexcept;
  /// Marks the file as at its target (its temporary name, if any, is no longer its own).
  void mark_published() noexcept;
  void release_slot() noexcept;

  std::filesystem::path target_;
  std::string temp_;  // the named temporary file, when there is one
  int fd_ = -1;
  bool unnamed_ = false;  // O_TMPFILE: no name until publish()
  bool finished_ = false;
  bool published_ = false;
  bool direct_ = false;      // a device or FIFO: written through, never replaced
  bool holds_slot_ = false;  // finished, unnamed, still holding its descriptor
  unsigned mode_ = 0644;
  void* node_ = nullptr;  // its entry in the signal-safe list of named temporaries
};

/// Publishes `files` (finished or not) as one set: at every moment, SIGKILL and power loss
/// included, their folder shows all the old files or all the new ones. How: the new files, and a
/// hard link of every other file of the folder, go into a hidden folder beside it, which is
/// swapped with the folder in one step (Linux's renameat2 RENAME_EXCHANGE); the old folder is
/// then removed (a file that appeared in it meanwhile is moved into the new one). The folder keeps
/// its group and mode (setgid and sticky bits included); open descriptors of the old folder (a
/// process inside it) still see the old set.
///
/// The swap needs: every file in one folder, which is not this process's working folder, holds
/// only regular files and is a real folder owned by this user without extended attributes, whose
/// group this user may give (root, or one of the user's groups), and a file system with
/// RENAME_EXCHANGE. Otherwise (and for a single file) the files are published one after the
/// other, as publish() does; a SIGKILL during those renames (milliseconds) can then
/// leave some new files over the old set. SIGKILL during a swap can leave the hidden
/// `.NAME.perlin-*` folder beside the folder (the set in the folder is whole). Throws
/// perlin::io_error as publish() does; the files not yet published are then discarded.
void publish_together(std::span<pending_file> files);

/// Removes the named temporary files of every pending file of this process that has not been
/// published. Async-signal-safe: meant for a SIGINT/SIGTERM handler that then calls _exit.
void remove_pending_files() noexcept;

}  // namespace perlin
