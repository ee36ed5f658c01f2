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
 * libdeflate as a backend, loaded with dlopen so the library is optional at run time and no
 * header is needed at build time. Its zlib-format output is an ordinary zlib stream, so blocks
 * it writes are read by every other deflate backend and the other way round.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "kae_backend.h"
#include "kae_dl.h"
#include "kae_errors.h"
#include "kae_library.h"

/* libdeflate's public ABI (libdeflate.h, stable across 1.x). */
enum { LD_SUCCESS = 0, LD_BAD_DATA = 1, LD_SHORT_OUTPUT = 2, LD_INSUFFICIENT_SPACE = 3 };
typedef void *(*fn_alloc_compressor)(int level);
typedef size_t (*fn_zlib_compress)(void *c, const void *in, size_t n, void *out, size_t cap);
typedef size_t (*fn_zlib_compress_bound)(void *c, size_t n);
typedef void (*fn_free_compressor)(void *c);
typedef void *(*fn_alloc_decompressor)(void);
typedef int (*fn_zlib_decompress)(void *d, const void *in, size_t n, void *out, size_t cap,
                                  size_t *actual_out);
typedef int (*fn_zlib_decompress_ex)(void *d, const void *in, size_t n, void *out, size_t cap,
                                     size_t *actual_in, size_t *actual_out);
typedef void (*fn_free_decompressor)(void *d);

typedef struct {
  kae_backend base;
  void *handle;
  void *bound_compressor; /* libdeflate's bound takes a compressor; this one is only read */
  fn_alloc_compressor alloc_compressor;
  fn_zlib_compress zlib_compress;
  fn_zlib_compress_bound zlib_compress_bound;
  fn_free_compressor free_compressor;
  fn_alloc_decompressor alloc_decompressor;
  fn_zlib_decompress zlib_decompress;
  fn_zlib_decompress_ex zlib_decompress_ex; /* may be NULL on old versions */
  fn_free_decompressor free_decompressor;
} ld_backend;

typedef struct {
  const ld_backend *lb;
  void *impl;
} ld_ctx;

static int64_t ld_bound(const kae_backend *b, int64_t n) {
  const ld_backend *lb = (const ld_backend *)b;
  if (n < 0 || n > INT32_MAX) return KAE_E_ARG;
  return (int64_t)lb->zlib_compress_bound(lb->bound_compressor, (size_t)n);
}

static void *ld_comp_new(const kae_backend *b, int level, int *err) {
  const ld_backend *lb = (const ld_backend *)b;
  if (level < 1 || level > 12) { *err = KAE_E_ARG; return NULL; }
  ld_ctx *c = calloc(1, sizeof(ld_ctx));
  if (c == NULL) { *err = KAE_E_NOMEM; return NULL; }
  c->lb = lb;
  c->impl = lb->alloc_compressor(level);
  if (c->impl == NULL) { free(c); *err = KAE_E_NOMEM; return NULL; }
  return c;
}

static int64_t ld_compress(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t cap) {
  ld_ctx *c = ctx;
  if (n < 0 || cap < 0) return KAE_E_ARG;
  size_t out = c->lb->zlib_compress(c->impl, src, (size_t)n, dst, (size_t)cap);
  return out == 0 ? KAE_E_DST_TOO_SMALL : (int64_t)out;
}

static void ld_comp_free(void *ctx) {
  ld_ctx *c = ctx;
  c->lb->free_compressor(c->impl);
  free(c);
}

static void *ld_decomp_new(const kae_backend *b, int *err) {
  const ld_backend *lb = (const ld_backend *)b;
  ld_ctx *c = calloc(1, sizeof(ld_ctx));
  if (c == NULL) { *err = KAE_E_NOMEM; return NULL; }
  c->lb = lb;
  c->impl = lb->alloc_decompressor();
  if (c->impl == NULL) { free(c); *err = KAE_E_NOMEM; return NULL; }
  return c;
}

static int64_t ld_decompress(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t raw) {
  ld_ctx *c = ctx;
  if (n < 0 || raw < 0) return KAE_E_ARG;
  if (n == 0) return KAE_E_CORRUPT;
  uint8_t scratch;
  uint8_t *out = raw > 0 ? dst : &scratch;
  size_t in_used = (size_t)n;
  size_t produced = 0;
  /* libdeflate never writes past the room it is given: exactly the expected raw length. */
  int rc = c->lb->zlib_decompress_ex != NULL
               ? c->lb->zlib_decompress_ex(c->impl, src, (size_t)n, out, (size_t)raw, &in_used,
                                           &produced)
               : c->lb->zlib_decompress(c->impl, src, (size_t)n, out, (size_t)raw, &produced);
  switch (rc) {
    case LD_SUCCESS:
      if ((int64_t)produced != raw) return KAE_E_LENGTH;
      if (in_used != (size_t)n) return KAE_E_TRAILING;
      return raw;
    case LD_INSUFFICIENT_SPACE:
    case LD_SHORT_OUTPUT:
      return KAE_E_LENGTH;
    case LD_BAD_DATA:
      return KAE_E_CORRUPT;
    default:
      return KAE_E_INTERNAL;
  }
}

static void ld_decomp_free(void *ctx) {
  ld_ctx *c = ctx;
  c->lb->free_decompressor(c->impl);
  free(c);
}

kae_backend *kae_libdeflate_open(const char *path, int *err) {
  if (path == NULL) { *err = KAE_E_ARG; return NULL; }
  ld_backend *lb = calloc(1, sizeof(ld_backend));
  if (lb == NULL) { *err = KAE_E_NOMEM; return NULL; }
  lb->handle = kae_library_open(path, err);
  if (lb->handle == NULL) {
    free(lb);
    return NULL;
  }
  const kae_symbol required[] = {
      {"libdeflate_alloc_compressor", (void **)&lb->alloc_compressor},
      {"libdeflate_zlib_compress", (void **)&lb->zlib_compress},
      {"libdeflate_zlib_compress_bound", (void **)&lb->zlib_compress_bound},
      {"libdeflate_free_compressor", (void **)&lb->free_compressor},
      {"libdeflate_alloc_decompressor", (void **)&lb->alloc_decompressor},
      {"libdeflate_zlib_decompress", (void **)&lb->zlib_decompress},
      {"libdeflate_free_decompressor", (void **)&lb->free_decompressor},
  };
  int bound = kae_library_bind(lb->handle, path, required, sizeof(required) / sizeof(*required));
  if (bound != KAE_OK) {
    *err = bound;
    goto fail;
  }
  /* Optional (absent from old versions): it reports the input consumed, for the trailing check. */
  *(void **)(&lb->zlib_decompress_ex) = dlsym(lb->handle, "libdeflate_zlib_decompress_ex");
  lb->bound_compressor = lb->alloc_compressor(1);
  if (lb->bound_compressor == NULL) {
    kae_set_last_error("%s: libdeflate_alloc_compressor(1) failed", path);
    *err = KAE_E_LIB_INIT;
    goto fail;
  }
  lb->base.bound = ld_bound;
  lb->base.comp_new = ld_comp_new;
  lb->base.compress = ld_compress;
  lb->base.comp_free = ld_comp_free;
  lb->base.decomp_new = ld_decomp_new;
  lb->base.decompress = ld_decompress;
  lb->base.decomp_free = ld_decomp_free;
  snprintf(lb->base.description, sizeof(lb->base.description), "libdeflate (%s)", path);
  return &lb->base;
fail:
  dlclose(lb->handle);
  free(lb);
  return NULL;
}
