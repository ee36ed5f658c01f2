/*
 * Copyright 2026 The KAE Shuffle authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except
 * in compliance with the License. You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software distributed under the License
 * is distributed on an "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express
 * or implied. See the License for the specific language governing permissions and limitations under
 * the License.
 */
/*
 * C-level tests of the codec backends, built for every architecture the jar ships and run there
 * (natively, or under qemu-user for the other one): round trips, bounds, destination too small,
 * wrong lengths, truncation, trailing bytes, random and mutated input, with canary bytes around
 * every output so an out-of-bounds write is caught. Compiled with the same backend sources as
 * libkaeshuffle. Prints "<N> passed, <M> failed" and exits non-zero on any failure.
 *   codec_selftest            (libdeflate.so.0 and libz.so.1 must load)
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kae_backend.h"
#include "kae_errors.h"

static int passed, failed;
#define CHECK(cond, ...)                                          \
  do {                                                            \
    if (cond) {                                                   \
      passed++;                                                   \
    } else {                                                      \
      failed++;                                                   \
      fprintf(stderr, "FAIL line %d: ", __LINE__);                \
      fprintf(stderr, __VA_ARGS__);                               \
      fprintf(stderr, "\n");                                      \
    }                                                             \
  } while (0)

#define CANARY 64
static uint32_t rng = 2463534242u;
static uint32_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

static void fill(uint8_t *b, size_t n, int random) {
  static const char *words[] = {"shuffle ", "kunpeng ", "block ", "a ", "deflate ", "the "};
  size_t i = 0;
  while (i < n) {
    if (random) {
      b[i++] = (uint8_t)next_rand();
    } else {
      const char *w = words[next_rand() % 6];
      for (size_t k = 0; w[k] && i < n; k++) b[i++] = (uint8_t)w[k];
    }
  }
}

/* A buffer of n usable bytes with canaries on both sides. */
static uint8_t *guarded(size_t n) {
  uint8_t *b = malloc(n + 2 * CANARY);
  memset(b, 0xA5, n + 2 * CANARY);
  return b + CANARY;
}
static int intact(const uint8_t *b, size_t n) {
  for (size_t i = 0; i < CANARY; i++) {
    if (b[-1 - (long)i] != 0xA5 || b[n + i] != 0xA5) return 0;
  }
  return 1;
}
static void release(uint8_t *b) { free(b - CANARY); }

