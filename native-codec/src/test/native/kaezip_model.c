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
 * A zlib-compatible stand-in with KAEzip's cost shape, for tests and benchmarks only (never
 * shipped). It makes real, correct zlib bytes with the system zlib (dlopen'ed, local) and charges
 * what KAEzip's v2 (UADK) path charges, as the public sources describe it (docs/native-codec.md):
 *  - every deflateInit/inflateInit is a hardware session: set up under one process-wide mutex
 *    (a modelled latency) with a real 8 MiB staging buffer, freed by deflateEnd/inflateEnd;
 *  - every deflate/inflate call with input submits requests of at most 1 MiB; each waits for one
 *    of a bounded number of hardware contexts per direction, pays a per-request latency, and
 *    moves its bytes through one device whose throughput the whole process shares;
 *  - the bytes of each compress request are the hardware's: the request is compressed on its own
 *    (no history from the stream's earlier requests) and ends its own block on a byte boundary,
 *    written to the session's staging buffer and copied out from there (KAEzip's v2 path submits
 *    each deflate call's input at once and copies each request's output out before the next;
 *    zlib instead buffers small inputs into one block). Modelled as zlib's Z_FULL_FLUSH after
 *    each request: tiny writes inflate, as the published study measured;
 *  - levels 1-2 use a 4 KB window (3-4: 8 KB, 5-6: 16 KB, 7-9: 32 KB), so the ratio is below zlib
 *    level 1; the bound is n + n/8 + 13; raw deflate and flush modes other than Z_NO_FLUSH,
 *    Z_SYNC_FLUSH and Z_FINISH are rejected with Z_STREAM_ERROR.
 * Costs are sleeps (wall time, no CPU); the real zlib work is this model's artifact: its CPU time
 * is counted apart so results can show it and a projection without it.
 *
 * Settings, from the environment when first used, or from KaeZipModel.configure (tests):
 *   KAEZIP_MODEL_REQUEST_US      per-request latency, microseconds (50)
 *   KAEZIP_MODEL_SETUP_US        session set-up latency under the init mutex, microseconds (100)
 *   KAEZIP_MODEL_CONTEXTS        hardware contexts per direction per process (2)
 *   KAEZIP_MODEL_COMPRESS_MBPS   device compress throughput, MB/s (7000)
 *   KAEZIP_MODEL_DECOMPRESS_MBPS device decompress throughput, MB/s (8000)
 *   KAEZIP_MODEL_MAX_REQUEST     largest request, bytes (1048576)
 *   KAEZIP_MODEL_ZLIB_BYTES      1: compress with zlib's own bytes (its buffering, history across
 *                                calls) instead of the hardware's per-request blocks (0)
 *   KAEZIP_MODEL_STATS_DIR       where each process writes kaezip-model-<pid>.txt (counters)
 *   KAEZIP_MODEL_FAIL_EVERY      a hardware fault: every n-th deflate/inflate call with input
 *                                returns Z_STREAM_ERROR without touching the stream (0: never)
 * No public figure exists for the latencies: they are to be swept, not trusted.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define STAGING_BYTES (8u << 20)
#define DIR_COMP 0
#define DIR_DECOMP 1

typedef struct {
  long request_us, setup_us, contexts, mbps[2], max_request, fail_every, zlib_bytes;
  char stats_dir[512];
} settings;

/*
 * A hardware session: KAEzip's staging buffer, where the engine writes a request's output before
 * it is copied to the caller (`at` of `len` bytes copied so far), and whether the stream ended.
 */
typedef struct {
  uint8_t *staging;
  size_t at, len;
  int ended;
} session;

static settings cfg;
static pthread_once_t cfg_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;   /* KAEzip's global init mutex */
static pthread_mutex_t device_lock = PTHREAD_MUTEX_INITIALIZER; /* the shared device's queue */
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ctx_free = PTHREAD_COND_INITIALIZER;
static long ctx_busy[2];
static int64_t device_free_at_ns;

