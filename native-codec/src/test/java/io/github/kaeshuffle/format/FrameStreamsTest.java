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
package io.github.kaeshuffle.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.CorruptBlockException;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Streams of frames for Spark's IO: every codec round trips every shape of writing; one codec call
 * per block however the bytes arrive; streams written one after another read as one; a stream cut
 * anywhere, or with any byte flipped, fails with {@link CorruptBlockException} and never reads back
 * other bytes.
 */
class FrameStreamsTest {
  private static final int BLOCK = 16 * 1024;

  /** Writes {@code data} to a frame stream in pieces of {@code piece} bytes (1: byte by byte). */
  private static byte[] write(BlockEncoder e, byte[] data, int piece) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<BlockEncoder> released = new ArrayList<>();
    try (FrameOutputStream out = new FrameOutputStream(bytes, e, BLOCK, released::add)) {
      for (int at = 0; at < data.length; at += piece) {
        if (piece == 1) {
          out.write(data[at]);
        } else {
          out.write(data, at, Math.min(piece, data.length - at));
        }
        out.flush();
      }
    }
    assertEquals(Arrays.asList(e), released);
    return bytes.toByteArray();
  }

  private static byte[] read(byte[] stream, BlockCodec preferred, boolean continuous)
      throws IOException {
    List<BlockDecoder> released = new ArrayList<>();
    BlockDecoder d = new BlockDecoder(preferred);
    byte[] back;
    try (InputStream in =
        new FrameInputStream(new ByteArrayInputStream(stream), d, released::add, continuous)) {
      back = in.readAllBytes();
    }
    assertEquals(Arrays.asList(d), released);
    d.close();
    return back;
  }

  @Test
  void everyCodecRoundTripsEveryWayOfWriting() throws IOException {
    int[] sizes = {0, 1, BLOCK - 1, BLOCK, 3 * BLOCK + 7};
    int[] pieces = {1, 100, BLOCK, 5 * BLOCK};
    for (BlockCodec c : TestCodecs.all()) {
      try (BlockEncoder e = new BlockEncoder(c)) {
        for (int size : sizes) {
          byte[] data = TestCodecs.data("text", size, size);
          for (int piece : pieces) {
            byte[] stream = write(e, data, piece);
            assertArrayEquals(data, read(stream, c, false), c + ", " + size + " in " + piece);
            assertArrayEquals(data, read(stream, null, false), c + " read by the defaults");
          }
        }
      }
    }
  }

  @Test
  void eachBlockIsOneCodecCallHoweverTheBytesArrive() throws IOException {
    byte[] data = TestCodecs.data("text", 10 * BLOCK + 1, 7);
    for (int piece : new int[] {1, 7, 1000, 3 * BLOCK}) {
      try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.ZLIB))) {
        byte[] stream = write(e, data, piece);
        assertEquals(11, e.stats().codecCalls(), "pieces of " + piece);
        assertEquals(data.length, e.stats().rawBytes());
        assertEquals(
            e.stats().storedBytes()
                + 11L * BlockFormat.FRAME_HEADER_LENGTH
                + BlockFormat.STREAM_END_LENGTH,
            stream.length);
      }
    }
  }

  @Test
  void incompressibleBlocksAreStoredRawAndNeverGrowTheBytes() throws IOException {
    byte[] data = TestCodecs.data("random", 4 * BLOCK, 3);
    try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.LZ4))) {
      byte[] stream = write(e, data, BLOCK);
      assertEquals(
          data.length + 4 * BlockFormat.FRAME_HEADER_LENGTH + BlockFormat.STREAM_END_LENGTH,
          stream.length);
      assertArrayEquals(data, read(stream, null, false));
    }
  }

  @Test
  void streamsWrittenOneAfterAnotherReadAsOne() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteArrayOutputStream expected = new ByteArrayOutputStream();
    int n = 0;
    for (BlockCodec c : TestCodecs.all()) {
      byte[] data = TestCodecs.data("text", (n++ % 3) * BLOCK + n, n);
      try (BlockEncoder e = new BlockEncoder(c)) {
        all.write(write(e, data, 1000));
      }
      expected.write(data);
    }
    assertArrayEquals(expected.toByteArray(), read(all.toByteArray(), null, false));
  }

  @Test
  void pooledBuffersAreLentAgainAndStartEmpty() throws IOException {
    FrameBufferPool pool = new FrameBufferPool(BLOCK, 2);
    try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.LZ4))) {
      for (int i = 0; i < 20; i++) {
        // Streams of every length, some ending mid-block: what one leaves must not reach the next.
        byte[] data = TestCodecs.data("text", i * BLOCK / 3 + i, i);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (FrameOutputStream out = new FrameOutputStream(bytes, e, pool, x -> {})) {
          out.write(data, 0, data.length);
        }
        assertArrayEquals(data, read(bytes.toByteArray(), null, false), "stream " + i);
      }
      FrameOutputStream a = new FrameOutputStream(new ByteArrayOutputStream(), e, pool, x -> {});
      FrameOutputStream b = new FrameOutputStream(new ByteArrayOutputStream(), e, pool, x -> {});
      a.close();
      b.close();
      assertEquals(2, pool.made(), "one pair per stream open at once");
    }
  }

  @Test
  void pooledInputBuffersAreLentAgainAndLargerFramesStillRead() throws IOException {
    FrameBufferPool pool = new FrameBufferPool(BLOCK, 2);
    assertArrayEquals(new byte[0], readPooled(new byte[0], pool));
    assertEquals(0, pool.made(), "no frame, nothing borrowed");
    try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.LZ4))) {
      for (int i = 0; i < 20; i++) {
        // Streams of every length: what one leaves in the lent buffers must not reach the next.
        byte[] data = TestCodecs.data("text", i * BLOCK / 3 + i, i);
        assertArrayEquals(data, readPooled(write(e, data, 1000), pool), "stream " + i);
      }
      assertEquals(1, pool.made(), "one pair for streams read one after the other");
      // Frames of a block larger than the pool's read into buffers of the stream's own.
      byte[] data = TestCodecs.data("text", 9 * BLOCK + 5, 21);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (FrameOutputStream out = new FrameOutputStream(bytes, e, 4 * BLOCK, x -> {})) {
        out.write(data, 0, data.length);
      }
      assertArrayEquals(data, readPooled(bytes.toByteArray(), pool));
      assertEquals(1, pool.made());
    }
  }

  private static byte[] readPooled(byte[] stream, FrameBufferPool pool) throws IOException {
    try (BlockDecoder d = new BlockDecoder(null);
        InputStream in =
            new FrameInputStream(new ByteArrayInputStream(stream), d, pool, x -> {}, false)) {
      return in.readAllBytes();
    }
  }

  @Test
  void noBytesAreAnEmptyStream() throws IOException {
    assertArrayEquals(new byte[0], read(new byte[0], null, false));
  }

  @Test
  void aStreamCutShortFailsUnlessItIsReadAsStillBeingWritten() throws IOException {
    byte[] data = TestCodecs.data("text", 3 * BLOCK, 11);
    byte[] stream;
    try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.ZSTD))) {
      stream = write(e, data, BLOCK);
    }
    List<Integer> frameEnds = new ArrayList<>();
    for (int cut = 1; cut < stream.length; cut++) {
      byte[] part = Arrays.copyOf(stream, cut);
      try {
        byte[] back = read(part, null, true);
        // Read as still being written, a cut between frames gives the frames before it.
        assertArrayEquals(Arrays.copyOf(data, back.length), back, "cut at " + cut);
        frameEnds.add(cut);
      } catch (CorruptBlockException expected) {
        // inside a frame
      }
      assertThrows(CorruptBlockException.class, () -> read(part, null, false), "cut at " + cut);
    }
    assertEquals(3, frameEnds.size(), "frame ends " + frameEnds);
  }

  @Test
  void aFlippedByteAnywhereFailsAndNeverReadsOtherBytes() throws IOException {
    byte[] data = TestCodecs.data("text", 2 * BLOCK + 500, 5);
    Random r = new Random(42);
    for (BlockCodec c : TestCodecs.all()) {
      byte[] stream;
      try (BlockEncoder e = new BlockEncoder(c)) {
        stream = write(e, data, 4096);
      }
      for (int i = 0; i < 300; i++) {
        byte[] bad = stream.clone();
        int at = r.nextInt(bad.length);
        bad[at] ^= (byte) (1 << r.nextInt(8));
        try {
          read(bad, null, false);
          fail(c + ": a flip at " + at + " of " + bad.length + " read without an error");
        } catch (CorruptBlockException expected) {
          // the frame's checksum, header checks or the end mark caught it
        }
      }
    }
  }

  @Test
  void aClosedStreamRefusesWritesAndClosesOnce() throws IOException, CodecException {
    List<BlockEncoder> released = new ArrayList<>();
    try (BlockEncoder e = new BlockEncoder(TestCodecs.exact(CodecKind.LZ4))) {
      FrameOutputStream out =
          new FrameOutputStream(new ByteArrayOutputStream(), e, BLOCK, released::add);
      out.close();
      out.close();
      assertEquals(1, released.size());
      assertThrows(IOException.class, () -> out.write(1));
    }
  }
}
