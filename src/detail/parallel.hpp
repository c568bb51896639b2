// The thread runner of the bulk calls and of the PNG encoder: contiguous chunks on
// std::jthreads, joined on unwind, and a thread that cannot start runs its chunk on the caller.
#pragma once

#include <cstddef>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace perlin::detail {

/// The CPUs this process may run on: its affinity mask, and a cgroup v2 CPU quota when one is
/// set (a 2-CPU container on a 64-core host gets 2, not 64). At least 1.
unsigned usable_cpus();

/// `requested` threads (0: usable_cpus()), but no more than there are work items.
inline unsigned thread_count(unsigned requested, std::size_t work_items) {
  unsigned t = requested == 0 ? usable_cpus() : requested;
  if (work_items < t) t = static_cast<unsigned>(std::max<std::size_t>(1, work_items));
  return t;
}

/// Runs fn(begin, end) over [0, n) split into `threads` contiguous chunks. Chunks never share an
/// output element, so the result does not depend on the thread count. A thread that cannot be
/// started (EAGAIN under a pids limit) is no error: its chunk runs on the calling thread, and
/// the threads already started are always joined (std::jthread), so nothing terminates.
template <class F>
void parallel_for(std::size_t n, unsigned threads, F&& fn) {
  if (threads <= 1) {
    fn(std::size_t{0}, n);
    return;
  }
  // floor(n * k / threads) without overflow: with n = q * threads + r, it is q * k + r * k / threads.
  const auto bound = [&](unsigned k) {
    return n / threads * k + n % threads * k / threads;
  };
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
  std::vector<std::exception_ptr> errors(threads);
  const auto chunk = [&](unsigned k) {
    try {
      fn(bound(k), bound(k + 1));
    } catch (...) {
      errors[k] = std::current_exception();
    }
  };
  {
    std::vector<std::jthread> pool;
    pool.reserve(threads - 1);
    unsigned k = 1;
    for (; k < threads; ++k) {
      try {
        pool.emplace_back(chunk, k);
      } catch (const std::system_error&) {
        break;  // no more threads: the calling thread does the rest
      }
    }
    for (; k < threads; ++k) chunk(k);
    chunk(0);
  }  // joins
  for (auto& e : errors) {
    if (e) std::rethrow_exception(e);
  }
#else
  // Without exceptions the kernels cannot fail, and a thread that cannot start aborts.
  const auto chunk = [&](unsigned k) { fn(bound(k), bound(k + 1)); };
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (unsigned k = 1; k < threads; ++k) pool.emplace_back(chunk, k);
  chunk(0);
#endif
}


}  // namespace perlin::detail
