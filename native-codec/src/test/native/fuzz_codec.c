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
 * libFuzzer target for the C decompression entry points of libkaeshuffle (the code that reads
 * bytes from other machines' shuffle files): the linked zlib, zlib through dlopen (the path
 * KAEzip takes) and libdeflate, built with AddressSanitizer and UndefinedBehaviorSanitizer.
 *
 * Input: byte 0 picks the backend, bytes 1-3 the declared raw size (0 to 16 MiB), the rest is
 * the compressed block. The destination is a heap buffer of exactly the declared size, so any
 * write past it is caught. The decoder must return the raw size or a negative error, nothing
 * else. Every input is also compressed by the same backend and decompressed back: the round
 * trip must give the input again.
 *
 * Run: native-codec/src/test/native/fuzz.sh <seconds> (or mvn -Pfuzz, see docs/reliability.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kae_backend.h"

#define BACKENDS 3
static kae_backend *backends[BACKENDS];
static void *decoders[BACKENDS];
static void *encoders[BACKENDS];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void) argc;
  (void) argv;
  int err = 0;
  backends[0] = kae_zlib_open(NULL, &err);
  backends[1] = kae_zlib_open("libz.so.1", &err);
  backends[2] = kae_libdeflate_open("libdeflate.so.0", &err);
  for (int i = 0; i < BACKENDS; i++) {
    if (backends[i] == NULL) {
      fprintf(stderr, "backend %d did not open: %s\n", i, kae_last_error());
      abort();
    }
    decoders[i] = backends[i]->decomp_new(backends[i], &err);
    encoders[i] = backends[i]->comp_new(backends[i], 1, &err);
    if (decoders[i] == NULL || encoders[i] == NULL) {
      abort();
    }
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 4) {
    return 0;
  }
  int which = data[0] % BACKENDS;
  kae_backend *b = backends[which];
  int64_t raw = ((int64_t) data[1] << 16 | (int64_t) data[2] << 8 | data[3]) % (16 << 20);
  const uint8_t *src = data + 4;
  int64_t n = (int64_t) size - 4;

  /* Hostile block into an exact-size destination. */
  uint8_t *dst = malloc(raw > 0 ? (size_t) raw : 1);
  int64_t r = b->decompress(decoders[which], src, n, dst, raw);
  if (r >= 0 && r != raw) {
    fprintf(stderr, "backend %d returned %lld for a declared %lld bytes\n", which,
        (long long) r, (long long) raw);
    abort();
  }
  free(dst);

  /* Round trip of the input itself. */
  int64_t cap = b->bound(b, n);
  if (cap < 0) {
    abort();
  }
  uint8_t *packed = malloc((size_t) cap + 1);
  int64_t c = b->compress(encoders[which], src, n, packed, cap);
  if (c < 0) {
    fprintf(stderr, "backend %d could not compress %lld bytes: %lld\n", which, (long long) n,
        (long long) c);
    abort();
  }
  uint8_t *back = malloc(n > 0 ? (size_t) n : 1);
  if (b->decompress(decoders[which], packed, c, back, n) != n || memcmp(back, src, n) != 0) {
    fprintf(stderr, "backend %d: round trip of %lld bytes differs\n", which, (long long) n);
    abort();
  }
  free(back);
  free(packed);
  return 0;
}
