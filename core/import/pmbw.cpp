// SPDX-License-Identifier: MIT
// pmbw's stats.txt: one line per result, tab-separated key=value pairs after "RESULT"
// (pmbw.cc, thread_master):
//   RESULT datetime=2013-06-11 10:32:41 host=node1 version=0.6.2 funcname=ScanWrite64PtrSimpleLoop
//   nthreads=4 areasize=1024 threadsize=256 testsize=... repeats=... testvol=... testaccess=...
//   time=... bandwidth=... rate=...
// bandwidth = testvol / time in bytes per second, all threads together; threadsize is each
// thread's array in bytes. pmbw pins nothing and states no fill: those are unknown.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>

#include "core/import/text.hpp"

namespace bwlab::import {

std::vector<Point> import_pmbw(std::string_view text, const Options& o) {
  std::vector<Point> out;
  // pmbw measures reads too (ScanRead*, PermRead*): not a clear of memory, so not a point here
  // (they were imported as clearing curves beside the write tests).
  std::map<std::string, int> reads;
  for (const Line& l : split_lines(text)) {
    const std::string& t = l.text;
    if (t.empty()) continue;
    if (!starts_with(t, "RESULT\t"))
      fail(o, l.number, "expected a pmbw 'RESULT<TAB>key=value...' line (stats.txt)");
    std::map<std::string, std::string, std::less<>> kv;
    std::size_t start = 7;
    while (start <= t.size()) {
      std::size_t end = t.find('\t', start);
      if (end == std::string::npos) end = t.size();
      const std::string_view field = std::string_view(t).substr(start, end - start);
      if (!field.empty()) {
        const auto eq = field.find('=');
        if (eq == std::string_view::npos) fail(o, l.number, fmt::format("'{}' is not key=value", field));
        kv[std::string(field.substr(0, eq))] = std::string(field.substr(eq + 1));
      }
      start = end + 1;
    }
    auto need = [&](std::string_view key) -> const std::string& {
      const auto it = kv.find(key);
      if (it == kv.end() || it->second.empty()) fail(o, l.number, fmt::format("RESULT without {}=", key));
      return it->second;
    };
    auto number = [&](std::string_view key) {
      const auto v = to_number(need(key));
      if (!v) fail(o, l.number, fmt::format("{}={} is not a number", key, need(key)));
      if (*v < 0) fail(o, l.number, fmt::format("{}={} is negative (pmbw's figures are 0 or more)", key, need(key)));
      return *v;
    };
    Point p = imported_point(o, "pmbw", l.number);
    const std::string& func = need("funcname");
    if (func.find("Read") != std::string::npos) {
      ++reads[func];
      continue;
    }
    p.origin_function = func;
    p.origin_tool = kv.count("version") ? "pmbw " + kv["version"] : "pmbw";
    const std::string k = kernel_for(func);
    p.kernel = k.empty() ? func : k;
    p.host = kv.count("host") ? kv["host"] : "";
    const double threads = number("nthreads");
    const double tsize = number("threadsize");
    if (threads < 1 || threads > 1e6 || threads != static_cast<int>(threads))
      fail(o, l.number, fmt::format("nthreads={} is not a thread count", need("nthreads")));
    if (tsize < 1 || tsize > 1e18 || tsize != std::floor(tsize))  // 1.5 became a 1-byte point
      fail(o, l.number, fmt::format("threadsize={} is not a size in bytes (a whole number, 1 or more)", need("threadsize")));
    p.threads = static_cast<int>(threads);
    p.size_bytes = static_cast<std::uint64_t>(tsize);
    p.placement = "";
    set_figure(p, number("bandwidth"), "bytes/s", 1e-9);
    if (kv.count("time"))
      if (const auto s = to_number(kv["time"])) p.elapsed_ns_median = *s * 1e9;
    if (kv.count("testvol"))
      if (const auto v = to_number(kv["testvol"])) p.bytes_median = *v;
    out.push_back(std::move(p));
  }
  if (!reads.empty()) {
    std::vector<std::string> names;
    int n = 0;
    for (const auto& [f, c] : reads) names.push_back(f), n += c;
    const std::string what = fmt::format("{} result{} of pmbw tests that read memory ({})", n, n == 1 ? "" : "s",
                                         fmt::join(names, ", "));
    if (out.empty())
      fail(o, 0, fmt::format("holds only {}: bwlab imports what clears memory, pmbw's write tests (ScanWrite*)", what));
    if (o.notes) o.notes->push_back(fmt::format("{}: left out {}: bwlab imports pmbw's write tests only", o.file, what));
  }
  return out;
}

}  // namespace bwlab::import
