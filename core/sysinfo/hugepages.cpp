// SPDX-License-Identifier: MIT
#include "core/report/plural.hpp"
#include "core/sysinfo/hugepages.hpp"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "core/errors.hpp"
#include "core/report/units.hpp"

namespace bwlab {
namespace {

long read_long(const std::string& path) {
  std::ifstream in(path);
  long v = 0;
  return (in >> v) ? v : 0;
}

}  // namespace

HugePool huge_pool(std::uint64_t page_bytes, const std::string& root) {
  HugePool p;
  p.page_bytes = page_bytes;
  p.dir = fmt::format("{}/hugepages-{}kB", root, page_bytes >> 10);
  std::error_code ec;
  p.exists = std::filesystem::is_directory(p.dir, ec);
  if (!p.exists) return p;
  p.total = read_long(p.dir + "/nr_hugepages");
  p.free = read_long(p.dir + "/free_hugepages");
  p.reserved = read_long(p.dir + "/resv_hugepages");
  return p;
}

void require_huge_pages(std::uint64_t page_bytes, std::uint64_t pages, const std::string& what,
                        const std::string& root) {
  const HugePool p = huge_pool(page_bytes, root);
  if (!p.exists)
    throw InputError(fmt::format("{}: this kernel offers no {} huge pages ({} does not exist{})", what,
                                 format_bytes(page_bytes, " "), p.dir,
                                 page_bytes >= (1ull << 30) ? "; 1 GiB pages need the CPU flag pdpe1gb" : ""));
  if (static_cast<std::uint64_t>(p.available()) >= pages) return;
  const std::uint64_t want = static_cast<std::uint64_t>(p.total) + pages - static_cast<std::uint64_t>(p.available());
  throw InputError(fmt::format(
      "{} needs {} free {} huge {}, but {} {} available ({} reserved in all); bwlab does not change system "
      "settings: as root, run `echo {} > {}/nr_hugepages`{} (and write the old value {} back afterwards)",
      what, pages, format_bytes(page_bytes, " "), noun(pages, "page"), p.available(), noun(p.available(), "is", "are"),
      p.total, want, p.dir,
      page_bytes >= (1ull << 30) ? " or boot with hugepagesz=1G hugepages=N when memory is too fragmented" : "",
      p.total));
}

}  // namespace bwlab
