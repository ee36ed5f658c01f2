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
 * The zlib API as a backend: either the system zlib this library is linked with, or any
 * zlib-compatible library (KAEzip's libz.so, or a test stand-in) loaded with dlopen(RTLD_LOCAL)
 * so its symbols never replace the process's own zlib.
 *
 * Format rules that keep KAEzip and zlib interchangeable: zlib format only (windowBits 15, never
 * raw deflate or auto-detect), output sized by the loaded library's own compressBound, and
 * strm->adler is never read (KAEzip does not maintain it).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kae_backend.h"
#include "kae_dl.h"
#include "kae_library.h"
#include "kae_errors.h"

typedef const char *(*fn_zlibVersion)(void);
typedef int (*fn_deflateInit2_)(z_streamp, int, int, int, int, int, const char *, int);
typedef int (*fn_deflate)(z_streamp, int);
typedef int (*fn_deflateReset)(z_streamp);
typedef int (*fn_deflateEnd)(z_streamp);
typedef int (*fn_inflateInit2_)(z_streamp, int, const char *, int);
typedef int (*fn_inflate)(z_streamp, int);
typedef int (*fn_inflateReset)(z_streamp);
typedef int (*fn_inflateEnd)(z_streamp);
typedef uLong (*fn_compressBound)(uLong);

typedef struct {
  kae_backend base; /* first, so a kae_backend* is a zlib_backend* */
  void *handle;     /* dlopen handle, NULL for the linked zlib */
  fn_zlibVersion zlibVersion;
  fn_deflateInit2_ deflateInit2_;
  fn_deflate deflate;
  fn_deflateReset deflateReset;
  fn_deflateEnd deflateEnd;
  fn_inflateInit2_ inflateInit2_;
  fn_inflate inflate;
  fn_inflateReset inflateReset;
  fn_inflateEnd inflateEnd;
  fn_compressBound compressBound; /* may be NULL: then zlib's own formula */
} zlib_backend;

typedef struct {
  const zlib_backend *zb;
  z_stream strm;
} zlib_ctx;

#define WINDOW_BITS 15 /* zlib format, 32 KiB window: the only format KAEzip and zlib share */
#define MEM_LEVEL 8

/* zlib 1.2.13's compressBound, used when a library does not export one and as a floor. */
static int64_t zlib_formula_bound(int64_t n) {
  return n + (n >> 12) + (n >> 14) + (n >> 25) + 13;
}

static int64_t zb_bound(const kae_backend *b, int64_t n) {
  const zlib_backend *zb = (const zlib_backend *)b;
  if (n < 0 || n > INT32_MAX) return KAE_E_ARG;
  int64_t bound = zlib_formula_bound(n);
  if (zb->compressBound != NULL) {
    int64_t lib = (int64_t)zb->compressBound((uLong)n);
    if (lib > bound) bound = lib;
  }
  return bound;
}

static void *zb_comp_new(const kae_backend *b, int level, int *err) {
  const zlib_backend *zb = (const zlib_backend *)b;
  if (level < 1 || level > 9) { *err = KAE_E_ARG; return NULL; }
  zlib_ctx *c = calloc(1, sizeof(zlib_ctx));
  if (c == NULL) { *err = KAE_E_NOMEM; return NULL; }
  c->zb = zb;
  int rc = zb->deflateInit2_(&c->strm, level, Z_DEFLATED, WINDOW_BITS, MEM_LEVEL,
                             Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream));
  if (rc != Z_OK) {
    free(c);
    kae_set_last_error("deflateInit2_ returned %d", rc);
    *err = rc == Z_MEM_ERROR ? KAE_E_NOMEM : KAE_E_LIB_INIT;
    return NULL;
  }
  return c;
}

