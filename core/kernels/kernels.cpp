// SPDX-License-Identifier: MIT
#include "core/kernels/kernels.hpp"

#include <array>

namespace bwlab {

namespace {

namespace kf = kernel_fns;
using TC = TrafficClass;

constexpr std::array<KernelInfo, 10> kTable{{
    {"stosb", &kf::stosb, Feature::none, TC::write_allocate, false,
     "rep stosb over the whole range; fast with ERMS (enhanced rep movsb/stosb)"},
    {"stosq", &kf::stosq, Feature::none, TC::write_allocate, false,
     "rep stosq on the 8-byte aligned middle, byte stores for head and tail"},
    {"movnti", &kf::movnti, Feature::sse2, TC::non_temporal, false,
     "movnti 64-bit non-temporal stores, 8 per line, then sfence; like Linux clear_pages_movnt"},
    {"movntdq", &kf::movntdq, Feature::sse2, TC::non_temporal, false,
     "movntdq 16-byte SSE2 non-temporal stores, 4 per line, then sfence"},
    {"avx2-nt", &kf::avx2_nt, Feature::avx2, TC::non_temporal, false,
     "vmovntdq ymm 32-byte AVX2 non-temporal stores, 2 per line, then sfence"},
    {"avx512-nt", &kf::avx512_nt, Feature::avx512f, TC::non_temporal, false,
     "vmovntdq zmm 64-byte AVX-512 non-temporal stores, 1 per line, then sfence"},
    {"avx2-store", &kf::avx2_store, Feature::avx2, TC::write_allocate, false,
     "vmovdqa ymm 32-byte AVX2 cacheable stores, 2 per line"},
    {"avx512-store", &kf::avx512_store, Feature::avx512f, TC::write_allocate, false,
     "vmovdqa64 zmm 64-byte AVX-512 cacheable stores, 1 per line"},
    {"clzero", &kf::clzero, Feature::clzero, TC::zeroing_without_fetch, true,
     "AMD clzero, one per line, then sfence; zeroes a line without reading it (zero fill only)"},
    {"memset", &kf::libc_memset, Feature::none, TC::write_allocate, false,
     "glibc memset: glibc picks the instruction and may switch to non-temporal stores above "
     "x86_non_temporal_threshold"},
}};

}  // namespace

std::string_view to_string(TrafficClass c) {
  switch (c) {
    case TrafficClass::write_allocate: return "write-allocate";
    case TrafficClass::non_temporal: return "non-temporal";
    case TrafficClass::zeroing_without_fetch: return "zeroing-without-fetch";
  }
  return "?";
}

std::string_view to_string(Feature f) {
  switch (f) {
    case Feature::none: return "-";
    case Feature::sse2: return "sse2";
    case Feature::avx2: return "avx2";
    case Feature::avx512f: return "avx512f";
    case Feature::clzero: return "clzero";
  }
  return "?";
}

bool has_feature(const CpuFeatures& cpu, Feature f) {
  switch (f) {
    case Feature::none: return true;
    case Feature::sse2: return cpu.sse2;
    case Feature::avx2: return cpu.avx2;
    case Feature::avx512f: return cpu.avx512f;
    case Feature::clzero: return cpu.clzero;
  }
  return false;
}

std::span<const KernelInfo> kernel_table() { return kTable; }

const KernelInfo* find_kernel(std::string_view name) {
  if (name == "movnt") name = "movnti";
  for (const KernelInfo& k : kTable)
    if (k.name == name) return &k;
  return nullptr;
}

std::string kernel_names() {
  std::string out;
  for (const KernelInfo& k : kTable) {
    if (!out.empty()) out += ", ";
    out += k.name;
  }
  return out;
}

Availability kernel_availability(const KernelInfo& k, const CpuFeatures& cpu, std::string_view lacked_by) {
  Availability a;
  if (has_feature(cpu, k.requires_feature)) {
    a.available = true;
    return a;
  }
  std::string need(to_string(k.requires_feature));
  if (k.requires_feature == Feature::clzero) need += " (AMD only)";
  a.reason = "needs " + need + ", which " + std::string(lacked_by) + " lacks";
  return a;
}

std::string default_kernels(const CpuFeatures& cpu) {
  for (std::string_view nt : {"avx512-nt", "avx2-nt"})
    if (kernel_availability(*find_kernel(nt), cpu).available) return "stosb,movnti," + std::string(nt);
  return "stosb,movnti,movntdq";
}

}  // namespace bwlab
