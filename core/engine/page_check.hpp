// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace bwlab {

// Bytes of [addr, addr + len) that /proc/self/smaps says are backed by huge pages right now:
// AnonHugePages (THP) plus Private_Hugetlb and Shared_Hugetlb of every mapping overlapping the
// range, each capped at its overlap with the range. 0 when smaps cannot be read.
std::uint64_t huge_backed_bytes(const void* addr, std::size_t len);

// The same over the text of an smaps file (for tests).
std::uint64_t huge_backed_bytes_in(std::string_view smaps, std::uintptr_t begin, std::uintptr_t end);

}  // namespace bwlab
