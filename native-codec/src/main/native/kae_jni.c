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
 * JNI entry points of libkaeshuffle: the only exported symbols. Every buffer argument is either a
 * byte[] or a direct ByteBuffer; offsets and lengths were checked in Java and are checked here
 * again against the real array length or buffer capacity, so a bad call returns KAE_E_ARG instead
 * of touching memory it does not own. Nothing here throws a Java exception.
 */
#include <jni.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "io_github_kaeshuffle_codec_NativeLib.h"
#include "kae_backend.h"
#include "kae_errors.h"

/* Bumped whenever a native signature or meaning changes; Java refuses a library that differs. */
#define KAE_ABI_VERSION 2

#define CTX_COMPRESSOR 0x4b414543u   /* "KAEC" */
#define CTX_DECOMPRESSOR 0x4b414544u /* "KAED" */

typedef struct {
  uint32_t kind;
  const kae_backend *backend;
  void *impl;
} kae_ctx;

/*
 * Live contexts. Java never holds a pointer: a handle is (generation << 32) | (slot + 1), looked
 * up here under a lock, so a stale handle (its context freed, its slot perhaps reused) or a
 * forged one is refused without reading freed memory. Java serialises a context's calls and its
 * free (AbstractBlockCompressor/Decompressor), so a context found here stays alive for the call.
 */
typedef struct {
  kae_ctx *ctx;
  uint32_t generation; /* 1 to 0x7fffffff, so handles are positive */
} ctx_slot;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static ctx_slot *slots;
static uint32_t *free_slots;
static uint32_t slot_count, slot_cap, free_count;

static int grow_slots(void) {
  uint32_t cap = slot_cap == 0 ? 64 : slot_cap * 2;
  if (cap <= slot_cap || cap > 0x7fffffffu) return KAE_E_NOMEM;
  ctx_slot *s = realloc(slots, cap * sizeof(ctx_slot));
  if (s == NULL) return KAE_E_NOMEM;
  slots = s;
  uint32_t *f = realloc(free_slots, cap * sizeof(uint32_t));
  if (f == NULL) return KAE_E_NOMEM;
  free_slots = f;
  for (uint32_t i = slot_cap; i < cap; i++) {
    slots[i].ctx = NULL;
    slots[i].generation = 0;
  }
  slot_cap = cap;
  return KAE_OK;
}

/* A handle for c, or a negative error code. */
static jlong register_ctx(kae_ctx *c) {
  pthread_mutex_lock(&slots_lock);
  uint32_t i;
  if (free_count > 0) {
    i = free_slots[--free_count];
  } else if (slot_count < slot_cap || grow_slots() == KAE_OK) {
    i = slot_count++;
  } else {
    pthread_mutex_unlock(&slots_lock);
    return KAE_E_NOMEM;
  }
  uint32_t gen = slots[i].generation >= 0x7fffffffu ? 1 : slots[i].generation + 1;
  slots[i].generation = gen;
  slots[i].ctx = c;
  pthread_mutex_unlock(&slots_lock);
  return ((jlong)gen << 32) | (jlong)(i + 1);
}

/* The live context of a handle, if it is one of this kind; with release, also unregisters it. */
static kae_ctx *lookup_ctx(jlong handle, uint32_t kind, int release) {
  if (handle <= 0) return NULL;
  uint32_t i = (uint32_t)(handle & 0xffffffff) - 1;
  uint32_t gen = (uint32_t)((uint64_t)handle >> 32);
  kae_ctx *c = NULL;
  pthread_mutex_lock(&slots_lock);
  if (i < slot_count && slots[i].generation == gen && slots[i].ctx != NULL &&
      slots[i].ctx->kind == kind) {
    c = slots[i].ctx;
    if (release) {
      slots[i].ctx = NULL;
      free_slots[free_count++] = i;
    }
  }
  pthread_mutex_unlock(&slots_lock);
  return c;
}

static jclass byte_array_class;

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  (void)reserved;
  JNIEnv *env;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) return JNI_ERR;
  jclass local = (*env)->FindClass(env, "[B");
  if (local == NULL) return JNI_ERR;
  byte_array_class = (*env)->NewGlobalRef(env, local);
  (*env)->DeleteLocalRef(env, local);
  return byte_array_class == NULL ? JNI_ERR : JNI_VERSION_1_8;
}

