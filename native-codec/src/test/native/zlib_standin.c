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
 * A zlib-compatible stand-in for KAEzip's libz.so, used by the tests to drive the kaezip backend
 * through a real dlopen: it forwards every zlib call to the system zlib (itself dlopen'ed, local)
 * and counts the calls, which the tests read through the JNI functions at the bottom.
 *
 * Built variants (build-test-libs.sh):
 *   default          forwards and counts; compressBound is KAEzip's n + n/8 + 13
 *   -DFAIL_INIT      deflateInit2_ / inflateInit2_ fail with Z_VERSION_ERROR
 *   -DDELAY_US=n     every deflate / inflate call first sleeps n microseconds: a slow codec,
 *                    for the shuffle doctor's tests
 */
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <zlib.h>

static void delay(void) {
#ifdef DELAY_US
  struct timespec t = {DELAY_US / 1000000, (DELAY_US % 1000000) * 1000L};
  while (nanosleep(&t, &t) != 0) {
  }
#endif
}

static void *real;
static atomic_long n_deflate, n_deflate_init, n_deflate_reset, n_inflate, n_inflate_init;

static void *sym(const char *name) {
  if (real == NULL) real = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  void *p = real != NULL ? dlsym(real, name) : NULL;
  if (p == NULL) abort(); /* a broken test set-up, not a code path under test */
  return p;
}

#define FORWARD(ret, name, params, args)                     \
  ret name params {                                          \
    static ret(*fn) params;                                  \
    if (fn == NULL) *(void **)(&fn) = sym(#name);            \
    return fn args;                                          \
  }

const char *zlibVersion(void) {
  static const char *(*fn)(void);
  if (fn == NULL) *(void **)(&fn) = sym("zlibVersion");
  return fn();
}

int deflateInit2_(z_streamp s, int level, int method, int bits, int mem, int strategy,
                  const char *version, int size) {
  atomic_fetch_add(&n_deflate_init, 1);
#ifdef FAIL_INIT
  (void)s; (void)level; (void)method; (void)bits; (void)mem; (void)strategy; (void)version;
  (void)size;
  return Z_VERSION_ERROR;
#else
  static int (*fn)(z_streamp, int, int, int, int, int, const char *, int);
  if (fn == NULL) *(void **)(&fn) = sym("deflateInit2_");
  return fn(s, level, method, bits, mem, strategy, version, size);
#endif
}

int inflateInit2_(z_streamp s, int bits, const char *version, int size) {
  atomic_fetch_add(&n_inflate_init, 1);
#ifdef FAIL_INIT
  (void)s; (void)bits; (void)version; (void)size;
  return Z_VERSION_ERROR;
#else
  static int (*fn)(z_streamp, int, const char *, int);
  if (fn == NULL) *(void **)(&fn) = sym("inflateInit2_");
  return fn(s, bits, version, size);
#endif
}

int deflate(z_streamp s, int flush) {
  atomic_fetch_add(&n_deflate, 1);
  delay();
  static int (*fn)(z_streamp, int);
  if (fn == NULL) *(void **)(&fn) = sym("deflate");
  return fn(s, flush);
}

int deflateReset(z_streamp s) {
  atomic_fetch_add(&n_deflate_reset, 1);
  static int (*fn)(z_streamp);
  if (fn == NULL) *(void **)(&fn) = sym("deflateReset");
  return fn(s);
}

int inflate(z_streamp s, int flush) {
  atomic_fetch_add(&n_inflate, 1);
  delay();
  static int (*fn)(z_streamp, int);
  if (fn == NULL) *(void **)(&fn) = sym("inflate");
  return fn(s, flush);
}

FORWARD(int, deflateEnd, (z_streamp s), (s))
FORWARD(int, inflateReset, (z_streamp s), (s))
FORWARD(int, inflateEnd, (z_streamp s), (s))

/* KAEzip's bound, larger than zlib's: the backend must size outputs with this one. */
uLong compressBound(uLong n) { return n + n / 8 + 13; }

/* Counters for the tests: JNI functions of io.github.kaeshuffle.codec.StandInZlib (test class),
 * declared with plain C types so no JDK header is needed. */
typedef long long jlong_t;
jlong_t Java_io_github_kaeshuffle_codec_StandInZlib_deflateCalls(void *env, void *cls) {
  (void)env; (void)cls; return atomic_load(&n_deflate);
}
jlong_t Java_io_github_kaeshuffle_codec_StandInZlib_deflateInitCalls(void *env, void *cls) {
  (void)env; (void)cls; return atomic_load(&n_deflate_init);
}
jlong_t Java_io_github_kaeshuffle_codec_StandInZlib_deflateResetCalls(void *env, void *cls) {
  (void)env; (void)cls; return atomic_load(&n_deflate_reset);
}
jlong_t Java_io_github_kaeshuffle_codec_StandInZlib_inflateCalls(void *env, void *cls) {
  (void)env; (void)cls; return atomic_load(&n_inflate);
}
jlong_t Java_io_github_kaeshuffle_codec_StandInZlib_inflateInitCalls(void *env, void *cls) {
  (void)env; (void)cls; return atomic_load(&n_inflate_init);
}
