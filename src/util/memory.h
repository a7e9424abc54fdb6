// Large arrays that are written once, right after they are allocated.
#pragma once

#include <cstddef>
#include <vector>

namespace footprint {

// Asks Linux to back the whole 2 MiB pages in [p, p + bytes) with transparent huge pages, where
// the system enables them only on request: the first writes then fault in 2 MiB at a time
// instead of 4 KiB. A hint: where it is refused or unknown, nothing changes.
void advise_huge_pages(const void* p, size_t bytes);

// reserve(n) for a vector of many megabytes that is filled next.
template <typename T>
void reserve_huge(std::vector<T>& v, size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
}

}  // namespace footprint
