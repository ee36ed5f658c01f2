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
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StagingArraysTest {
  @Test
  void anArrayIsPassedOnAsItIs() {
    StagingArrays s = new StagingArrays();
    byte[] target = {1, 2, 3, 4};
    assertSame(target, s.input(target, 1, 2));
    assertEquals(0, s.bytes());
  }

  @Test
  void aDirectBuffersBytesAreCopiedToTheStartOfTheInputArray() {
    StagingArrays s = new StagingArrays();
    ByteBuffer direct = direct(new byte[] {9, 8, 7, 6, 5});
    byte[] in = s.input(direct, 1, 3);
    assertArrayEquals(new byte[] {8, 7, 6}, Arrays.copyOf(in, 3));
  }

  @Test
  void theArraysAreReusedForSmallerBlocksAndGrownForLarger() {
    StagingArrays s = new StagingArrays();
    byte[] first = s.input(direct(new byte[1000]), 0, 1000);
    assertSame(first, s.input(direct(new byte[10]), 0, 10));
    byte[] out = s.output(500);
    assertSame(out, s.output(100));
    assertEquals(1500, s.bytes());
    assertEquals(4000, s.input(direct(new byte[4000]), 0, 4000).length);
    assertEquals(600, s.output(600).length);
  }

  /** A context's staged bytes from a larger block must not leak into the next, smaller one. */
  @Test
  void aContextRoundTripsMixedBuffersOfEverySizeInTurn() throws Exception {
    for (String name : new String[] {"zstd", "java"}) {
      BlockCodec codec = TestCodecs.exact(name);
      try (BlockCompressor comp = codec.newCompressor();
          BlockDecompressor dec = codec.newDecompressor()) {
        int seed = 0;
        for (int size : new int[] {256 * 1024, 70_000, 1, 4096, 256 * 1024}) {
          byte[] raw = TestCodecs.data("text", size, seed++);
          // Direct to heap, the writer's way, then heap to direct and back to heap.
          ByteBuffer frame = ByteBuffer.allocate(codec.maxCompressedLength(size));
          comp.compress(direct(raw), frame);
          frame.flip();
          ByteBuffer restored = ByteBuffer.allocateDirect(size);
          dec.decompress(frame.duplicate(), restored, size);
          ByteBuffer again = ByteBuffer.allocate(size);
          dec.decompress(direct(frame), again, size);
          restored.flip();
          again.flip();
          assertArrayEquals(raw, bytes(restored), name + " " + size);
          assertArrayEquals(raw, bytes(again), name + " " + size);
        }
      }
    }
  }

  private static ByteBuffer direct(byte[] b) {
    ByteBuffer d = ByteBuffer.allocateDirect(b.length);
    d.put(b).flip();
    return d;
  }

  private static ByteBuffer direct(ByteBuffer heap) {
    ByteBuffer d = ByteBuffer.allocateDirect(heap.remaining());
    d.put(heap.duplicate()).flip();
    return d;
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] a = new byte[b.remaining()];
    b.get(a);
    return a;
  }
}
