// SPDX-License-Identifier: MIT
#include "core/engine/buffer.hpp"

#include <hwloc.h>
#include <linux/mman.h>
#include <sys/mman.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "core/engine/page_check.hpp"
#include "core/errors.hpp"
#include "core/sweep/suggest.hpp"

namespace bwlab {
namespace {
constexpr std::size_t kHugeAlign = 2u << 20;  // THP size on x86-64
}

std::string_view to_string(Pages p) {
  switch (p) {
    case Pages::small4k: return "4k";
    case Pages::thp: return "thp";
    case Pages::hugetlb2m: return "hugetlb2m";
    case Pages::hugetlb1g: return "hugetlb1g";
  }
  return "?";
}

Pages parse_pages(std::string_view text) {
  const std::string word = lower_case(text);  // "THP" is thp, as --kernels STOSB is stosb
  if (word == "4k") return Pages::small4k;
  if (word == "thp") return Pages::thp;
  if (word == "hugetlb2m") return Pages::hugetlb2m;
  if (word == "hugetlb1g") return Pages::hugetlb1g;
  const std::string near = nearest_name(text, page_names());
  if (!near.empty()) throw InputError(fmt::format("bad --pages '{}'; did you mean {}?", text, near));
  // A page size alone names no way of getting it: say both ways for 2 MiB, the reserved one for 1 GiB.
  if (word == "2m" || word == "2mb" || word == "2mib" || word == "huge")
    throw InputError(fmt::format("bad --pages '{}'; did you mean thp (transparent 2 MiB pages, madvise) or "
                                 "hugetlb2m (reserved 2 MiB pages, MAP_HUGETLB)?",
                                 text));
  if (word == "1g" || word == "1gb" || word == "1gib")
    throw InputError(fmt::format("bad --pages '{}'; did you mean hugetlb1g (reserved 1 GiB pages, MAP_HUGETLB)?", text));
  throw InputError(fmt::format("bad --pages '{}': use 4k (transparent huge pages off for the buffers), thp "
                               "(madvise MADV_HUGEPAGE), hugetlb2m or hugetlb1g (reserved huge pages, MAP_HUGETLB)",
                               text));
}

const std::vector<std::string>& page_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (Pages p : {Pages::small4k, Pages::thp, Pages::hugetlb2m, Pages::hugetlb1g}) out.emplace_back(to_string(p));
    return out;
  }();
  return names;
}

const std::vector<std::string>& membind_words() {
  static const std::vector<std::string> words{"local", "remote", "interleave"};
  return words;
}

std::size_t page_size(Pages p) {
  switch (p) {
    case Pages::hugetlb2m: return std::size_t{2} << 20;
    case Pages::hugetlb1g: return std::size_t{1} << 30;
    default: return 4096;
  }
}

bool is_hugetlb(Pages p) { return p == Pages::hugetlb2m || p == Pages::hugetlb1g; }

std::string MemBind::label() const {
  switch (kind) {
    case Kind::local: return "local";
    case Kind::remote: return "remote";
    case Kind::interleave: return "interleave";
    case Kind::node: return fmt::format("node:{}", node);
  }
  return "?";
}

MemBind parse_membind(std::string_view text) {
  const std::string word = lower_case(text);  // "LOCAL", "Node:1" too
  if (word == "local") return {MemBind::Kind::local, 0};
  if (word == "remote") return {MemBind::Kind::remote, 0};
  if (word == "interleave") return {MemBind::Kind::interleave, 0};
  if (word.substr(0, 5) == "node:") {
    int n = -1;
    const auto digits = text.substr(5);
    auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (!digits.empty() && ec == std::errc() && p == digits.data() + digits.size() && n >= 0)
      return {MemBind::Kind::node, n};
  }
  const std::string near = nearest_name(text, membind_words());
  if (!near.empty()) throw InputError(fmt::format("bad --membind '{}'; did you mean {}?", text, near));
  throw InputError(fmt::format("bad --membind '{}': use local (the thread's own node), remote (another node than the thread's), "
                               "interleave, or node:N", text));
}

void check_placement_membind(const Placement& placement, const MemBind& bind) {
  if (!placement.binds() && bind.kind == MemBind::Kind::remote)
    throw InputError("--placement none with --membind remote: remote means another node than the thread's PU, "
                     "and with placement none the OS chooses that PU; use --membind node:N or interleave");
}

int planned_mem_node(const Topology& topo, const MemBind& bind, int pu) {
  const auto* p = topo.find_pu(pu);
  const int own = p ? p->numa_node : 0;
  const int nodes = std::max(1, topo.numa_nodes());
  switch (bind.kind) {
    case MemBind::Kind::local: return own;
    case MemBind::Kind::remote: return (own + 1) % nodes;
    case MemBind::Kind::interleave: return -1;
    case MemBind::Kind::node: return bind.node;
  }
  return own;
}

