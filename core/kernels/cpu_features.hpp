// SPDX-License-Identifier: MIT
#pragma once
#include <string>
#include <vector>

namespace bwlab {

// What CPUID (and the OS, through XGETBV) says this CPU can run.
struct CpuFeatures {
  bool sse2 = false;
  bool avx2 = false;
  bool avx512f = false;  // also requires the OS to save ZMM state
  bool erms = false;     // enhanced rep movsb/stosb
  bool fsrm = false;     // fast short rep mov
  bool clzero = false;   // AMD CLZERO (CPUID 0x80000008 EBX bit 0)
  std::string vendor;    // "GenuineIntel", "AuthenticAMD", ...
  std::string model_name;
  int family = 0;        // display family (base + extended)
  int model = 0;         // display model (with extended model)
  int stepping = 0;

  // Names of the features above that are present, e.g. {"sse2","avx2","erms"}.
  std::vector<std::string> present() const;
};

// Reads CPUID on this machine.
CpuFeatures detect_cpu_features();

}  // namespace bwlab
