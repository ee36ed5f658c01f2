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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * Context handles are looked up in the native library's table, never dereferenced as pointers: a
 * freed handle, one of the other kind, or a made-up one is refused with an error code instead of
 * touching freed or foreign memory.
 */
class NativeHandleTest {
  private static long zlib() {
    assumeTrue(NativeLoader.load().loaded(), "native library not loaded");
    long backend = NativeLib.openZlib(null);
    assertTrue(backend > 0, "zlib opens");
    return backend;
  }

  private static int decompress(long ctx) {
    byte[] src = new byte[16];
    byte[] dst = new byte[16];
    return NativeLib.decompress(ctx, src, 0, src.length, dst, 0, dst.length);
  }

  @Test
  void aFreedHandleIsRefusedEvenAfterItsSlotIsReused() {
    long backend = zlib();
    long stale = NativeLib.newDecompressor(backend);
    assertTrue(stale > 0);
    NativeLib.freeDecompressor(stale);
    assertEquals(NativeError.STATE.code(), decompress(stale));
    long fresh = NativeLib.newDecompressor(backend);
    try {
      assertTrue(fresh != stale, "a reused slot gets a new generation");
      assertEquals(NativeError.STATE.code(), decompress(stale));
      NativeLib.freeDecompressor(stale); // a second free is a no-op, not a double free
    } finally {
      NativeLib.freeDecompressor(fresh);
    }
  }

  @Test
  void aHandleOfTheOtherKindOrAMadeUpOneIsRefused() {
    long backend = zlib();
    long compressor = NativeLib.newCompressor(backend, 1);
    try {
      assertEquals(NativeError.STATE.code(), decompress(compressor));
      assertEquals(NativeError.STATE.code(), decompress(0x7fff_0000_0001L));
      assertEquals(NativeError.STATE.code(), decompress(12345L << 32 | 99_999L));
    } finally {
      NativeLib.freeCompressor(compressor);
    }
  }
}
