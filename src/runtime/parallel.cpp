// The thread runner (runtime/parallel.hpp): usable_cpus and a persistent pool of workers.
#include "runtime/parallel.hpp"

#include <pthread.h>
#include <sched.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>

#include "detail/error.hpp"  // PERLIN_HAS_EXCEPTIONS

namespace perlin::detail {

unsigned usable_cpus() {
  static const unsigned cpus = [] {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = std::max(1, CPU_COUNT(&set));
    // cgroup v2: "max 100000" (no quota) or "QUOTA PERIOD" in microseconds.
    std::ifstream f("/sys/fs/cgroup/cpu.max");
    std::string quota;
    double period = 0;
    if (f >> quota >> period && quota != "max" && period > 0) {
      const double q = std::strtod(quota.c_str(), nullptr) / period;
      if (q > 0) n = std::min(n, std::max(1u, static_cast<unsigned>(std::ceil(q))));
    }
#endif
    return n;
  }();
  return cpus;
}

namespace {

constexpr unsigned k_max_workers = 255;

/// How long a worker polls for the next job, and a caller for its last chunks, before sleeping
/// on the condition variable. Waking a sleeping thread took tens of microseconds on a KVM guest,
/// a fifth of a 2-thread 128^3 grid call (perlin_bench: perlin_t2 against perlin_2x1, two
/// one-thread calls at once); a thread still polling starts at once. Callers that call again
/// within this time (frames, chunks, octave bands) find their workers awake; otherwise the
/// poll costs this much CPU once per job.
constexpr auto k_poll = std::chrono::microseconds(100);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

/// Polls `ready` for up to k_poll; true when it held. It yields between rounds, so that on a
/// machine with more threads than CPUs (an explicit count above the CPUs) the threads still
/// working get the CPU.
template <class F>
bool poll_for(F&& ready) {
  const auto until = std::chrono::steady_clock::now() + k_poll;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    if (std::chrono::steady_clock::now() >= until) return ready();
    std::this_thread::yield();
  }
}

/// One run_chunks call: its chunks, claimed one at a time by index under the pool's lock.
struct job {
  job(std::size_t count, unsigned parts, chunk_fn f) : n(count), chunks(parts), fn(f) {}
  std::size_t n;
  unsigned chunks;
  chunk_fn fn;
  unsigned claimed = 0;                // chunks handed out
  std::atomic<unsigned> finished = 0;  // chunks done (written under the pool's lock)
#if PERLIN_HAS_EXCEPTIONS
  std::exception_ptr error;  // the first failing chunk's (lowest index)
  unsigned error_chunk = 0;
#endif
};

/// Worker threads waiting for jobs. Never destroyed: workers are detached and may still wait on
/// its condition variable while the process exits.
class pool {
 public:
  /// Runs every chunk of `j` on the workers and on the calling thread; returns when all are done.
  void run(job& j) {
    std::unique_lock lock(mutex_);
    queue_.push_back(&j);
    queued_.store(queue_.size(), std::memory_order_relaxed);
    start_workers(j.chunks - 1);
    work_.notify_all();
    // The caller takes chunks too: the call finishes even with no worker free.
    while (j.claimed < j.chunks) run_one(j, lock);
    if (j.finished.load(std::memory_order_relaxed) != j.chunks) {
      lock.unlock();
      poll_for([&] { return j.finished.load(std::memory_order_acquire) == j.chunks; });
      lock.lock();
    }
    done_.wait(lock, [&] { return j.finished.load(std::memory_order_relaxed) == j.chunks; });
  }

 private:
  /// Claims and runs the next chunk of `j` (the lock is held on entry and on return).
  void run_one(job& j, std::unique_lock<std::mutex>& lock) {
    const unsigned k = j.claimed++;
    if (j.claimed == j.chunks) {
      queue_.erase(std::find(queue_.begin(), queue_.end(), &j));
      queued_.store(queue_.size(), std::memory_order_relaxed);
    }
    lock.unlock();
    // floor(n * k / chunks) without overflow: with n = q * chunks + r, q * k + r * k / chunks.
    const auto bound = [&](unsigned i) {
      return j.n / j.chunks * i + j.n % j.chunks * i / j.chunks;
    };
#if PERLIN_HAS_EXCEPTIONS
    std::exception_ptr error;
    try {
      j.fn.call(j.fn.context, bound(k), bound(k + 1));
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error && (!j.error || k < j.error_chunk)) {
      j.error = error;
      j.error_chunk = k;
    }
#else
    j.fn.call(j.fn.context, bound(k), bound(k + 1));
    lock.lock();
#endif
    if (j.finished.fetch_add(1, std::memory_order_release) + 1 == j.chunks) done_.notify_all();
  }

  /// Starts workers up to `wanted` (and k_max_workers). A thread that cannot be started (EAGAIN
  /// under a process limit) is no error: the callers run the chunks themselves.
  /// The workers block every asynchronous signal (they inherit the mask set around
  /// pthread_create), so SIGINT, SIGTERM and the like always reach the program's own threads:
  /// a program that blocks them while it publishes files (perlin render) is not interrupted by
  /// a signal delivered to a worker. The faults (SIGSEGV ...) stay unblocked.
  /// Returns at once when there are enough: the two pthread_sigmask calls around the start cost
  /// every 2-thread call 7-12 us on a PVM guest (a system call there takes about 1 us):
  /// perlin_bench's pool_job (two chunks of about 33 us) took 50.2-51.1 us on two threads, now
  /// 37.6-39.3 (Zen 5, three interleaved runs of each build).
  void start_workers(unsigned wanted) {
    wanted = std::min(wanted, k_max_workers);
    if (workers_ >= wanted) return;
    sigset_t all, old;
    sigfillset(&all);
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS})
      sigdelset(&all, sig);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    while (workers_ < wanted) {
      pthread_t t;
      if (pthread_create(&t, nullptr, &pool::worker_main, this) != 0) break;
      pthread_detach(t);
      ++workers_;
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }

  static void* worker_main(void* self) {
    static_cast<pool*>(self)->work();
    return nullptr;
  }

  [[noreturn]] void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      if (queue_.empty()) {
        lock.unlock();
        poll_for([&] { return queued_.load(std::memory_order_relaxed) != 0; });
        lock.lock();
        work_.wait(lock, [&] { return !queue_.empty(); });
      }
      run_one(*queue_.front(), lock);
    }
  }

  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<job*> queue_;              // jobs with chunks not yet claimed, oldest first
  std::atomic<std::size_t> queued_{0};  // queue_.size(), for polling without the lock
  unsigned workers_ = 0;
};

/// The process's pool, started on first use. After fork() the child has none of the parent's
/// threads: its pool pointer is reset, and the child starts its own on first use.
std::atomic<pool*> g_pool{nullptr};

pool& the_pool() {
  pool* p = g_pool.load(std::memory_order_acquire);
  if (p != nullptr) return *p;
  static const int registered = pthread_atfork(nullptr, nullptr, [] {
    g_pool.store(nullptr, std::memory_order_relaxed);  // the parent's pool stays unused
  });
  (void)registered;
  auto* fresh = new pool;
  if (g_pool.compare_exchange_strong(p, fresh, std::memory_order_acq_rel)) return *fresh;
  delete fresh;  // another thread started one first
  return *p;
}

}  // namespace

void run_chunks(std::size_t n, unsigned threads, chunk_fn fn) {
  job j(n, threads, fn);
  the_pool().run(j);
#if PERLIN_HAS_EXCEPTIONS
  if (j.error) std::rethrow_exception(j.error);
#endif
}

}  // namespace perlin::detail