static int64_t zb_compress(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t cap) {
  zlib_ctx *c = ctx;
  if (n < 0 || cap < 0 || n > UINT_MAX || cap > UINT_MAX) return KAE_E_ARG;
  /* Reset, not init, per block: the stream's memory is allocated once per context. */
  if (c->zb->deflateReset(&c->strm) != Z_OK) return KAE_E_INTERNAL;
  c->strm.next_in = (Bytef *)src;
  c->strm.avail_in = (uInt)n;
  c->strm.next_out = dst;
  c->strm.avail_out = (uInt)cap;
  int rc;
  do {
    rc = c->zb->deflate(&c->strm, Z_FINISH);
  } while (rc == Z_OK && c->strm.avail_out > 0);
  if (rc == Z_STREAM_END) return (int64_t)(cap - c->strm.avail_out);
  if (rc == Z_OK || rc == Z_BUF_ERROR) return KAE_E_DST_TOO_SMALL;
  return KAE_E_INTERNAL;
}

static void zb_comp_free(void *ctx) {
  zlib_ctx *c = ctx;
  c->zb->deflateEnd(&c->strm);
  free(c);
}

static void *zb_decomp_new(const kae_backend *b, int *err) {
  const zlib_backend *zb = (const zlib_backend *)b;
  zlib_ctx *c = calloc(1, sizeof(zlib_ctx));
  if (c == NULL) { *err = KAE_E_NOMEM; return NULL; }
  c->zb = zb;
  int rc = zb->inflateInit2_(&c->strm, WINDOW_BITS, ZLIB_VERSION, (int)sizeof(z_stream));
  if (rc != Z_OK) {
    free(c);
    kae_set_last_error("inflateInit2_ returned %d", rc);
    *err = rc == Z_MEM_ERROR ? KAE_E_NOMEM : KAE_E_LIB_INIT;
    return NULL;
  }
  return c;
}

static int64_t zb_decompress(void *ctx, const uint8_t *src, int64_t n, uint8_t *dst, int64_t raw) {
  zlib_ctx *c = ctx;
  if (n < 0 || raw < 0 || n > UINT_MAX || raw > UINT_MAX) return KAE_E_ARG;
  if (n == 0) return KAE_E_CORRUPT;
  if (c->zb->inflateReset(&c->strm) != Z_OK) return KAE_E_INTERNAL;
  /* A one-byte scratch target keeps next_out valid when raw is 0; avail_out stays exact. */
  uint8_t scratch;
  c->strm.next_in = (Bytef *)src;
  c->strm.avail_in = (uInt)n;
  c->strm.next_out = raw > 0 ? dst : &scratch;
  c->strm.avail_out = (uInt)raw;
  /* The output room is exactly the expected raw length, so a hostile stream cannot write past
   * it: it stops with Z_BUF_ERROR / Z_OK instead, which is reported as a length error. */
  int rc;
  do {
    rc = c->zb->inflate(&c->strm, Z_FINISH);
  } while (rc == Z_OK && c->strm.avail_out > 0 && c->strm.avail_in > 0);
  int64_t produced = raw - (int64_t)c->strm.avail_out;
  switch (rc) {
    case Z_STREAM_END:
      if (produced != raw) return KAE_E_LENGTH;
      if (c->strm.avail_in != 0) return KAE_E_TRAILING;
      return produced;
    case Z_OK:
    case Z_BUF_ERROR:
      /* Out of room with input left means the block is longer than declared; out of input means
       * it was truncated. */
      return c->strm.avail_out == 0 ? KAE_E_LENGTH : KAE_E_CORRUPT;
    case Z_DATA_ERROR:
    case Z_NEED_DICT:
      return KAE_E_CORRUPT;
    case Z_MEM_ERROR:
      return KAE_E_NOMEM;
    default:
      return KAE_E_INTERNAL;
  }
}

static void zb_decomp_free(void *ctx) {
  zlib_ctx *c = ctx;
  c->zb->inflateEnd(&c->strm);
  free(c);
}

