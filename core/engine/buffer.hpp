// SPDX-License-Identifier: MIT
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/topology/placement.hpp"
#include "core/topology/topology.hpp"

namespace bwlab {

// The pages behind a buffer. 4k: transparent huge pages off (MADV_NOHUGEPAGE); thp: asked for
// with MADV_HUGEPAGE (the kernel may still use 4 KiB pages: check with huge_backed_bytes);
// hugetlb2m / hugetlb1g: MAP_HUGETLB from the pool the administrator reserved.
enum class Pages { small4k, thp, hugetlb2m, hugetlb1g };
std::string_view to_string(Pages p);  // "4k", "thp", "hugetlb2m", "hugetlb1g"
Pages parse_pages(std::string_view text);  // throws InputError
// Every --pages value, in enum order (for did-you-mean and shell completion).
const std::vector<std::string>& page_names();
// The page size a mapping of this kind is sure to use: 4 KiB for 4k and thp (THP may fall
// back to 4 KiB pages), 2 MiB and 1 GiB for hugetlb. Mappings are whole pages of this size.
std::size_t page_size(Pages p);
bool is_hugetlb(Pages p);

// Where a thread's buffer lives.
struct MemBind {
  enum class Kind { local, remote, interleave, node };
  Kind kind = Kind::local;
  int node = 0;  // logical NUMA node index, for Kind::node
  std::string label() const;  // "local", "remote", "interleave", "node:1"
};
// "local", "remote", "interleave", "node:N"; throws InputError
MemBind parse_membind(std::string_view text);
// The --membind words besides node:N: local, remote, interleave.
const std::vector<std::string>& membind_words();

// The NUMA node (logical index) the buffer of a thread on PU `pu` is bound to: local = the PU's
// node; remote = the next node after it (wrapping), never the PU's own; node:N = N;
// -1 for interleave (all nodes). Requires: remote only with 2 or more nodes.
int planned_mem_node(const Topology& topo, const MemBind& bind, int pu);

// Throws InputError for a binding the placement cannot give a meaning to: remote (another node than
// the thread's) with placement none, where the OS picks the thread's PU. Measured runs and the
// simulator refuse the same combinations.
void check_placement_membind(const Placement& placement, const MemBind& bind);

// Anonymous memory mapped for one thread, bound with hwloc and advised for its page size.
// Pages are not touched until first_touch(), which the owning (pinned) thread calls.
class Buffer {
 public:
  Buffer() = default;
  // Requires: bytes > 0; pu is the OS index of the PU whose thread will own the buffer, or
  // -1 for a thread the OS places: with local binding, pages then go where it first touches
  // them (no hwloc binding); remote needs a PU.
  // Throws std::runtime_error when the memory cannot be mapped.
  Buffer(const Topology& topo, std::size_t bytes, int pu, const MemBind& bind, Pages pages);
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  ~Buffer();

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  // Writes one byte per 4 KiB page from the calling thread, so the pages are allocated where
  // the policy says, by the thread that will use them. Returns false, the rest untouched, when
  // `stop` was set meanwhile (checked every 64 MiB: touching 4 GiB per thread took 20-30 s on a
  // guest, and Ctrl-C waited for all of it).
  bool first_touch(const std::atomic<bool>* stop = nullptr);
  // The NUMA node (logical index) holding the first page, -1 if hwloc cannot tell.
  int mem_node(const Topology& topo) const;
  // Bytes of the buffer backed by huge pages right now (/proc/self/smaps), after first_touch().
  std::uint64_t huge_bytes() const;
  // Empty, or why the binding was not applied as asked (e.g. hwloc cannot bind memory here).
  const std::string& note() const { return note_; }

 private:
  void release();
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  void* data_ = nullptr;
  std::size_t size_ = 0;
  std::string note_;
};

}  // namespace bwlab