/* A buffer argument resolved to memory: either pinned array elements or a direct address. */
typedef struct {
  jobject obj;
  int is_array;
  uint8_t *base;
} kae_buf;

/* Checks off/len against the object's real size; for direct buffers resolves the address. */
static int buf_check(JNIEnv *env, jobject obj, jint off, jint len, kae_buf *out) {
  if (obj == NULL || off < 0 || len < 0) return KAE_E_ARG;
  out->obj = obj;
  out->base = NULL;
  int64_t size;
  if ((*env)->IsInstanceOf(env, obj, byte_array_class)) {
    out->is_array = 1;
    size = (*env)->GetArrayLength(env, (jarray)obj);
  } else {
    out->is_array = 0;
    out->base = (*env)->GetDirectBufferAddress(env, obj);
    size = (*env)->GetDirectBufferCapacity(env, obj);
    if (out->base == NULL || size < 0) return KAE_E_ARG;
  }
  if ((int64_t)off + (int64_t)len > size) return KAE_E_ARG;
  return KAE_OK;
}

/* Pins array elements. Between pin and unpin no other JNI call is made. */
static int buf_pin(JNIEnv *env, kae_buf *b) {
  if (!b->is_array) return KAE_OK;
  b->base = (*env)->GetPrimitiveArrayCritical(env, (jarray)b->obj, NULL);
  return b->base == NULL ? KAE_E_NOMEM : KAE_OK;
}

static void buf_unpin(JNIEnv *env, kae_buf *b, int written) {
  if (b->is_array && b->base != NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, (jarray)b->obj, b->base, written ? 0 : JNI_ABORT);
  }
}

static kae_ctx *ctx_of(jlong handle, uint32_t kind) { return lookup_ctx(handle, kind, 0); }

JNIEXPORT jint JNICALL Java_io_github_kaeshuffle_codec_NativeLib_abiVersion(JNIEnv *env,
                                                                           jclass cls) {
  (void)env;
  (void)cls;
  return KAE_ABI_VERSION;
}

