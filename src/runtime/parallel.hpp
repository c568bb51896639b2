// The thread runner of the bulk calls, the render stages and the PNG encoder: contiguous chunks
// run by a persistent pool of worker threads and by the calling thread (src/runtime/parallel.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>

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

/// A chunk body: fn(begin, end), through a plain function pointer and a context.
struct chunk_fn {
  void (*call)(void* context, std::size_t begin, std::size_t end);
  void* context;
};

/// Runs `fn` over the `threads` chunks of [0, n) (see parallel_for).
void run_chunks(std::size_t n, unsigned threads, chunk_fn fn);

/// Runs fn(begin, end) over [0, n) split into `threads` contiguous chunks, chunk k being
/// [floor(n k / threads), floor(n (k + 1) / threads)). Chunks never share an output element, so
/// the result does not depend on the thread count or on which thread ran which chunk.
///
/// The chunks are taken by the calling thread and by a persistent pool of workers (started on
/// first use, grown to the largest count asked for less one, at most 255): no thread is started
/// per call, and a worker polls for 100 us after its last chunk before it sleeps, so that calls
/// in a row find it awake. The caller takes chunks too and only waits for those already running, so
/// a call always finishes, even when every worker is busy with another caller's chunks, none could
/// be started, or the call comes from inside a chunk (nested). After fork() the child starts a new
/// pool on first use. The lowest failing chunk's exception is rethrown here once every chunk has
/// finished.
template <class F>
void parallel_for(std::size_t n, unsigned threads, F&& fn) {
  if (threads <= 1) {
    fn(std::size_t{0}, n);
    return;
  }
  using Fn = std::remove_reference_t<F>;
  run_chunks(n, threads,
             {[](void* c, std::size_t b, std::size_t e) { (*static_cast<Fn*>(c))(b, e); },
              const_cast<void*>(static_cast<const void*>(&fn))});
}

}  // namespace perlin::detail
