// SPDX-License-Identifier: MIT
// A minimal standalone clearing loop, the reference bwlab's kernels are compared against
// (bench/fidelity.sh). No library, no barrier object, no observer: T pthreads, each pinned to
// the i-th CPU of the process's affinity mask (set it with taskset), each clearing its own
// first-touched buffer in passes for SECONDS; prints the aggregate GB/s (1e9 bytes/s), the sum
// of per-thread bytes / per-thread time, as bwlab defines it.
// Usage: clear_loop stosb|movnti|avx512nt|clzero SIZE_BYTES THREADS SECONDS [FILL_BYTE]
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static const char* kind;
static size_t size;
static double seconds;
static unsigned char fill;
static atomic_int ready;
static int nthreads;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void pass_stosb(void* d, size_t n, unsigned char c) {
  __asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
}
static void pass_movnti(void* d, size_t n, unsigned char c) {
  long long v = 0x0101010101010101LL * c;
  for (char* p = d; p < (char*)d + n; p += 64) {  // 8 movnti per line, written out
    long long* q = (long long*)p;
    _mm_stream_si64(q + 0, v), _mm_stream_si64(q + 1, v), _mm_stream_si64(q + 2, v), _mm_stream_si64(q + 3, v);
    _mm_stream_si64(q + 4, v), _mm_stream_si64(q + 5, v), _mm_stream_si64(q + 6, v), _mm_stream_si64(q + 7, v);
  }
  _mm_sfence();
}
__attribute__((target("avx512f"))) static void pass_avx512nt(void* d, size_t n, unsigned char c) {
  __m512i v = _mm512_set1_epi32((int)(0x01010101u * c));
  for (char* p = d; p < (char*)d + n; p += 64) _mm512_stream_si512((void*)p, v);
  _mm_sfence();
}
static void pass_clzero(void* d, size_t n, unsigned char c) {
  (void)c;
  for (char* p = d; p < (char*)d + n; p += 64) __asm__ volatile(".byte 0x0f,0x01,0xfc" ::"a"(p) : "memory");
  _mm_sfence();
}

struct job {
  int cpu;
  double gbps;
};

static void* worker(void* arg) {
  struct job* j = arg;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(j->cpu, &one);
  pthread_setaffinity_np(pthread_self(), sizeof one, &one);
  void (*fn)(void*, size_t, unsigned char) = !strcmp(kind, "stosb")    ? pass_stosb
                                             : !strcmp(kind, "movnti") ? pass_movnti
                                             : !strcmp(kind, "clzero") ? pass_clzero
                                                                       : pass_avx512nt;
  char* buf = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  madvise(buf, size, MADV_NOHUGEPAGE);
  for (size_t o = 0; o < size; o += 4096) buf[o] = 0;
  fn(buf, size, fill);  // warm-up pass
  atomic_fetch_add(&ready, 1);
  while (atomic_load(&ready) < nthreads) _mm_pause();
  const double t0 = now();
  double t = t0;
  size_t bytes = 0;
  while (t - t0 < seconds) {
    fn(buf, size, fill);
    bytes += size;
    t = now();
  }
  j->gbps = bytes / (t - t0) / 1e9;
  munmap(buf, size);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s stosb|movnti|avx512nt|clzero SIZE_BYTES THREADS SECONDS [FILL]\n", argv[0]);
    return 2;
  }
  kind = argv[1];
  size = strtoull(argv[2], NULL, 0) / 64 * 64;
  nthreads = atoi(argv[3]);
  seconds = atof(argv[4]);
  fill = argc > 5 ? (unsigned char)strtoul(argv[5], NULL, 0) : 0;
  cpu_set_t mask;
  sched_getaffinity(0, sizeof mask, &mask);
  struct job jobs[256];
  pthread_t th[256];
  int cpu = -1;
  for (int i = 0; i < nthreads && i < 256; ++i) {
    do ++cpu;
    while (cpu < CPU_SETSIZE && !CPU_ISSET(cpu, &mask));
    jobs[i].cpu = cpu;
    pthread_create(&th[i], NULL, worker, &jobs[i]);
  }
  double sum = 0;
  for (int i = 0; i < nthreads; ++i) {
    pthread_join(th[i], NULL);
    sum += jobs[i].gbps;
  }
  printf("%.4f\n", sum);
  return 0;
}