static jlong open_backend(JNIEnv *env, jstring path, int libdeflate) {
  const char *cpath = NULL;
  if (path != NULL) {
    cpath = (*env)->GetStringUTFChars(env, path, NULL);
    if (cpath == NULL) return KAE_E_NOMEM;
  }
  int err = KAE_OK;
  kae_set_last_error("");
  kae_backend *b = libdeflate ? kae_libdeflate_open(cpath, &err) : kae_zlib_open(cpath, &err);
  if (cpath != NULL) (*env)->ReleaseStringUTFChars(env, path, cpath);
  return b != NULL ? (jlong)(intptr_t)b : (jlong)(err < 0 ? err : KAE_E_INTERNAL);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_openZlib(JNIEnv *env,
                                                                          jclass cls,
                                                                          jstring path) {
  (void)cls;
  return open_backend(env, path, 0);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_openLibdeflate(JNIEnv *env,
                                                                                jclass cls,
                                                                                jstring path) {
  (void)cls;
  if (path == NULL) return KAE_E_ARG;
  return open_backend(env, path, 1);
}

JNIEXPORT jstring JNICALL Java_io_github_kaeshuffle_codec_NativeLib_lastOpenError(JNIEnv *env,
                                                                                 jclass cls) {
  (void)cls;
  return (*env)->NewStringUTF(env, kae_last_error());
}

JNIEXPORT jstring JNICALL Java_io_github_kaeshuffle_codec_NativeLib_describe(JNIEnv *env,
                                                                            jclass cls,
                                                                            jlong backend) {
  (void)cls;
  const kae_backend *b = (const kae_backend *)(intptr_t)backend;
  if (b == NULL) return NULL;
  return (*env)->NewStringUTF(env, b->description);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_maxCompressedLength(
    JNIEnv *env, jclass cls, jlong backend, jint raw_length) {
  (void)env;
  (void)cls;
  const kae_backend *b = (const kae_backend *)(intptr_t)backend;
  if (b == NULL) return KAE_E_STATE;
  if (raw_length < 0) return KAE_E_ARG;
  return b->bound(b, raw_length);
}

static jlong new_ctx(jlong backend, uint32_t kind, jint level) {
  const kae_backend *b = (const kae_backend *)(intptr_t)backend;
  if (b == NULL) return KAE_E_STATE;
  kae_ctx *c = calloc(1, sizeof(kae_ctx));
  if (c == NULL) return KAE_E_NOMEM;
  int err = KAE_OK;
  c->impl = kind == CTX_COMPRESSOR ? b->comp_new(b, level, &err) : b->decomp_new(b, &err);
  if (c->impl == NULL) {
    free(c);
    return err < 0 ? err : KAE_E_INTERNAL;
  }
  c->kind = kind;
  c->backend = b;
  jlong handle = register_ctx(c);
  if (handle < 0) {
    if (kind == CTX_COMPRESSOR) {
      b->comp_free(c->impl);
    } else {
      b->decomp_free(c->impl);
    }
    free(c);
  }
  return handle;
}

static void free_ctx(jlong handle, uint32_t kind) {
  kae_ctx *c = lookup_ctx(handle, kind, 1);
  if (c == NULL) return;
  if (kind == CTX_COMPRESSOR) {
    c->backend->comp_free(c->impl);
  } else {
    c->backend->decomp_free(c->impl);
  }
  free(c);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_newCompressor(JNIEnv *env,
                                                                               jclass cls,
                                                                               jlong backend,
                                                                               jint level) {
  (void)env;
  (void)cls;
  return new_ctx(backend, CTX_COMPRESSOR, level);
}

JNIEXPORT void JNICALL Java_io_github_kaeshuffle_codec_NativeLib_freeCompressor(JNIEnv *env,
                                                                               jclass cls,
                                                                               jlong ctx) {
  (void)env;
  (void)cls;
  free_ctx(ctx, CTX_COMPRESSOR);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_newDecompressor(JNIEnv *env,
                                                                                 jclass cls,
                                                                                 jlong backend) {
  (void)env;
  (void)cls;
  return new_ctx(backend, CTX_DECOMPRESSOR, 0);
}

JNIEXPORT void JNICALL Java_io_github_kaeshuffle_codec_NativeLib_freeDecompressor(JNIEnv *env,
                                                                                 jclass cls,
                                                                                 jlong ctx) {
  (void)env;
  (void)cls;
  free_ctx(ctx, CTX_DECOMPRESSOR);
}

/* One block through the context: compress (dst_len = room) or decompress (dst_len = raw length). */
static jint run_block(JNIEnv *env, jlong handle, uint32_t kind, jobject src, jint src_off,
                      jint src_len, jobject dst, jint dst_off, jint dst_len) {
  kae_ctx *c = ctx_of(handle, kind);
  if (c == NULL) return KAE_E_STATE;
  kae_buf in, out;
  int rc = buf_check(env, src, src_off, src_len, &in);
  if (rc == KAE_OK) rc = buf_check(env, dst, dst_off, dst_len, &out);
  if (rc != KAE_OK) return rc;
  rc = buf_pin(env, &in);
  if (rc != KAE_OK) return rc;
  rc = buf_pin(env, &out);
  if (rc != KAE_OK) {
    buf_unpin(env, &in, 0);
    return rc;
  }
  int64_t result =
      kind == CTX_COMPRESSOR
          ? c->backend->compress(c->impl, in.base + src_off, src_len, out.base + dst_off, dst_len)
          : c->backend->decompress(c->impl, in.base + src_off, src_len, out.base + dst_off,
                                   dst_len);
  buf_unpin(env, &out, result >= 0);
  buf_unpin(env, &in, 0);
  if (result > INT32_MAX) return KAE_E_INTERNAL;
  return (jint)result;
}

JNIEXPORT jint JNICALL Java_io_github_kaeshuffle_codec_NativeLib_compress(
    JNIEnv *env, jclass cls, jlong ctx, jobject src, jint src_off, jint src_len, jobject dst,
    jint dst_off, jint dst_cap) {
  (void)cls;
  return run_block(env, ctx, CTX_COMPRESSOR, src, src_off, src_len, dst, dst_off, dst_cap);
}

JNIEXPORT jint JNICALL Java_io_github_kaeshuffle_codec_NativeLib_decompress(
    JNIEnv *env, jclass cls, jlong ctx, jobject src, jint src_off, jint src_len, jobject dst,
    jint dst_off, jint raw_len) {
  (void)cls;
  return run_block(env, ctx, CTX_DECOMPRESSOR, src, src_off, src_len, dst, dst_off, raw_len);
}
