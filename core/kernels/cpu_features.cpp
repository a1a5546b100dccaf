// SPDX-License-Identifier: MIT
#include "core/kernels/cpu_features.hpp"

#include <cpuid.h>

#include <cstring>

namespace bwlab {

std::vector<std::string> CpuFeatures::present() const {
  std::vector<std::string> out;
  if (sse2) out.emplace_back("sse2");
  if (avx2) out.emplace_back("avx2");
  if (avx512f) out.emplace_back("avx512f");
  if (erms) out.emplace_back("erms");
  if (fsrm) out.emplace_back("fsrm");
  if (clzero) out.emplace_back("clzero");
  return out;
}

namespace {

std::string trim(std::string s) {
  auto is_blank = [](char c) { return c == ' ' || c == '\0' || c == '\t'; };
  std::size_t b = 0;
  while (b < s.size() && is_blank(s[b])) ++b;
  std::size_t e = s.size();
  while (e > b && is_blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

}  // namespace

CpuFeatures detect_cpu_features() {
  CpuFeatures f;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;

  // Leaf 0: max basic leaf and vendor (EBX, EDX, ECX order).
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) == 0) return f;
  const unsigned max_leaf = eax;
  char vendor[13] = {};
  std::memcpy(vendor + 0, &ebx, 4);
  std::memcpy(vendor + 4, &edx, 4);
  std::memcpy(vendor + 8, &ecx, 4);
  f.vendor = trim(vendor);

  // Leaf 1: family / model / stepping.
  if (max_leaf >= 1 && __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) {
    const int base_family = static_cast<int>((eax >> 8) & 0xf);
    const int ext_family = static_cast<int>((eax >> 20) & 0xff);
    const int base_model = static_cast<int>((eax >> 4) & 0xf);
    const int ext_model = static_cast<int>((eax >> 16) & 0xf);
    f.stepping = static_cast<int>(eax & 0xf);
    f.family = base_family == 0xf ? base_family + ext_family : base_family;
    f.model = (base_family == 0x6 || base_family == 0xf) ? (ext_model << 4) + base_model
                                                           : base_model;
  }

  // Leaf 7 subleaf 0: ERMS (EBX bit 9), FSRM (EDX bit 4).
  if (max_leaf >= 7 && __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0) {
    f.erms = (ebx >> 9) & 1u;
    f.fsrm = (edx >> 4) & 1u;
  }

  // Extended leaves: brand string and CLZERO.
  const unsigned max_ext = __get_cpuid_max(0x80000000u, nullptr);
  if (max_ext >= 0x80000004u) {
    char brand[49] = {};
    for (unsigned i = 0; i < 3; ++i) {
      __get_cpuid(0x80000002u + i, &eax, &ebx, &ecx, &edx);
      std::memcpy(brand + 16 * i + 0, &eax, 4);
      std::memcpy(brand + 16 * i + 4, &ebx, 4);
      std::memcpy(brand + 16 * i + 8, &ecx, 4);
      std::memcpy(brand + 16 * i + 12, &edx, 4);
    }
    f.model_name = trim(brand);
  }
  if (max_ext >= 0x80000008u && __get_cpuid(0x80000008u, &eax, &ebx, &ecx, &edx) != 0) {
    f.clzero = ebx & 1u;
  }

  // SIMD: __builtin_cpu_supports also checks that the OS saves the register state (XGETBV).
  __builtin_cpu_init();
  f.sse2 = __builtin_cpu_supports("sse2");
  f.avx2 = __builtin_cpu_supports("avx2");
  f.avx512f = __builtin_cpu_supports("avx512f");
  return f;
}

}  // namespace bwlab
