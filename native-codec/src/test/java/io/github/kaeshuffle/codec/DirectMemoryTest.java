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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class DirectMemoryTest {
  @BeforeAll
  static void nativeLibraryLoads() {
    assertTrue(NativeLoader.isLoaded(), NativeLoader.load().detail());
  }

  @Test
  void largeBuffersAreMappedFromTheKernelAndGivenBackWhenFreed() throws IOException {
    long before = DirectMemory.mappedBytes();
    ByteBuffer b = DirectMemory.allocate(256 * 1024 + 1);
    long address = NativeLib.bufferAddress(b);
    assertTrue(b.isDirect());
    assertEquals(256 * 1024 + 1, b.capacity());
    assertEquals(before + b.capacity(), DirectMemory.mappedBytes());
    assertTrue(isMapped(address), "the kernel lists the mapping");

    b.put(b.capacity() - 1, (byte) 7);
    assertEquals(7, b.get(b.capacity() - 1));

    DirectMemory.free(b);
    assertEquals(before, DirectMemory.mappedBytes());
    assertFalse(isMapped(address), "the mapping is gone from the process");
  }

  @Test
  void smallBuffersAreTheJvmsOwn() {
    long before = DirectMemory.mappedBytes();
    ByteBuffer b = DirectMemory.allocate(DirectMemory.MAP_THRESHOLD - 1);
    assertTrue(b.isDirect());
    assertEquals(before, DirectMemory.mappedBytes());
    DirectMemory.free(b);
    assertEquals(before, DirectMemory.mappedBytes());
  }

  @Test
  void theCodecReadsAndWritesMappedBuffers() throws IOException {
    byte[] data = new byte[300 * 1024];
    Random r = new Random(22);
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) ('a' + r.nextInt(4));
    }
    ByteBuffer raw = DirectMemory.allocateDirect(data.length);
    raw.put(data).flip();
    BlockCodec zlib = TestCodecs.exact(CodecKind.ZLIB);
    try (BlockCompressor c = zlib.newCompressor();
        BlockDecompressor d = zlib.newDecompressor()) {
      ByteBuffer packed = DirectMemory.allocateDirect(zlib.maxCompressedLength(data.length));
      c.compress(raw, packed);
      packed.flip();
      ByteBuffer back = DirectMemory.allocateDirect(data.length);
      d.decompress(packed, back, data.length);
      byte[] out = new byte[data.length];
      ((ByteBuffer) back.flip()).get(out);
      assertArrayEquals(data, out);
      DirectMemory.free(packed);
      DirectMemory.free(back);
    } finally {
      DirectMemory.free(raw);
    }
  }

  @Test
  void aLeakedMappedBufferIsUnmappedOnceCollected() throws InterruptedException, IOException {
    long address = leakOne();
    for (int i = 0; i < 200 && isMapped(address); i++) {
      System.gc();
      Thread.sleep(50);
    }
    assertFalse(isMapped(address), "the collector's cleaning unmapped it");
  }

  private static long leakOne() {
    ByteBuffer b = DirectMemory.allocateDirect(1 << 20);
    return NativeLib.bufferAddress(b);
  }

  /** Whether a mapping of this process starts at {@code address} (/proc/self/maps). */
  private static boolean isMapped(long address) throws IOException {
    String start = Long.toHexString(address) + "-";
    return Files.readAllLines(Paths.get("/proc/self/maps")).stream()
        .anyMatch(l -> l.startsWith(start) || l.startsWith("0" + start));
  }
}
