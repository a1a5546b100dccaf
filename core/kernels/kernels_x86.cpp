// SPDX-License-Identifier: MIT
// The clearing kernels. Each one must stay the instruction it names: this file is compiled
// with -fno-builtin-memset and -fno-tree-loop-distribute-patterns so that no loop here is
// turned into a memset call. Scheme for the line-based kernels: ordinary byte stores up to
// the first 64-byte boundary, then whole lines with the named instruction (one loop
// iteration per line, no per-store branches), then ordinary byte stores for the tail.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "core/kernels/kernels.hpp"

namespace bwlab::kernel_fns {

namespace {

constexpr std::size_t kLine = 64;

// Plain stores for heads and tails (< 64 bytes). Not always_inline: GCC inlines it into the
// target("avx2"/"avx512f") kernels because the default ISA is a subset of theirs.
inline void fill_bytes(unsigned char* p, std::size_t n, unsigned char v) {
  for (std::size_t i = 0; i < n; ++i) p[i] = v;
}

// Bytes from p up to the next 64-byte boundary, capped at n.
inline std::size_t head_len(const void* p, std::size_t n) {
  const std::size_t h = (0 - reinterpret_cast<std::uintptr_t>(p)) & (kLine - 1);
  return h < n ? h : n;
}

inline std::uint64_t broadcast64(std::uint8_t v) {
  return static_cast<std::uint64_t>(v) * 0x0101010101010101ull;
}

}  // namespace

void stosb(void* dst, std::size_t bytes, std::uint8_t fill) {
  void* d = dst;
  std::size_t n = bytes;
  asm volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(fill) : "memory");
}

void stosq(void* dst, std::size_t bytes, std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  std::size_t head = (0 - reinterpret_cast<std::uintptr_t>(p)) & 7;
  if (head > bytes) head = bytes;
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  std::size_t qwords = bytes / 8;
  const std::size_t tail = bytes & 7;
  asm volatile("rep stosq" : "+D"(p), "+c"(qwords) : "a"(broadcast64(fill)) : "memory");
  fill_bytes(p, tail, fill);  // rep stosq left p just past the qwords
}

void movnti(void* dst, std::size_t bytes, std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  const auto v = static_cast<long long>(broadcast64(fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {  // like Linux clear_pages_movnt: 8 movnti per line
    auto* q = reinterpret_cast<long long*>(p);
    _mm_stream_si64(q + 0, v);
    _mm_stream_si64(q + 1, v);
    _mm_stream_si64(q + 2, v);
    _mm_stream_si64(q + 3, v);
    _mm_stream_si64(q + 4, v);
    _mm_stream_si64(q + 5, v);
    _mm_stream_si64(q + 6, v);
    _mm_stream_si64(q + 7, v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
  _mm_sfence();
}

void movntdq(void* dst, std::size_t bytes, std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  const __m128i v = _mm_set1_epi8(static_cast<char>(fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    auto* q = reinterpret_cast<__m128i*>(p);
    _mm_stream_si128(q + 0, v);
    _mm_stream_si128(q + 1, v);
    _mm_stream_si128(q + 2, v);
    _mm_stream_si128(q + 3, v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
  _mm_sfence();
}

__attribute__((target("avx2"))) void avx2_nt(void* dst, std::size_t bytes, std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  const __m256i v = _mm256_set1_epi8(static_cast<char>(fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    auto* q = reinterpret_cast<__m256i*>(p);
    _mm256_stream_si256(q + 0, v);
    _mm256_stream_si256(q + 1, v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
  _mm_sfence();
}

__attribute__((target("avx512f"))) void avx512_nt(void* dst, std::size_t bytes,
                                                  std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  // set1_epi32 rather than set1_epi8: a byte broadcast would want AVX512BW.
  const __m512i v = _mm512_set1_epi32(static_cast<int>(0x01010101u * fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
  _mm_sfence();
}

__attribute__((target("avx2"))) void avx2_store(void* dst, std::size_t bytes,
                                                std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  const __m256i v = _mm256_set1_epi8(static_cast<char>(fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    auto* q = reinterpret_cast<__m256i*>(p);
    _mm256_store_si256(q + 0, v);
    _mm256_store_si256(q + 1, v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
}

__attribute__((target("avx512f"))) void avx512_store(void* dst, std::size_t bytes,
                                                     std::uint8_t fill) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, fill);
  p += head;
  bytes -= head;
  const __m512i v = _mm512_set1_epi32(static_cast<int>(0x01010101u * fill));
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    _mm512_store_si512(p, v);
  }
  fill_bytes(p, bytes & (kLine - 1), fill);
}

void clzero(void* dst, std::size_t bytes, std::uint8_t /*fill: always zero*/) {
  auto* p = static_cast<unsigned char*>(dst);
  const std::size_t head = head_len(p, bytes);
  fill_bytes(p, head, 0);
  p += head;
  bytes -= head;
  unsigned char* const end = p + (bytes & ~(kLine - 1));
  for (; p != end; p += kLine) {
    // clzero (0f 01 fc): zero the line holding [rax]. Spelled as bytes for old assemblers.
    asm volatile(".byte 0x0f, 0x01, 0xfc" : : "a"(p) : "memory");
  }
  fill_bytes(p, bytes & (kLine - 1), 0);
  _mm_sfence();  // clzero stores are weakly ordered
}

void libc_memset(void* dst, std::size_t bytes, std::uint8_t fill) {
  // -fno-builtin-memset: this is a real call into glibc, which picks the instruction.
  ::memset(dst, fill, bytes);
}

}  // namespace bwlab::kernel_fns