/* The zlib this library was linked with: no handle, the symbols are the linker's. */
static void zb_bind_linked(zlib_backend *zb) {
  zb->zlibVersion = zlibVersion;
  zb->deflateInit2_ = deflateInit2_;
  zb->deflate = deflate;
  zb->deflateReset = deflateReset;
  zb->deflateEnd = deflateEnd;
  zb->inflateInit2_ = inflateInit2_;
  zb->inflate = inflate;
  zb->inflateReset = inflateReset;
  zb->inflateEnd = inflateEnd;
  zb->compressBound = compressBound;
}

/* A zlib-compatible library at `path` (KAEzip's, or another build): every stream call must
 * resolve; compressBound is optional (zb_bound falls back to zlib's formula). */
static int zb_bind_library(zlib_backend *zb, const char *path) {
  int err = KAE_OK;
  zb->handle = kae_library_open(path, &err);
  if (zb->handle == NULL) return err;
  const kae_symbol required[] = {
      {"zlibVersion", (void **)&zb->zlibVersion},
      {"deflateInit2_", (void **)&zb->deflateInit2_},
      {"deflate", (void **)&zb->deflate},
      {"deflateReset", (void **)&zb->deflateReset},
      {"deflateEnd", (void **)&zb->deflateEnd},
      {"inflateInit2_", (void **)&zb->inflateInit2_},
      {"inflate", (void **)&zb->inflate},
      {"inflateReset", (void **)&zb->inflateReset},
      {"inflateEnd", (void **)&zb->inflateEnd},
  };
  int bound = kae_library_bind(zb->handle, path, required, sizeof(required) / sizeof(*required));
  if (bound != KAE_OK) return bound;
  *(void **)(&zb->compressBound) = dlsym(zb->handle, "compressBound");
  return KAE_OK;
}

/* Rejects a library of another zlib major version: its z_stream layout may differ. */
static int zb_check_version(zlib_backend *zb, const char *name, const char **version) {
  *version = zb->zlibVersion();
  if (*version != NULL && (*version)[0] == ZLIB_VERSION[0]) return KAE_OK;
  kae_set_last_error("%s reports zlib version %s, expected %c.x", name,
                     *version != NULL ? *version : "(null)", ZLIB_VERSION[0]);
  return KAE_E_LIB_INIT;
}

/* One trial init: a library that cannot set up a stream is rejected here, at open time,
 * so the caller falls back at once instead of failing in the middle of a task. */
static int zb_trial_stream(zlib_backend *zb, const char *name) {
  int trial_err = KAE_OK; /* the detail text says why; the code is always LIB_INIT here */
  void *trial = zb_comp_new(&zb->base, 1, &trial_err);
  if (trial != NULL) {
    zb_comp_free(trial);
    return KAE_OK;
  }
  char detail[256];
  snprintf(detail, sizeof(detail), "%s", kae_last_error());
  kae_set_last_error("%s: %s, the library cannot set up a stream", name, detail);
  return KAE_E_LIB_INIT;
}

kae_backend *kae_zlib_open(const char *path, int *err) {
  zlib_backend *zb = calloc(1, sizeof(zlib_backend));
  if (zb == NULL) { *err = KAE_E_NOMEM; return NULL; }
  const char *name = path != NULL ? path : "zlib";
  const char *version = NULL;
  int rc = KAE_OK;
  if (path == NULL) {
    zb_bind_linked(zb);
  } else {
    rc = zb_bind_library(zb, path);
  }
  if (rc == KAE_OK) rc = zb_check_version(zb, name, &version);
  zb->base.bound = zb_bound;
  zb->base.comp_new = zb_comp_new;
  zb->base.compress = zb_compress;
  zb->base.comp_free = zb_comp_free;
  zb->base.decomp_new = zb_decomp_new;
  zb->base.decompress = zb_decompress;
  zb->base.decomp_free = zb_decomp_free;
  if (rc == KAE_OK) rc = zb_trial_stream(zb, name);
  if (rc != KAE_OK) {
    if (zb->handle != NULL) dlclose(zb->handle);
    free(zb);
    *err = rc;
    return NULL;
  }
  snprintf(zb->base.description, sizeof(zb->base.description), "zlib %s (%s)", version,
           path != NULL ? path : "linked");
  return &zb->base;
}
