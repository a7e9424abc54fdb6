// Runs independent pieces of work on several threads.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace footprint {

// Calls fn(0) ... fn(count - 1), each once, on up to `jobs` threads (0: one per core), and
// returns when all are done. Callers write results by index, so the order of the calls never
// shows in the output.
template <typename Fn>
void parallel_for(size_t count, unsigned jobs, Fn fn) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<size_t>(jobs, count));
  if (jobs <= 1) {
    for (size_t i = 0; i < count; ++i)
      fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < count; i = next++)
      fn(i);
  };
  std::vector<std::thread> threads;
  for (unsigned t = 1; t < jobs; ++t)
    threads.emplace_back(worker);
  worker();
  for (auto& t : threads)
    t.join();
}

// parallel_for in blocks of `block` indices: for work too small per index to pay for taking
// each index from the shared counter.
template <typename Fn>
void parallel_for_blocks(size_t count, size_t block, unsigned jobs, Fn fn) {
  parallel_for((count + block - 1) / block, jobs, [&](size_t b) {
    for (size_t i = b * block, end = std::min(count, i + block); i < end; ++i)
      fn(i);
  });
}

}  // namespace footprint
