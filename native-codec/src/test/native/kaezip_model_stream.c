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
 * Stream use of the KAEzip cost model, for the benchmark's study baseline only: Spark's own shuffle
 * with a CompressionCodec that sends every write of the serializer to "KAEzip" as one deflate call
 * on a zlib stream, as the published KAEzip-in-Spark study did. Linked into libkaezipmodel.so
 * with -Bsymbolic, so these calls reach the model's deflate/inflate (each call with input is a
 * hardware request there), never another zlib in the process.
 *
 * JNI functions of io.github.kaeshuffle.codec.KaeZipModel. A call's result packs the bytes it
 * produced (bits 0-29), the bytes it consumed (bits 30-59) and whether the stream ended (bit 60);
 * a zlib error is returned negative.
 */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define PACK(produced, consumed, ended) \
  ((jlong)(produced) | ((jlong)(consumed) << 30) | ((jlong)((ended) ? 1 : 0) << 60))

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_KaeZipModel_streamOpen(JNIEnv *env,
                                                                             jclass cls,
                                                                             jboolean compress,
                                                                             jint level) {
  (void)env;
  (void)cls;
  z_stream *s = calloc(1, sizeof(z_stream));
  if (s == NULL) return Z_MEM_ERROR;
  int rc = compress ? deflateInit2(s, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY)
                    : inflateInit2(s, 15);
  if (rc != Z_OK) {
    free(s);
    return rc < 0 ? rc : -100;
  }
  return (jlong)(intptr_t)s;
}

/*
 * One deflate (compress) or inflate call on in[off, off+len) into out[outOff, outOff+outLen),
 * with `flush` (Z_NO_FLUSH or Z_FINISH). The caller loops while input is left or output was full.
 */
JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_KaeZipModel_streamCall(
    JNIEnv *env, jclass cls, jlong handle, jboolean compress, jbyteArray in, jint off, jint len,
    jbyteArray out, jint outOff, jint outLen, jint flush) {
  (void)cls;
  z_stream *s = (z_stream *)(intptr_t)handle;
  jbyte *src = len > 0 ? (*env)->GetPrimitiveArrayCritical(env, in, NULL) : NULL;
  jbyte *dst = (*env)->GetPrimitiveArrayCritical(env, out, NULL);
  s->next_in = src != NULL ? (Bytef *)(src + off) : (Bytef *)"";
  s->avail_in = (uInt)len;
  s->next_out = (Bytef *)(dst + outOff);
  s->avail_out = (uInt)outLen;
  int rc = compress ? deflate(s, flush) : inflate(s, flush);
  jint produced = outLen - (jint)s->avail_out, consumed = len - (jint)s->avail_in;
  (*env)->ReleasePrimitiveArrayCritical(env, out, dst, 0);
  if (src != NULL) (*env)->ReleasePrimitiveArrayCritical(env, in, src, JNI_ABORT);
  if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) return rc < 0 ? rc : -100;
  return PACK(produced, consumed, rc == Z_STREAM_END);
}

JNIEXPORT void JNICALL Java_io_github_kaeshuffle_codec_KaeZipModel_streamClose(JNIEnv *env,
                                                                             jclass cls,
                                                                             jlong handle,
                                                                             jboolean compress) {
  (void)env;
  (void)cls;
  z_stream *s = (z_stream *)(intptr_t)handle;
  if (compress) {
    deflateEnd(s);
  } else {
    inflateEnd(s);
  }
  free(s);
}