Buffer::Buffer(const Topology& topo, std::size_t bytes, int pu, const MemBind& bind, Pages pages) {
  if (bytes == 0) throw std::invalid_argument("Buffer of 0 bytes");
  size_ = bytes;
  std::size_t rounded = 0;
  if (is_hugetlb(pages)) {
    // The kernel aligns hugetlb mappings to their page size; lengths are whole pages.
    const std::size_t page = page_size(pages);
    rounded = (bytes + page - 1) / page * page;
    map_size_ = rounded;
    const int size_flag = pages == Pages::hugetlb1g ? MAP_HUGE_1GB : MAP_HUGE_2MB;
    map_ = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | size_flag, -1,
                0);
    if (map_ == MAP_FAILED) {
      const int err = errno;
      map_ = nullptr;
      throw std::runtime_error(fmt::format(
          "cannot map {} bytes of {} pages: {} (not enough free huge pages? see "
          "/sys/kernel/mm/hugepages/hugepages-{}kB/free_hugepages)",
          map_size_, to_string(pages), std::strerror(err), page >> 10));
    }
    data_ = map_;
  } else {
    rounded = (bytes + kHugeAlign - 1) / kHugeAlign * kHugeAlign;
    map_size_ = rounded + kHugeAlign;
    map_ = mmap(nullptr, map_size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map_ == MAP_FAILED) {
      map_ = nullptr;
      throw std::runtime_error(fmt::format("cannot map {} bytes: {}", map_size_, std::strerror(errno)));
    }
    // 2 MiB-aligned start, so THP can back the whole buffer and NT kernels start on a line.
    const auto base = reinterpret_cast<std::uintptr_t>(map_);
    data_ = reinterpret_cast<void*>((base + kHugeAlign - 1) / kHugeAlign * kHugeAlign);
    madvise(data_, rounded, pages == Pages::thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  }

  hwloc_topology_t t = topo.raw();
  hwloc_nodeset_t nodes = hwloc_bitmap_alloc();
  hwloc_membind_policy_t policy = HWLOC_MEMBIND_BIND;
  // A thread the OS places (pu < 0) with local memory: no binding, the kernel's default
  // policy puts each page on the node of the thread that first touches it.
  const bool first_touch_only = pu < 0 && bind.kind == MemBind::Kind::local;
  const int target = first_touch_only ? 0 : planned_mem_node(topo, bind, pu);
  if (first_touch_only) {
    // nodes stays empty: nothing is bound
  } else if (target < 0) {
    hwloc_bitmap_copy(nodes, hwloc_topology_get_topology_nodeset(t));
    policy = HWLOC_MEMBIND_INTERLEAVE;
  } else if (hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(target))) {
    hwloc_bitmap_set(nodes, node->os_index);
  }
  if (!hwloc_bitmap_iszero(nodes) &&
      hwloc_set_area_membind(t, data_, rounded, nodes, policy, HWLOC_MEMBIND_BYNODESET) != 0) {
    note_ = fmt::format("membind {} not applied: {}", bind.label(), std::strerror(errno));
  }
  hwloc_bitmap_free(nodes);
}

Buffer::Buffer(Buffer&& o) noexcept { *this = std::move(o); }

Buffer& Buffer::operator=(Buffer&& o) noexcept {
  if (this != &o) {
    release();
    map_ = std::exchange(o.map_, nullptr);
    map_size_ = std::exchange(o.map_size_, 0);
    data_ = std::exchange(o.data_, nullptr);
    size_ = std::exchange(o.size_, 0);
    note_ = std::move(o.note_);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (map_) munmap(map_, map_size_);
  map_ = nullptr;
}

bool Buffer::first_touch(const std::atomic<bool>* stop) {
  constexpr std::size_t kStopCheck = std::size_t{64} << 20;
  auto* p = static_cast<volatile unsigned char*>(data_);
  for (std::size_t off = 0; off < size_; off += 4096) {
    if (off % kStopCheck == 0 && stop && stop->load(std::memory_order_relaxed)) return false;
    p[off] = 0;
  }
  return true;
}

std::uint64_t Buffer::huge_bytes() const { return data_ ? huge_backed_bytes(data_, size_) : 0; }

int Buffer::mem_node(const Topology& topo) const {
  hwloc_nodeset_t nodes = hwloc_bitmap_alloc();
  int result = -1;
  if (hwloc_get_area_memlocation(topo.raw(), data_, 1, nodes, HWLOC_MEMBIND_BYNODESET) == 0) {
    const int os = hwloc_bitmap_first(nodes);
    const auto& ids = topo.numa_os_indices();
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (ids[i] == os) result = static_cast<int>(i);
  }
  hwloc_bitmap_free(nodes);
  return result;
}

}  // namespace bwlab
