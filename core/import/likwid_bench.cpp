// SPDX-License-Identifier: MIT
// likwid-bench's result block (bench/likwid-bench.c):
//   LIKWID MICRO BENCHMARK
//   Test: store_mem_avx512
//   Using 1 work groups
//   Using 4 threads
//   Cycles: ... Time: 1.282011e+00 sec ... Size (Byte): 4000000  Size per thread: 1000000
//   Data volume (Byte): 65536000000  MByte/s: 51119.77 ...
// MByte/s is 1e6 bytes per second over all threads (x 1e-3 to GB/s). The test name carries the
// store type: "_mem" tests use non-temporal stores, the others ordinary (write-allocate) ones.
// Several runs in one file are several blocks.
#include <fmt/format.h>

#include <cmath>

#include "core/import/text.hpp"

namespace bwlab::import {

namespace {

// The bwlab kernel a likwid store test is, or "".
std::string kernel_of_test(const std::string& test) {
  if (test == "store_mem_avx512") return "avx512-nt";
  if (test == "store_mem_avx") return "avx2-nt";
  if (test == "store_mem_sse" || test == "store_mem") return "movntdq";
  if (test == "store_avx512") return "avx512-store";
  if (test == "store_avx") return "avx2-store";
  return {};
}

struct Block {
  int line = 0;  // of "Test:"
  std::string test;
  int threads = 0;
  double size_per_thread = -1, mbytes = -1, time_s = -1, volume = -1;
};

}  // namespace

std::vector<Point> import_likwid_bench(std::string_view text, const Options& o) {
  std::vector<Point> out;
  std::optional<Block> b;
  auto flush = [&](int end_line) {
    if (!b) return;
    if (b->threads < 1) fail(o, b->line, "a likwid-bench block without 'Using N threads'");
    if (b->size_per_thread < 1) fail(o, b->line, "a likwid-bench block without 'Size per thread:'");
    if (b->mbytes < 0) fail(o, b->line, fmt::format("the likwid-bench block of test {} (up to line {}) has no 'MByte/s:' line", b->test, end_line));
    Point p = imported_point(o, "likwid-bench", b->line);
    p.origin_function = b->test;
    p.origin_tool = "likwid-bench -t " + b->test;
    const std::string k = kernel_of_test(b->test);
    p.kernel = k.empty() ? b->test : k;
    p.threads = b->threads;
    p.size_bytes = static_cast<std::uint64_t>(b->size_per_thread);
    set_figure(p, b->mbytes, "MByte/s", 1e-3);
    if (k.empty() && starts_with(b->test, "store"))
      p.traffic_class = b->test.find("_mem") != std::string::npos ? "non-temporal" : "write-allocate";
    p.flags.push_back(fmt::format("store type from the test name: {}",
                                  b->test.find("_mem") != std::string::npos ? "non-temporal (_mem)" : "ordinary stores"));
    if (b->time_s > 0) p.elapsed_ns_median = b->time_s * 1e9;
    if (b->volume > 0) p.bytes_median = b->volume;
    out.push_back(std::move(p));
    b.reset();
  };
  const std::vector<Line> lines = split_lines(text);
  for (const Line& l : lines) {
    const std::string& t = l.text;
    const auto colon = t.find(':');
    const std::string key = colon == std::string::npos ? t : trim(std::string_view(t).substr(0, colon));
    const std::string value = colon == std::string::npos ? "" : trim(std::string_view(t).substr(colon + 1));
    auto num = [&]() {
      std::string v = value;
      if (const auto sp = v.find(' '); sp != std::string::npos) v.erase(sp);  // "1.28e+00 sec"
      const auto n = to_number(v);
      if (!n) fail(o, l.number, fmt::format("{}: '{}' is not a number", key, value));
      if (*n < 0) fail(o, l.number, fmt::format("{}: '{}' is negative (likwid-bench's figures are 0 or more)", key, value));
      return *n;
    };
    if (key == "Test") {
      flush(l.number);
      if (value.empty()) fail(o, l.number, "'Test:' without a test name");
      b = Block{};
      b->line = l.number;
      b->test = value;
      continue;
    }
    if (!b) continue;
    if (starts_with(t, "Using ") && t.size() > 14 && t.compare(t.size() - 8, 8, " threads") == 0) {
      const auto n = to_number(std::string_view(t).substr(6, t.size() - 14));
      if (!n || *n < 1 || *n > 1e6 || *n != std::floor(*n))  // 2.5 threads became 2
        fail(o, l.number, fmt::format("'{}': not a thread count", t));
      b->threads = static_cast<int>(*n);
    } else if (key == "Size per thread") {
      b->size_per_thread = num();
      // Bytes: 1.5 became a 1-byte point, 0 was said to be a missing line, and "128 MB" was read as
      // 128 bytes (the words after the number are dropped for "1.28e+00 sec").
      const auto sp = value.find(' ');
      const std::string unit = sp == std::string::npos ? "" : trim(std::string_view(value).substr(sp));
      if (b->size_per_thread < 1 || b->size_per_thread != std::floor(b->size_per_thread) ||
          !(unit.empty() || unit == "B" || unit == "Byte" || unit == "Bytes" || unit == "bytes"))
        fail(o, l.number, fmt::format("Size per thread: '{}' is not a size in bytes (a whole number, 1 or more)", value));
    } else if (key == "MByte/s") {
      b->mbytes = num();
    } else if (key == "Time") {
      b->time_s = num();
    } else if (key == "Data volume (Byte)") {
      b->volume = num();
    }
  }
  flush(lines.empty() ? 0 : lines.back().number);
  return out;
}

}  // namespace bwlab::import
