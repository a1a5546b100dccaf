// SPDX-License-Identifier: MIT
// Fuzz target: every argument parser (sizes, thread counts, PU lists and placements, fills,
// kernels, membind, pages). The first byte picks the parser, the rest is the text.
#include <string>

#include "core/engine/buffer.hpp"
#include "core/errors.hpp"
#include "core/kernels/cpu_features.hpp"
#include "core/sweep/parse.hpp"
#include "core/topology/placement.hpp"

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  static const bwlab::CpuFeatures cpu = [] {
    bwlab::CpuFeatures c;
    c.sse2 = c.avx2 = c.avx512f = c.erms = true;
    return c;
  }();
  try {
    switch (data[0] % 7) {
      case 0: (void)bwlab::parse_sizes(text); break;
      case 1: (void)bwlab::parse_threads(text, 1 + data[0] / 7); break;
      case 2: (void)bwlab::parse_placement(text); break;
      case 3: (void)bwlab::parse_fills(text); break;
      case 4: (void)bwlab::parse_kernels(text, cpu); break;
      case 5: (void)bwlab::parse_membind(text); break;
      case 6: (void)bwlab::parse_pages(text); break;
    }
  } catch (const bwlab::InputError&) {
  }
  return 0;
}
