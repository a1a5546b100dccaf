// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>
#include <string>

namespace bwlab {

// The hugetlb pool of one page size, from /sys/kernel/mm/hugepages/hugepages-<kB>kB.
struct HugePool {
  std::uint64_t page_bytes = 0;
  bool exists = false;    // the kernel offers this page size (directory present)
  long total = 0;         // nr_hugepages
  long free = 0;          // free_hugepages
  long reserved = 0;      // resv_hugepages: promised to mappings, not yet faulted
  long available() const { return free > reserved ? free - reserved : 0; }
  std::string dir;        // the sysfs directory
};

// Reads the pool; `root` is the sysfs directory (tests hand in a fake one).
HugePool huge_pool(std::uint64_t page_bytes, const std::string& root = "/sys/kernel/mm/hugepages");

// Throws InputError when fewer than `pages` huge pages of that size are available, saying how
// an administrator reserves them (bwlab itself never changes system settings).
// `what` names the request, e.g. "--pages hugetlb2m with 2 threads x 16MiB".
void require_huge_pages(std::uint64_t page_bytes, std::uint64_t pages, const std::string& what,
                        const std::string& root = "/sys/kernel/mm/hugepages");

}  // namespace bwlab
