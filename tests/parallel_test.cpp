// The thread runner (src/runtime/parallel.hpp): chunk bounds, exceptions, nested and concurrent
// calls, a persistent pool (no thread started per call), and a pool that works after fork().
#include "runtime/parallel.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "perlin/perlin.hpp"

namespace {

using perlin::detail::parallel_for;

/// Threads of this process (Linux).
int process_threads() {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key) {
    if (key == "Threads:") {
      int n = 0;
      f >> n;
      return n;
    }
  }
  return -1;
}

/// Every index of [0, n) written once, by chunks with the documented bounds.
void expect_chunks_cover(std::size_t n, unsigned threads) {
  std::vector<int> hits(n, 0);
  std::vector<std::pair<std::size_t, std::size_t>> seen(threads, {0, 0});
  std::atomic<unsigned> calls{0};
  parallel_for(n, threads, [&](std::size_t b, std::size_t e) {
    for (std::size_t i = b; i < e; ++i) ++hits[i];
    ++calls;
    // chunk k is [floor(n k / t), floor(n (k + 1) / t))
    for (unsigned k = 0; k < threads; ++k) {
      if (b == n * k / threads && e == n * (k + 1) / threads) seen[k] = {b, e + 1};
    }
  });
  EXPECT_EQ(calls.load(), threads);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i], 1) << i;
  for (unsigned k = 0; k < threads; ++k) EXPECT_NE(seen[k].second, 0u) << "chunk " << k;
}

TEST(Parallel, ChunksHaveTheDocumentedBoundsAndCoverEverything) {
  for (const unsigned t : {1u, 2u, 3u, 7u, 16u}) {
    for (const std::size_t n : {std::size_t{16}, std::size_t{17}, std::size_t{1000}}) {
      expect_chunks_cover(n, t);
    }
  }
}

TEST(Parallel, TheLowestFailingChunksExceptionIsRethrownAfterEveryChunkFinished) {
  std::atomic<int> finished{0};
  try {
    parallel_for(80, 8, [&](std::size_t b, std::size_t) {
      if (b == 30 || b == 50) throw std::runtime_error("chunk at " + std::to_string(b));
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      ++finished;
    });
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "chunk at 30");
  }
  EXPECT_EQ(finished.load(), 6);  // the others ran to the end before the call returned
}

TEST(Parallel, NestedAndConcurrentCallsFinishWithTheirResults) {
  constexpr std::size_t n = 64;
  const auto work = [&](int seed) {
    std::vector<long> sums(n, 0);
    parallel_for(n, 4, [&](std::size_t b, std::size_t e) {
      for (std::size_t i = b; i < e; ++i) {
        std::vector<long> inner(100, 0);
        parallel_for(100, 3, [&](std::size_t ib, std::size_t ie) {
          for (std::size_t j = ib; j < ie; ++j) inner[j] = static_cast<long>(j) * seed;
        });
        sums[i] = std::accumulate(inner.begin(), inner.end(), 0L) + static_cast<long>(i);
      }
    });
    for (std::size_t i = 0; i < n; ++i) {
      if (sums[i] != 4950L * seed + static_cast<long>(i)) return false;
    }
    return true;
  };
  std::vector<std::thread> callers;
  std::atomic<int> good{0};
  for (int c = 1; c <= 6; ++c) {
    callers.emplace_back([&, c] { good += work(c) ? 1 : 0; });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(good.load(), 6);
}

TEST(Parallel, ThreadsArePooledNotStartedPerCall) {
  // 300 calls of 4 chunks run on at most the caller and the pool's workers: few kernel thread
  // ids (a thread per call would show hundreds: the kernel does not reuse ids soon), and the
  // process has no more threads afterwards than during the first call.
  std::mutex m;
  std::set<long> tids;
  int during = 0;
  for (int c = 0; c < 300; ++c) {
    parallel_for(1000, 4, [&](std::size_t, std::size_t) {
      const std::lock_guard lock(m);
      tids.insert(static_cast<long>(syscall(SYS_gettid)));
      if (c == 0) during = std::max(during, process_threads());
    });
  }
  // The pool has as many workers as the largest call so far in this process asked for (16
  // chunks in these tests, more when other test files ran first in the same process): every id
  // belongs to a thread alive during the first call. A thread per call would give 900 ids.
  EXPECT_LE(tids.size(), std::max<std::size_t>(32u, static_cast<std::size_t>(during)))
      << "threads started per call?";
  EXPECT_LE(process_threads(), during);
}

#if defined(__SANITIZE_THREAD__)
#define PERLIN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PERLIN_TSAN 1
#endif
#endif

TEST(Parallel, AForkedChildRunsParallelCallsWithItsOwnPool) {
#ifdef PERLIN_TSAN
  GTEST_SKIP() << "ThreadSanitizer does not support starting threads after a multi-threaded fork";
#endif
  // The parent's pool is running: its workers do not exist in the child.
  parallel_for(8, 4, [](std::size_t, std::size_t) {});
  const perlin::field f;
  const perlin::grid g = perlin::grid::plane(256, 256, 1.0 / 32);
  std::vector<float> want(g.size());
  perlin::fill_grid(f, g, want, {.threads = 1});
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::vector<float> got(g.size());
    perlin::fill_grid(f, g, got, {.threads = 4});
    std::atomic<int> chunks{0};
    parallel_for(100, 4, [&](std::size_t, std::size_t) { ++chunks; });
    _exit(got == want && chunks == 4 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not finish";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace

TEST(Parallel, WorkersBlockAsynchronousSignalsSoTheyReachTheProgramsThreads) {
  // Every chunk that runs on a pool worker (not the caller) sees SIGINT and SIGTERM blocked, and
  // the faults unblocked.
  const auto caller = std::this_thread::get_id();
  std::atomic<int> on_workers{0}, blocked{0}, faults_open{0};
  perlin::detail::parallel_for(64, 4, [&](std::size_t, std::size_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // so the workers take chunks too
    if (std::this_thread::get_id() == caller) return;
    sigset_t cur;
    pthread_sigmask(SIG_BLOCK, nullptr, &cur);
    ++on_workers;
    if (sigismember(&cur, SIGINT) == 1 && sigismember(&cur, SIGTERM) == 1) ++blocked;
    if (sigismember(&cur, SIGSEGV) == 0) ++faults_open;
  });
  EXPECT_GT(on_workers.load(), 0);
  EXPECT_EQ(blocked.load(), on_workers.load());
  EXPECT_EQ(faults_open.load(), on_workers.load());
  // The caller's own mask is unchanged.
  sigset_t mine;
  pthread_sigmask(SIG_BLOCK, nullptr, &mine);
  EXPECT_EQ(sigismember(&mine, SIGINT), 0);
}
