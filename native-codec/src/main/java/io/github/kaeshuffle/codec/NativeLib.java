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
package io.github.kaeshuffle.codec;

import java.nio.ByteBuffer;

/**
 * The JNI surface of libkaeshuffle: the only class that declares native methods. Nothing here
 * throws from C; negative results are {@link NativeError} codes. Callers check every offset and
 * length before calling (the C side checks them again).
 *
 * <p>Buffer arguments are a {@code byte[]} or a direct {@code ByteBuffer}; offsets are indexes into
 * the array or the buffer's memory, independent of the buffer's position.
 */
final class NativeLib {
  /** Must equal KAE_ABI_VERSION in kae_jni.c; the loader refuses a library that differs. */
  static final int ABI_VERSION = 2;

  private NativeLib() {}

  static native int abiVersion();

  /** The linked system zlib when path is null, else a zlib-compatible library by dlopen. */
  static native long openZlib(String path);

  static native long openLibdeflate(String path);

  /** Detail of the last failed open on this thread (dlerror text, missing symbol). */
  static native String lastOpenError();

  static native String describe(long backend);

  static native long maxCompressedLength(long backend, int rawLength);

  static native long newCompressor(long backend, int level);

  static native void freeCompressor(long ctx);

  static native int compress(
      long ctx, Object src, int srcOff, int srcLen, Object dst, int dstOff, int dstCap);

  static native long newDecompressor(long backend);

  static native void freeDecompressor(long ctx);

  static native int decompress(
      long ctx, Object src, int srcOff, int srcLen, Object dst, int dstOff, int rawLength);

  /** Maps {@code length} bytes of fresh memory from the kernel: its address, or a negative code. */
  static native long mapMemory(int length);

  /** A direct buffer over mapped memory (no cleaner: {@link DirectMemory} unmaps it). */
  static native ByteBuffer directBuffer(long address, int length);

  /** Gives a mapping made by {@link #mapMemory} back to the kernel; 0 or a negative code. */
  static native int unmapMemory(long address, int length);

  /** A direct buffer's address (0 for anything else). */
  static native long bufferAddress(ByteBuffer buffer);
}