/* Counters, per direction where it matters. */
static atomic_long n_sessions[2], n_requests[2], n_calls[2], n_waits[2];
static atomic_long bytes_in[2], bytes_out[2], wait_ns[2], device_ns[2], software_cpu_ns[2];
static atomic_long software_wall_ns[2]; /* wall time of that work: more when descheduled */
static atomic_long overshoot_ns[2]; /* how much later than charged the sleeps woke: an artifact */
static atomic_long call_wall_ns[2]; /* entry to exit of every deflate/inflate call */
static atomic_long live_sessions, n_calls_all, n_faults;

static const settings *conf(void);

/* Whether this call is one the model fails (KAEZIP_MODEL_FAIL_EVERY). */
static int fault_now(z_streamp s) {
  long every = conf()->fail_every;
  if (every <= 0 || s->avail_in == 0) return 0;
  if (atomic_fetch_add(&n_calls_all, 1) % every != every - 1) return 0;
  atomic_fetch_add(&n_faults, 1);
  return 1;
}

static long env_long(const char *name, long dflt) {
  const char *v = getenv(name);
  if (v == NULL || *v == '\0') return dflt;
  char *end;
  long x = strtol(v, &end, 10);
  return (*end == '\0' && x >= 0) ? x : dflt;
}

static void read_settings(void) {
  cfg.request_us = env_long("KAEZIP_MODEL_REQUEST_US", 50);
  cfg.setup_us = env_long("KAEZIP_MODEL_SETUP_US", 100);
  cfg.contexts = env_long("KAEZIP_MODEL_CONTEXTS", 2);
  cfg.mbps[DIR_COMP] = env_long("KAEZIP_MODEL_COMPRESS_MBPS", 7000);
  cfg.mbps[DIR_DECOMP] = env_long("KAEZIP_MODEL_DECOMPRESS_MBPS", 8000);
  cfg.max_request = env_long("KAEZIP_MODEL_MAX_REQUEST", 1 << 20);
  cfg.fail_every = env_long("KAEZIP_MODEL_FAIL_EVERY", 0);
  cfg.zlib_bytes = env_long("KAEZIP_MODEL_ZLIB_BYTES", 0);
  if (cfg.contexts < 1) cfg.contexts = 1;
  if (cfg.max_request < 1) cfg.max_request = 1 << 20;
  const char *dir = getenv("KAEZIP_MODEL_STATS_DIR");
  snprintf(cfg.stats_dir, sizeof(cfg.stats_dir), "%s", dir != NULL ? dir : "");
}

static const settings *conf(void) {
  pthread_once(&cfg_once, read_settings);
  return &cfg;
}

static int64_t now_ns(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

/*
 * Sleeps until the deadline. Linux lets a normal thread's timers fire up to 50 us late (timer
 * slack), as much as the modelled latency itself: each thread that sleeps here asks for 1 ns once.
 */
static void sleep_until(int64_t deadline_ns) {
  static _Thread_local int slack_set;
  if (!slack_set) {
    prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    slack_set = 1;
  }
  struct timespec t = {deadline_ns / 1000000000LL, deadline_ns % 1000000000LL};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL) == EINTR) {
  }
}

static void *real_zlib;

static void *sym(const char *name) {
  if (real_zlib == NULL) real_zlib = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
  void *p = real_zlib != NULL ? dlsym(real_zlib, name) : NULL;
  if (p == NULL) abort(); /* a broken test set-up, not a code path under test */
  return p;
}