static void test_backend(const char *name, kae_backend *b) {
  static const size_t sizes[] = {0, 1, 100, 4096, 65536, 262144, 1048576 + 7};
  int err = 0;
  void *comp = b->comp_new(b, 1, &err);
  void *dec = b->decomp_new(b, &err);
  CHECK(comp != NULL && dec != NULL, "%s: contexts (%d)", name, err);
  if (comp == NULL || dec == NULL) return;
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
    for (int random = 0; random <= 1; random++) {
      size_t n = sizes[s];
      uint8_t *src = guarded(n);
      fill(src, n, random);
      int64_t bound = b->bound(b, (int64_t)n);
      CHECK(bound >= (int64_t)n, "%s: bound %lld < %zu", name, (long long)bound, n);
      uint8_t *z = guarded((size_t)bound);
      int64_t c = b->compress(comp, src, (int64_t)n, z, bound);
      CHECK(c > 0 && c <= bound && intact(z, (size_t)bound), "%s: compress %zu -> %lld", name,
            n, (long long)c);
      uint8_t *out = guarded(n + 1);
      int64_t d = b->decompress(dec, z, c, out, (int64_t)n);
      CHECK(d == (int64_t)n && memcmp(out, src, n) == 0 && intact(out, n + 1),
            "%s: round trip of %zu bytes gave %lld", name, n, (long long)d);
      if (n > 0) {
        CHECK(b->decompress(dec, z, c, out, (int64_t)n - 1) == KAE_E_LENGTH && intact(out, n + 1),
              "%s: shorter room for %zu bytes not refused", name, n);
      }
      CHECK(b->decompress(dec, z, c, out, (int64_t)n + 1) == KAE_E_LENGTH,
            "%s: declared length %zu + 1 accepted", name, n);
      if (c > 2) {
        CHECK(b->decompress(dec, z, c / 2, out, (int64_t)n) < 0 && intact(out, n + 1),
              "%s: truncated block accepted", name);
      }
      uint8_t *t = guarded((size_t)c + 3);
      memcpy(t, z, (size_t)c);
      memset(t + c, 7, 3);
      CHECK(b->decompress(dec, t, c + 3, out, (int64_t)n) == KAE_E_TRAILING,
            "%s: trailing bytes accepted", name);
      if (random && n >= 4096) {
        int64_t small = b->compress(comp, src, (int64_t)n, z, (int64_t)n / 4);
        CHECK(small == KAE_E_DST_TOO_SMALL && intact(z, (size_t)bound),
              "%s: tiny destination gave %lld", name, (long long)small);
      }
      release(t);
      release(out);
      release(z);
      release(src);
    }
  }
  /* Random garbage and mutated blocks: an error or an exact fill, never a write outside. */
  size_t n = 65536;
  uint8_t *src = guarded(n);
  fill(src, n, 0);
  int64_t bound = b->bound(b, (int64_t)n);
  uint8_t *z = guarded((size_t)bound);
  int64_t c = b->compress(comp, src, (int64_t)n, z, bound);
  uint8_t *out = guarded(n);
  uint8_t *m = guarded((size_t)bound);
  int bad = 0, rejected = 0;
  for (int i = 0; i < 3000; i++) {
    size_t len;
    if (i % 3 == 0) {
      len = 1 + next_rand() % 2000;
      fill(m, len, 1);
    } else {
      len = (size_t)c;
      memcpy(m, z, len);
      for (int k = 1 + next_rand() % 4; k > 0; k--) m[next_rand() % len] ^= 1 << (next_rand() % 8);
    }
    int64_t r = b->decompress(dec, m, (int64_t)len, out, (int64_t)n);
    if (r < 0) rejected++;
    if ((r < 0 && r < KAE_E_STATE) || (r >= 0 && r != (int64_t)n) || !intact(out, n)) bad++;
  }
  CHECK(bad == 0, "%s: %d hostile inputs misbehaved", name, bad);
  CHECK(rejected > 1500, "%s: only %d of 3000 hostile inputs rejected", name, rejected);
  CHECK(b->decompress(dec, z, c, out, (int64_t)n) == (int64_t)n && memcmp(out, src, n) == 0,
        "%s: context unusable after errors", name);
  release(m);
  release(out);
  release(z);
  release(src);
  b->comp_free(comp);
  b->decomp_free(dec);
}

/* Blocks written by one deflate backend decode with the other. */
static void test_cross(kae_backend *a, kae_backend *b) {
  int err = 0;
  size_t n = 300000;
  uint8_t *src = guarded(n);
  fill(src, n, 0);
  void *comp = a->comp_new(a, 1, &err);
  void *dec = b->decomp_new(b, &err);
  int64_t bound = a->bound(a, (int64_t)n);
  uint8_t *z = guarded((size_t)bound);
  uint8_t *out = guarded(n);
  int64_t c = a->compress(comp, src, (int64_t)n, z, bound);
  CHECK(b->decompress(dec, z, c, out, (int64_t)n) == (int64_t)n && memcmp(out, src, n) == 0,
        "cross decoding failed");
  a->comp_free(comp);
  b->decomp_free(dec);
  release(out);
  release(z);
  release(src);
}

int main(void) {
  int err = 0;
  kae_backend *linked = kae_zlib_open(NULL, &err);
  CHECK(linked != NULL, "linked zlib: %d", err);
  kae_backend *loaded = kae_zlib_open("libz.so.1", &err);
  CHECK(loaded != NULL, "zlib through dlopen (the KAEzip path): %d %s", err, kae_last_error());
  kae_backend *ld = kae_libdeflate_open("libdeflate.so.0", &err);
  CHECK(ld != NULL, "libdeflate: %d %s", err, kae_last_error());
  kae_backend *missing = kae_zlib_open("/nonexistent/libz.so", &err);
  CHECK(missing == NULL && err == KAE_E_LIB_OPEN, "a missing library must give LIB_OPEN");
  if (linked) test_backend("zlib", linked);
  if (loaded) test_backend("zlib-dlopen", loaded);
  if (ld) test_backend("libdeflate", ld);
  if (linked && ld) {
    test_cross(linked, ld);
    test_cross(ld, linked);
  }
#if defined(__aarch64__)
  const char *arch = "aarch64";
#elif defined(__x86_64__)
  const char *arch = "x86_64";
#else
  const char *arch = "unknown";
#endif
  printf("codec selftest (%s): %d passed, %d failed\n", arch, passed, failed);
  return failed ? 1 : 0;
}
