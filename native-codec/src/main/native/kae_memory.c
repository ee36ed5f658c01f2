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
 * Large buffers mapped straight from the kernel and given back to it when freed. The JVM's direct
 * buffers come from malloc; after the first large free glibc raises its mmap threshold and keeps
 * every later buffer of that size in its arenas, so the raw blocks and decode windows that tasks
 * free one after another stay in the process's resident memory (docs/benchmarks/Partitions-notes.md).
 * Java (DirectMemory) keeps the address and length of each mapping and is the only caller.
 */
#include <jni.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io_github_kaeshuffle_codec_NativeLib.h"
#include "kae_errors.h"

static size_t page_rounded(jint length) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return ((size_t)length + page - 1) & ~(page - 1);
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_mapMemory(JNIEnv *env,
                                                                           jclass cls,
                                                                           jint length) {
  (void)env;
  (void)cls;
  if (length <= 0) return KAE_E_ARG;
  void *p = mmap(NULL, page_rounded(length), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  return p == MAP_FAILED ? KAE_E_NOMEM : (jlong)(uintptr_t)p;
}

JNIEXPORT jobject JNICALL Java_io_github_kaeshuffle_codec_NativeLib_directBuffer(JNIEnv *env,
                                                                                jclass cls,
                                                                                jlong address,
                                                                                jint length) {
  (void)cls;
  if (address <= 0 || length <= 0) return NULL;
  return (*env)->NewDirectByteBuffer(env, (void *)(uintptr_t)address, length);
}

JNIEXPORT jint JNICALL Java_io_github_kaeshuffle_codec_NativeLib_unmapMemory(JNIEnv *env,
                                                                            jclass cls,
                                                                            jlong address,
                                                                            jint length) {
  (void)env;
  (void)cls;
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  if (address <= 0 || length <= 0 || ((uintptr_t)address & (page - 1)) != 0) return KAE_E_ARG;
  return munmap((void *)(uintptr_t)address, page_rounded(length)) == 0 ? KAE_OK : KAE_E_ARG;
}

JNIEXPORT jlong JNICALL Java_io_github_kaeshuffle_codec_NativeLib_bufferAddress(JNIEnv *env,
                                                                               jclass cls,
                                                                               jobject buffer) {
  (void)cls;
  if (buffer == NULL) return 0;
  void *p = (*env)->GetDirectBufferAddress(env, buffer);
  return p == NULL ? 0 : (jlong)(uintptr_t)p;
}