#define REAL(ret, name, params) \
  static ret(*real_##name) params; \
  if (real_##name == NULL) *(void **)(&real_##name) = sym(#name)

/* ---- the costs ---------------------------------------------------------------------------- */

static void take_context(int dir) {
  pthread_mutex_lock(&ctx_lock);
  if (ctx_busy[dir] >= conf()->contexts) {
    int64_t t0 = now_ns(CLOCK_MONOTONIC);
    atomic_fetch_add(&n_waits[dir], 1);
    while (ctx_busy[dir] >= conf()->contexts) pthread_cond_wait(&ctx_free, &ctx_lock);
    atomic_fetch_add(&wait_ns[dir], now_ns(CLOCK_MONOTONIC) - t0);
  }
  ctx_busy[dir]++;
  pthread_mutex_unlock(&ctx_lock);
}

static void give_context(int dir) {
  pthread_mutex_lock(&ctx_lock);
  ctx_busy[dir]--;
  pthread_cond_broadcast(&ctx_free);
  pthread_mutex_unlock(&ctx_lock);
}

/* One request of `bytes`: a context, the device's time for the bytes, the request's latency. */
static void charge_request(int dir, long bytes) {
  take_context(dir);
  int64_t service = conf()->mbps[dir] > 0 ? (int64_t)bytes * 1000 / conf()->mbps[dir] : 0;
  pthread_mutex_lock(&device_lock);
  int64_t start = now_ns(CLOCK_MONOTONIC);
  if (device_free_at_ns > start) start = device_free_at_ns;
  device_free_at_ns = start + service;
  pthread_mutex_unlock(&device_lock);
  int64_t done = start + service + conf()->request_us * 1000;
  sleep_until(done);
  int64_t late = now_ns(CLOCK_MONOTONIC) - done;
  if (late > 0) atomic_fetch_add(&overshoot_ns[dir], late);
  atomic_fetch_add(&n_requests[dir], 1);
  atomic_fetch_add(&device_ns[dir], service + conf()->request_us * 1000);
  give_context(dir);
}

/*
 * The requests of one call that consumed `in` bytes and produced `out`: one per started
 * max_request of input, or one when it only drained output (a flush). `raw_bytes` are the
 * uncompressed bytes the device moves, shared evenly among the requests.
 */
static void charge_call(int dir, long in, long out, long raw_bytes) {
  long max = conf()->max_request;
  long requests = (in + max - 1) / max;
  if (requests == 0 && out > 0) requests = 1;
  for (long r = 0; r < requests; r++) charge_request(dir, raw_bytes / requests);
}

/* A session for an initialised stream; 0, or Z_MEM_ERROR when its staging buffer is refused. */
static int open_session(int dir, z_streamp s) {
  pthread_mutex_lock(&init_lock);
  session *ss = calloc(1, sizeof(session));
  uint8_t *staging = ss != NULL ? malloc(STAGING_BYTES) : NULL;
  if (staging != NULL) memset(staging, 0, STAGING_BYTES); /* real pages, as KAEzip's malloc */
  sleep_until(now_ns(CLOCK_MONOTONIC) + conf()->setup_us * 1000);
  pthread_mutex_unlock(&init_lock);
  if (staging == NULL) {
    free(ss);
    return Z_MEM_ERROR;
  }
  ss->staging = staging;
  s->reserved = (uLong)(uintptr_t)ss; /* KAEzip keeps its session there too */
  atomic_fetch_add(&n_sessions[dir], 1);
  atomic_fetch_add(&live_sessions, 1);
  return Z_OK;
}

static session *session_of(z_streamp s) { return (session *)(uintptr_t)s->reserved; }

static void write_stats_now(int force);

static void close_session(z_streamp s) {
  session *ss = session_of(s);
  if (ss == NULL) return;
  free(ss->staging);
  free(ss);
  s->reserved = 0;
  atomic_fetch_sub(&live_sessions, 1);
  write_stats_now(0);
}

static void clear_session(z_streamp s) {
  session *ss = session_of(s);
  if (ss != NULL) ss->at = ss->len = 0, ss->ended = 0;
}

static int window_bits_for(int level) {
  if (level == Z_DEFAULT_COMPRESSION) level = 6;
  if (level <= 2) return 12; /* 4 KB */
  if (level <= 4) return 13; /* 8 KB */
  if (level <= 6) return 14; /* 16 KB */
  return 15;                 /* 24 KB and 32 KB: zlib has 32 KB at most */
}

/* ---- the zlib API ------------------------------------------------------------------------- */

const char *zlibVersion(void) {
  REAL(const char *, zlibVersion, (void));
  return real_zlibVersion();
}

/* Static, so the test helper below reaches this one, not a zlib loaded earlier in the process. */
static int model_deflate_init(z_streamp s, int level, int method, int bits, int mem, int strategy,
                              const char *version, int size) {
  REAL(int, deflateInit2_, (z_streamp, int, int, int, int, int, const char *, int));
  if (bits < 8 || (bits > 15 && bits < 24) || bits > 31) return Z_STREAM_ERROR; /* no raw */
  int window = window_bits_for(level < 1 ? (level == Z_DEFAULT_COMPRESSION ? 6 : 1) : level);
  int rc = real_deflateInit2_(s, level, method, bits > 15 ? window + 16 : window, mem, strategy,
                              version, size);
  if (rc == Z_OK && (rc = open_session(DIR_COMP, s)) != Z_OK) {
    REAL(int, deflateEnd, (z_streamp));
    real_deflateEnd(s);
  }
  return rc;
}

int deflateInit2_(z_streamp s, int level, int method, int bits, int mem, int strategy,
                  const char *version, int size) {
  return model_deflate_init(s, level, method, bits, mem, strategy, version, size);
}

int inflateInit2_(z_streamp s, int bits, const char *version, int size) {
  REAL(int, inflateInit2_, (z_streamp, int, const char *, int));
  if (bits < 8 || (bits > 15 && bits < 24) || bits > 31) return Z_STREAM_ERROR; /* no raw */
  int rc = real_inflateInit2_(s, bits, version, size);
  if (rc == Z_OK && (rc = open_session(DIR_DECOMP, s)) != Z_OK) {
    REAL(int, inflateEnd, (z_streamp));
    real_inflateEnd(s);
  }
  return rc;
}

static int flush_supported(int flush) {
  return flush == Z_NO_FLUSH || flush == Z_SYNC_FLUSH || flush == Z_FINISH;
}

/*
 * One call into the real zlib: the model's own work, an artifact real hardware would not spend
 * on the CPU, so its CPU and wall time are counted apart.
 */
static int software(int dir, int (*real)(z_streamp, int), z_streamp s, int flush) {
  int64_t cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID), wall0 = now_ns(CLOCK_MONOTONIC);
  int rc = real(s, flush);
  atomic_fetch_add(&software_cpu_ns[dir], now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0);
  atomic_fetch_add(&software_wall_ns[dir], now_ns(CLOCK_MONOTONIC) - wall0);
  return rc;
}

/* Copies what the staging buffer still holds to the caller's output, as far as it fits. */
static long drain(z_streamp s, session *ss) {
  size_t n = ss->len - ss->at;
  if (n > s->avail_out) n = s->avail_out;
  memcpy(s->next_out, ss->staging + ss->at, n);
  ss->at += n;
  s->next_out += n;
  s->avail_out -= (uInt)n;
  s->total_out += n;
  return (long)n;
}

/*
 * One hardware request: `chunk` bytes of the caller's input compressed on their own into the
 * staging buffer, ending with the stream's end (`last`) or a full flush (a block of their own, no
 * history for the next request). The caller's output pointers are kept; total_out counts only
 * what drain copies.
 */
static int compress_request(z_streamp s, session *ss, uInt chunk, int last,
                            int (*real)(z_streamp, int)) {
  Bytef *next_out = s->next_out;
  uInt avail_out = s->avail_out, rest = s->avail_in - chunk;
  uLong total_out = s->total_out;
  s->avail_in = chunk;
  s->next_out = ss->staging;
  s->avail_out = STAGING_BYTES;
  int rc = software(DIR_COMP, real, s, last ? Z_FINISH : Z_FULL_FLUSH);
  ss->at = 0;
  ss->len = STAGING_BYTES - s->avail_out;
  s->avail_in += rest;
  s->next_out = next_out;
  s->avail_out = avail_out;
  s->total_out = total_out;
  if (rc == Z_STREAM_END) ss->ended = 1;
  charge_request(DIR_COMP, (long)chunk);
  return rc == Z_STREAM_END ? Z_OK : rc;
}

/* deflate as the hardware does it: requests of the call's input, each its own block. */
static int hardware_deflate(z_streamp s, int flush, int (*real)(z_streamp, int)) {
  session *ss = session_of(s);
  uInt in0 = s->avail_in;
  long out = drain(s, ss);
  while (ss->at == ss->len && s->avail_in > 0 && !ss->ended) {
    uInt chunk = s->avail_in < (uInt)conf()->max_request ? s->avail_in : (uInt)conf()->max_request;
    int rc = compress_request(s, ss, chunk, flush == Z_FINISH && chunk == s->avail_in, real);
    if (rc != Z_OK) return rc;
    out += drain(s, ss);
  }
  if (flush == Z_FINISH && s->avail_in == 0 && !ss->ended && ss->at == ss->len) {
    int rc = compress_request(s, ss, 0, 1, real); /* the stream's end alone: one request */
    if (rc != Z_OK) return rc;
    out += drain(s, ss);
  }
  atomic_fetch_add(&bytes_in[DIR_COMP], (long)(in0 - s->avail_in));
  atomic_fetch_add(&bytes_out[DIR_COMP], out);
  if (ss->ended && ss->at == ss->len) return Z_STREAM_END;
  return (out > 0 || in0 > s->avail_in) ? Z_OK : Z_BUF_ERROR;
}

/* deflate with zlib's own bytes (KAEZIP_MODEL_ZLIB_BYTES=1): charged per call's requests. */
static int zlib_deflate(z_streamp s, int flush, int (*real)(z_streamp, int)) {
  uInt in0 = s->avail_in, out0 = s->avail_out;
  int rc = software(DIR_COMP, real, s, flush);
  long in = (long)(in0 - s->avail_in), out = (long)(out0 - s->avail_out);
  atomic_fetch_add(&bytes_in[DIR_COMP], in);
  atomic_fetch_add(&bytes_out[DIR_COMP], out);
  charge_call(DIR_COMP, in, out, in);
  return rc;
}

int deflate(z_streamp s, int flush) {
  REAL(int, deflate, (z_streamp, int));
  if (!flush_supported(flush) || fault_now(s)) return Z_STREAM_ERROR;
  int64_t wall0 = now_ns(CLOCK_MONOTONIC);
  atomic_fetch_add(&n_calls[DIR_COMP], 1);
  int rc = conf()->zlib_bytes ? zlib_deflate(s, flush, real_deflate)
                              : hardware_deflate(s, flush, real_deflate);
  atomic_fetch_add(&call_wall_ns[DIR_COMP], now_ns(CLOCK_MONOTONIC) - wall0);
  return rc;
}

int inflate(z_streamp s, int flush) {
  REAL(int, inflate, (z_streamp, int));
  if (!flush_supported(flush) || fault_now(s)) return Z_STREAM_ERROR;
  uInt in0 = s->avail_in, out0 = s->avail_out;
  int64_t wall0 = now_ns(CLOCK_MONOTONIC);
  int rc = software(DIR_DECOMP, real_inflate, s, flush);
  long in = (long)(in0 - s->avail_in), out = (long)(out0 - s->avail_out);
  atomic_fetch_add(&n_calls[DIR_DECOMP], 1);
  atomic_fetch_add(&bytes_in[DIR_DECOMP], in);
  atomic_fetch_add(&bytes_out[DIR_DECOMP], out);
  charge_call(DIR_DECOMP, in, out, out);
  atomic_fetch_add(&call_wall_ns[DIR_DECOMP], now_ns(CLOCK_MONOTONIC) - wall0);
  return rc;
}

int deflateReset(z_streamp s) {
  REAL(int, deflateReset, (z_streamp));
  uLong keep = s->reserved;
  int rc = real_deflateReset(s);
  s->reserved = keep;
  clear_session(s);
  return rc;
}

int inflateReset(z_streamp s) {
  REAL(int, inflateReset, (z_streamp));
  uLong keep = s->reserved;
  int rc = real_inflateReset(s);
  s->reserved = keep;
  clear_session(s);
  return rc;
}

int deflateEnd(z_streamp s) {
  REAL(int, deflateEnd, (z_streamp));
  close_session(s);
  return real_deflateEnd(s);
}

int inflateEnd(z_streamp s) {
  REAL(int, inflateEnd, (z_streamp));
  close_session(s);
  return real_inflateEnd(s);
}

uLong compressBound(uLong n) { return n + n / 8 + 13; }

uLong deflateBound(z_streamp s, uLong n) {
  (void)s;
  return n + n / 8 + 13;
}

/* ---- counters ----------------------------------------------------------------------------- */

static const char *const NAMES[] = {"sessions",    "requests",         "calls",
                                    "waits",       "bytesIn",          "bytesOut",
                                    "waitNanos",   "deviceNanos",      "softwareCpuNanos",
                                    "overshootNanos", "softwareWallNanos", "callWallNanos"};
#define N_COUNTERS 12

static long counter(int which, int dir) {
  atomic_long *all[N_COUNTERS] = {n_sessions, n_requests, n_calls,         n_waits,
                                  bytes_in,   bytes_out,  wait_ns,         device_ns,
                                  software_cpu_ns, overshoot_ns, software_wall_ns, call_wall_ns};
  return (which >= 0 && which < N_COUNTERS && (dir == 0 || dir == 1)) ? atomic_load(&all[which][dir])
                                                                       : -1;
}

/*
 * Writes this process's counters as "direction.name value" lines (a tmp file, then rename), at
 * most every 100 ms unless forced: at each session's end and when the process exits.
 */
static atomic_long last_write_ns;

static void write_stats_now(int force) {
  const char *dir = conf()->stats_dir;
  if (dir[0] == '\0') return;
  int64_t now = now_ns(CLOCK_MONOTONIC);
  if (!force && now - atomic_load(&last_write_ns) < 100000000LL) return;
  atomic_store(&last_write_ns, now);
  char path[600], tmp[620];
  snprintf(path, sizeof(path), "%s/kaezip-model-%d.txt", dir, (int)getpid());
  snprintf(tmp, sizeof(tmp), "%s.%lu.tmp", path, (unsigned long)pthread_self());
  FILE *f = fopen(tmp, "w");
  if (f == NULL) return;
  fprintf(f, "requestUs %ld\nsetupUs %ld\ncontexts %ld\n", conf()->request_us, conf()->setup_us,
          conf()->contexts);
  for (int d = 0; d < 2; d++) {
    for (int i = 0; i < N_COUNTERS; i++) {
      fprintf(f, "%s.%s %ld\n", d == DIR_COMP ? "compress" : "decompress", NAMES[i], counter(i, d));
    }
  }
  fclose(f);
  rename(tmp, path);
}

__attribute__((destructor)) static void at_unload(void) { write_stats_now(1); }

/* JNI functions of the test class io.github.kaeshuffle.codec.KaeZipModel, with plain C types. */
typedef long long jlong_t;
typedef int jint_t;

jlong_t Java_io_github_kaeshuffle_codec_KaeZipModel_counter(void *env, void *cls, jint_t which,
                                                            jint_t dir) {
  (void)env;
  (void)cls;
  return counter(which, dir);
}

jlong_t Java_io_github_kaeshuffle_codec_KaeZipModel_faults(void *env, void *cls) {
  (void)env;
  (void)cls;
  return atomic_load(&n_faults);
}

jlong_t Java_io_github_kaeshuffle_codec_KaeZipModel_liveSessions(void *env, void *cls) {
  (void)env;
  (void)cls;
  return atomic_load(&live_sessions);
}

/*
 * Replaces the settings (tests): latency and set-up in microseconds, contexts per direction, and
 * a fault every n-th call with input (0: none).
 */
void Java_io_github_kaeshuffle_codec_KaeZipModel_configure(void *env, void *cls,
                                                           jlong_t request_us, jlong_t setup_us,
                                                           jlong_t contexts, jlong_t fail_every) {
  (void)env;
  (void)cls;
  conf();
  cfg.request_us = (long)request_us;
  cfg.setup_us = (long)setup_us;
  cfg.contexts = contexts < 1 ? 1 : (long)contexts;
  cfg.fail_every = fail_every < 0 ? 0 : (long)fail_every;
}

/* Which bytes compress calls make (tests, benchmarks): zlib's own (1) or the hardware's (0). */
void Java_io_github_kaeshuffle_codec_KaeZipModel_zlibBytes0(void *env, void *cls, jint_t on) {
  (void)env;
  (void)cls;
  conf();
  cfg.zlib_bytes = on != 0;
}

/* deflateInit2_ with raw deflate: KAEzip refuses it (tests). */
jint_t Java_io_github_kaeshuffle_codec_KaeZipModel_rawDeflateInit(void *env, void *cls) {
  (void)env;
  (void)cls;
  z_stream s;
  memset(&s, 0, sizeof(s));
  int rc = model_deflate_init(&s, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                              (int)sizeof(z_stream));
  if (rc == Z_OK) { /* not expected: end the real stream */
    REAL(int, deflateEnd, (z_streamp));
    real_deflateEnd(&s);
  }
  return rc;
}
