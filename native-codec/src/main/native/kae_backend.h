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
 * A codec backend: one table of functions per library, so the JNI layer handles every backend
 * (system zlib, a dlopen'ed zlib-compatible library such as KAEzip, libdeflate) the same way.
 * A backend is created once and lives for the life of the process; contexts are created per
 * caller, reused across blocks, and are not thread-safe.
 */
#ifndef KAE_BACKEND_H
#define KAE_BACKEND_H

#include <stdint.h>

typedef struct kae_backend kae_backend;

struct kae_backend {
  /* Upper bound of the compressed size of n raw bytes, or a negative error code. */
  int64_t (*bound)(const kae_backend *b, int64_t n);
  /* New compression context at the given level; NULL with *err set on failure. */
  void *(*comp_new)(const kae_backend *b, int level, int *err);
  /* Compresses src[0,n) into dst[0,cap) as one zlib-format block; returns its length or an error. */
  int64_t (*compress)(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t cap);
  void (*comp_free)(void *ctx);
  void *(*decomp_new)(const kae_backend *b, int *err);
  /* Decompresses all of src[0,n) into exactly raw bytes of dst; returns raw or an error. */
  int64_t (*decompress)(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t raw);
  void (*decomp_free)(void *ctx);
  char description[160];
};

/* Opens the zlib API: the linked system zlib when path is NULL, else dlopen(path, RTLD_LOCAL). */
kae_backend *kae_zlib_open(const char *path, int *err);
/* Opens libdeflate through dlopen(path, RTLD_LOCAL). */
kae_backend *kae_libdeflate_open(const char *path, int *err);

/* Detail of the last failed open on this thread (dlerror text, missing symbol), or "". */
const char *kae_last_error(void);
void kae_set_last_error(const char *fmt, ...);

#endif
