// SPDX-License-Identifier: MIT
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "core/topology/topology.hpp"

namespace bwlab {

enum class Pages { small4k, thp };
std::string_view to_string(Pages p);  // "4k", "thp"
Pages parse_pages(std::string_view text);  // throws InputError

// Where a thread's buffer lives.
struct MemBind {
  enum class Kind { local, interleave, node };
  Kind kind = Kind::local;
  int node = 0;  // logical NUMA node index, for Kind::node
  std::string label() const;  // "local", "interleave", "node:1"
};
MemBind parse_membind(std::string_view text);  // "local", "interleave", "node:N"; throws InputError

// Anonymous memory mapped for one thread, bound with hwloc and advised for its page size.
// Pages are not touched until first_touch(), which the owning (pinned) thread calls.
class Buffer {
 public:
  Buffer() = default;
  // Requires: bytes > 0; pu is the OS index of the PU whose thread will own the buffer.
  // Throws std::runtime_error when the memory cannot be mapped.
  Buffer(const Topology& topo, std::size_t bytes, int pu, const MemBind& bind, Pages pages);
  Buffer(Buffer&& o) noexcept;
  Buffer& operator=(Buffer&& o) noexcept;
  ~Buffer();

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  // Writes one byte per 4 KiB page from the calling thread, so the pages are allocated where
  // the policy says, by the thread that will use them.
  void first_touch();
  // The NUMA node (logical index) holding the first page, -1 if hwloc cannot tell.
  int mem_node(const Topology& topo) const;
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
