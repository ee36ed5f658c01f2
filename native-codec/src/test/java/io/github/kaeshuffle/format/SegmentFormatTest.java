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
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecFormat;
import io.github.kaeshuffle.codec.CodecKind;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.CorruptBlockException;
import io.github.kaeshuffle.codec.TestCodecs;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SegmentFormatTest {
  private static final int BLOCK = BlockFormat.MIN_BLOCK_SIZE;

  static Stream<BlockCodec> codecs() {
    return TestCodecs.all().stream();
  }

  private static byte[] segment(BlockCodec c, int blockSize, byte[] data) throws CodecException {
    try (BlockEncoder e = new BlockEncoder(c)) {
      return SegmentWriter.encode(e, blockSize, data);
    }
  }

  /** Reads with both readers (buffer and trickling stream); they must agree. */
  private static byte[] readAll(byte[] segments, BlockCodec reader) throws IOException {
    byte[] buffered = readBuffered(segments, reader);
    assertArrayEquals(buffered, readStreamed(segments, reader), "stream decoder disagrees");
    return buffered;
  }

  private static byte[] readBuffered(byte[] segments, BlockCodec reader) throws IOException {
    try (BlockDecoder d = new BlockDecoder(reader)) {
      return new SegmentInputStream(ByteBuffer.wrap(segments), d).readAllBytes();
    }
  }

  /** Through SegmentStreamDecoder, fed by a stream that returns at most 7 bytes per read. */
  private static byte[] readStreamed(byte[] segments, BlockCodec reader) throws IOException {
    java.io.InputStream trickle =
        new java.io.ByteArrayInputStream(segments) {
          @Override
          public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, 7));
          }
        };
    try (BlockDecoder d = new BlockDecoder(reader)) {
      return new SegmentStreamDecoder(trickle, d).readAllBytes();
    }
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void segmentsRoundTripAtEveryEdgeSize(BlockCodec c) throws IOException {
    for (int size : new int[] {1, 2, BLOCK - 1, BLOCK, BLOCK + 1, 5 * BLOCK, 5 * BLOCK + 77}) {
      for (String kind : new String[] {"text", "random"}) {
        byte[] data = TestCodecs.data(kind, size, size);
        byte[] seg = segment(c, BLOCK, data);
        SegmentIndex idx = SegmentIndex.parse(ByteBuffer.wrap(seg));
        assertEquals((size + BLOCK - 1) / BLOCK, idx.blockCount(), "blocks for " + size);
        assertEquals(size, idx.totalRawLength());
        assertEquals(seg.length, idx.segmentLength());
        assertArrayEquals(data, readAll(seg, c), c.name() + " " + kind + " " + size);
      }
    }
  }

  @Test
  void anEmptySegmentTakesZeroBytes() throws IOException {
    byte[] seg = segment(TestCodecs.exact(CodecKind.ZLIB), BLOCK, new byte[0]);
    assertEquals(0, seg.length);
    assertEquals(0, readAll(seg, null).length);
  }

  @Test
  void theLayoutIsTheDocumentedOne() throws IOException {
    BlockCodec zlib = TestCodecs.exact(CodecKind.ZLIB);
    byte[] data = TestCodecs.data("text", BLOCK + 100, 1);
    byte[] seg = segment(zlib, BLOCK, data);
    ByteBuffer b = ByteBuffer.wrap(seg).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals("KAEF", new String(seg, 0, 4, StandardCharsets.US_ASCII));
    assertEquals(1, b.get(4)); // version
    assertEquals(CodecFormat.DEFLATE.id(), b.get(5));
    assertEquals(0, b.get(6)); // compressed, not stored raw
    assertEquals(0, b.get(7));
    assertEquals(BLOCK, b.getInt(8));
    int stored0 = b.getInt(12);
    CRC32C crc = new CRC32C();
    crc.update(seg, 0, 16);
    crc.update(seg, 20, stored0);
    assertEquals((int) crc.getValue(), b.getInt(16));
    int second = 20 + stored0;
    assertEquals("KAEF", new String(seg, second, 4, StandardCharsets.US_ASCII));
    assertEquals(100, b.getInt(second + 8));
    int index = second + 20 + b.getInt(second + 12);
    assertEquals("KAEI", new String(seg, index, 4, StandardCharsets.US_ASCII));
    assertEquals(2, b.getInt(index + 4));
    assertEquals(0L, b.getLong(index + 8));
    assertEquals(BLOCK, b.getInt(index + 16));
    assertEquals(stored0, b.getInt(index + 20));
    assertEquals((long) second, b.getLong(index + 24));
    int footer = seg.length - 32;
    assertEquals(index + 8 + 2 * 16, footer);
    assertEquals((long) data.length, b.getLong(footer));
    assertEquals((long) index, b.getLong(footer + 8));
    assertEquals(2, b.getInt(footer + 16));
    assertEquals(1, b.get(footer + 20));
    assertEquals("KAEX", new String(seg, seg.length - 4, 4, StandardCharsets.US_ASCII));
  }

  /** The point of the format: record-sized writes still make one codec call per full block. */
  @Test
  void tinyWritesMakeOneCompressCallPerBlock() throws Exception {
    BlockCodec kae = Codecs.exact(TestCodecs.kaezipStandIn());
    int blocks = 23;
    byte[] data = TestCodecs.data("mixed", blocks * BLOCK, 9);
    long before = standInDeflateCalls();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (BlockEncoder e = new BlockEncoder(kae);
        SegmentWriter w = new SegmentWriter(e, BLOCK, out)) {
      for (int i = 0; i < data.length; i += 7) {
        w.write(data, i, Math.min(7, data.length - i));
      }
      w.finish();
      assertEquals(blocks, e.stats().codecCalls());
      assertEquals(blocks, w.blockCount());
      assertEquals(out.size(), w.bytesWritten());
    }
    assertEquals(blocks, standInDeflateCalls() - before, "deflate calls in the loaded library");
    assertArrayEquals(data, readAll(out.toByteArray(), TestCodecs.exact(CodecKind.JAVA)));
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void segmentsSharingBuffersEqualSegmentsWithTheirOwn(BlockCodec c) throws IOException {
    // A partial last block, several blocks, a single byte: what one segment leaves in the
    // shared buffers must never reach the next.
    byte[][] parts = {
      TestCodecs.data("text", 3 * BLOCK + 17, 5),
      TestCodecs.data("random", BLOCK / 3, 6),
      TestCodecs.data("mixed", 2 * BLOCK, 7),
      {42}
    };
    try (BlockEncoder e = new BlockEncoder(c)) {
      FrameBufferPool shared = new FrameBufferPool(BLOCK, 1);
      for (byte[] part : parts) {
        byte[] seg = encodeWith(e, shared, part);
        assertArrayEquals(SegmentWriter.encode(e, BLOCK, part), seg);
        assertArrayEquals(part, readAll(seg, c));
      }
      assertEquals(1, shared.made(), "one pair of buffers for every segment");
    }
  }

  @Test
  void pooledBuffersCutBlocksOfTheirSizeAndFitAnEncoderWithLargerFrames() throws IOException {
    BlockCodec c = TestCodecs.exact(CodecKind.LZ4);
    byte[] data = TestCodecs.data("text", 5 * BLOCK, 8);
    byte[] key = new byte[16];
    try (BlockEncoder e = new BlockEncoder(c);
        BlockEncoder encrypting = new BlockEncoder(c, false, 0, key)) {
      FrameBufferPool pool = new FrameBufferPool(2 * BLOCK, 1);
      assertArrayEquals(SegmentWriter.encode(e, 2 * BLOCK, data), encodeWith(e, pool, data));
      assertThrows(IllegalArgumentException.class, () -> new FrameBufferPool(1, 1));
      // An encrypted frame carries its IV: the plain encoder's frame buffer is too small for it,
      // so the pool makes a pair that fits rather than lend the one it kept.
      byte[] seg = encodeWith(encrypting, pool, data);
      assertEquals(2, pool.made());
      try (BlockDecoder d = new BlockDecoder(c, key)) {
        assertArrayEquals(data, new SegmentInputStream(ByteBuffer.wrap(seg), d).readAllBytes());
      }
    }
  }

  private static byte[] encodeWith(BlockEncoder e, FrameBufferPool pool, byte[] data)
      throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SegmentWriter w = new SegmentWriter(e, pool, out)) {
      w.write(data);
    }
    return out.toByteArray();
  }

  private static long standInDeflateCalls() throws Exception {
    Class<?> c = Class.forName("io.github.kaeshuffle.codec.StandInZlib");
    java.lang.reflect.Method m = c.getDeclaredMethod("deflateCalls");
    m.setAccessible(true);
    return (long) m.invoke(null);
  }

  @ParameterizedTest
  @MethodSource("codecs")
  void incompressibleBlocksAreStoredRawAndNeverGrow(BlockCodec c) throws IOException {
    int blockSize = BlockFormat.DEFAULT_BLOCK_SIZE;
    byte[] data = TestCodecs.data("random", 8 * blockSize, 3);
    byte[] seg;
    BlockStats stats;
    try (BlockEncoder e = new BlockEncoder(c)) {
      seg = SegmentWriter.encode(e, blockSize, data);
      stats = e.stats();
    }
    assertEquals(8, stats.storedRawBlocks());
    assertEquals(8, stats.codecCalls());
    assertEquals(data.length, stats.storedBytes());
    long overhead = 8L * BlockFormat.FRAME_HEADER_LENGTH + BlockFormat.indexLength(8);
    assertEquals(data.length + overhead, seg.length);
    assertTrue(seg.length <= data.length * 1.001, "stored-raw overhead above 0.1%");
    assertEquals(BlockFormat.FLAG_STORED_RAW, seg[6]);
    assertArrayEquals(data, readAll(seg, null));
  }

  @Test
  void blocksWrittenByOneDeflateBackendReadWithAnother() throws IOException {
    byte[] data = TestCodecs.data("text", 10 * BLOCK + 5, 4);
    for (BlockCodec writer : TestCodecs.deflateFamily()) {
      byte[] seg = segment(writer, BLOCK, data);
      for (BlockCodec reader : TestCodecs.deflateFamily()) {
        assertArrayEquals(data, readAll(seg, reader), writer.name() + " -> " + reader.name());
      }
      assertArrayEquals(data, readAll(seg, TestCodecs.exact(CodecKind.LZ4)), "default decoder");
    }
  }

  @Test
  void concatenatedSegmentsOfMixedCodecsSplitAndReadInOrder() throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    ByteArrayOutputStream expect = new ByteArrayOutputStream();
    List<BlockCodec> codecs = TestCodecs.all();
    for (int i = 0; i < 12; i++) {
      byte[] data = TestCodecs.data(i % 3 == 0 ? "random" : "text", i * 9000, i);
      all.write(segment(codecs.get(i % codecs.size()), BLOCK, data)); // i == 0: empty, 0 bytes
      expect.write(data);
    }
    List<Segment> parts = Segments.split(ByteBuffer.wrap(all.toByteArray()));
    assertEquals(11, parts.size());
    assertArrayEquals(expect.toByteArray(), readAll(all.toByteArray(), null));
  }

  /**
   * One segment whose frames each come from another codec, as when an encoder of another step of
   * auto's ladder wrote part of it: every reader decodes each frame by the format it names.
   */
  @Test
  void oneSegmentOfFramesFromEveryCodecReadsWhole() throws IOException {
    List<BlockCodec> codecs = TestCodecs.all();
    byte[] data = TestCodecs.data("text", codecs.size() * 2 * BLOCK + 77, 9);
    SegmentIndexBuilder index = new SegmentIndexBuilder();
    ByteBuffer frames = ByteBuffer.allocate(2 * data.length + 64 * codecs.size());
    int block = 0;
    for (int off = 0; off < data.length; off += BLOCK, block++) {
      ByteBuffer raw = ByteBuffer.wrap(data, off, Math.min(BLOCK, data.length - off));
      try (BlockEncoder e = new BlockEncoder(codecs.get(block % codecs.size()))) {
        index.encode(e, raw, frames);
      }
    }
    ByteArrayOutputStream seg = new ByteArrayOutputStream();
    seg.write(frames.array(), 0, frames.position());
    index.writeIndex(seg);
    for (BlockCodec reader : codecs) {
      assertArrayEquals(data, readAll(seg.toByteArray(), reader), "read with " + reader.name());
    }
    assertArrayEquals(data, readAll(seg.toByteArray(), null), "default decoders");
  }

  /** Any single corrupted byte anywhere in a segment is caught; so is any truncation. */
  @Test
  void everySingleByteCorruptionAndTruncationIsDetected() throws IOException {
    byte[] data = TestCodecs.data("text", 3 * BLOCK + 1000, 5);
    byte[] seg = segment(TestCodecs.exact(CodecKind.ZLIB), BLOCK, data);
    for (int i = 0; i < seg.length; i++) {
      for (int bit : new int[] {0x01, 0x80}) {
        byte[] bad = seg.clone();
        bad[i] ^= (byte) bit;
        String what = "flip of bit " + bit + " at byte " + i + " of " + seg.length;
        assertThrows(CorruptBlockException.class, () -> readBuffered(bad, null), what);
        assertThrows(CorruptBlockException.class, () -> readStreamed(bad, null), what);
      }
    }
    for (int len = 1; len < seg.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(seg, len);
      String what = "truncation to " + len + " bytes";
      assertThrows(CorruptBlockException.class, () -> readBuffered(cut, null), what);
      assertThrows(CorruptBlockException.class, () -> readStreamed(cut, null), what);
    }
  }

  @Test
  void impossibleHeaderFieldsAreRejectedEvenWithAValidChecksum() throws IOException {
    byte[] seg = segment(TestCodecs.exact(CodecKind.ZLIB), BLOCK, TestCodecs.data("text", 500, 6));
    String[][] cases = {
      {"8", "9000000", "raw length"}, // raw length above 8 MiB
      {"12", "600", "stored length"}, // stored > raw
      {"5", "99", "unknown codec"},
      {"6", "4", "flags"}, // bits 0 (stored raw) and 1 (encrypted) are the known ones
      {"4", "2", "version"},
    };
    for (String[] k : cases) {
      byte[] bad = seg.clone();
      ByteBuffer b = ByteBuffer.wrap(bad).order(ByteOrder.LITTLE_ENDIAN);
      int field = Integer.parseInt(k[0]);
      int value = Integer.parseInt(k[1]);
      if (field == 8 || field == 12) {
        b.putInt(field, value);
      } else {
        b.put(field, (byte) value);
      }
      CRC32C crc = new CRC32C();
      crc.update(bad, 0, 16);
      crc.update(bad, 20, Math.min(b.getInt(12), bad.length - 20));
      b.putInt(16, (int) crc.getValue());
      CorruptBlockException e =
          assertThrows(
              CorruptBlockException.class, () -> FrameHeader.parse(ByteBuffer.wrap(bad), 0));
      assertTrue(e.getMessage().contains(k[2]), e.getMessage());
    }
  }

  @Test
  void verifyingFramesChecksEveryCrcWithoutDecompressing() throws IOException {
    byte[] seg = segment(TestCodecs.exact(CodecKind.ZLIB), BLOCK, TestCodecs.data("text", 200, 3));
    byte[] two = new byte[seg.length * 2];
    System.arraycopy(seg, 0, two, 0, seg.length);
    System.arraycopy(seg, 0, two, seg.length, seg.length);
    try (BlockDecoder d = new BlockDecoder(null)) {
      Segments.verifyFrames(Segments.split(ByteBuffer.wrap(two)), d);
      assertEquals(0, d.stats().codecCalls(), "no frame was decompressed");
      // One payload byte of the second segment's first frame, past its 20-byte header.
      two[seg.length + 40] ^= 1;
      List<Segment> damaged = Segments.split(ByteBuffer.wrap(two));
      CorruptBlockException e =
          assertThrows(CorruptBlockException.class, () -> Segments.verifyFrames(damaged, d));
      assertTrue(e.getMessage().contains("CRC32C"), e.getMessage());
    }
  }

  @Test
  void blockSizesOutsideTheRangeAreRefused() {
    BlockCodec zlib = TestCodecs.exact(CodecKind.ZLIB);
    for (int size : new int[] {0, BlockFormat.MIN_BLOCK_SIZE - 1, BlockFormat.MAX_BLOCK_SIZE + 1}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class,
              () -> new SegmentWriter(new BlockEncoder(zlib), size, new ByteArrayOutputStream()));
      assertTrue(e.getMessage().contains("16 KiB") && e.getMessage().contains("8 MiB"));
    }
  }

  /** Dropping or repeating a whole frame leaves every frame valid; the index catches it. */
  @Test
  void aLostOrRepeatedFrameIsCaughtByTheIndex() throws IOException {
    byte[] seg =
        segment(TestCodecs.exact(CodecKind.ZLIB), BLOCK, TestCodecs.data("text", 3 * BLOCK, 8));
    SegmentIndex idx = SegmentIndex.parse(ByteBuffer.wrap(seg));
    int f1 = (int) idx.offset(1);
    int f2 = (int) idx.offset(2);
    ByteArrayOutputStream dropped = new ByteArrayOutputStream();
    dropped.write(seg, 0, f1);
    dropped.write(seg, f2, seg.length - f2);
    ByteArrayOutputStream repeated = new ByteArrayOutputStream();
    repeated.write(seg, 0, f2);
    repeated.write(seg, f1, seg.length - f1);
    for (byte[] bad : new byte[][] {dropped.toByteArray(), repeated.toByteArray()}) {
      assertThrows(CorruptBlockException.class, () -> readBuffered(bad, null));
      assertThrows(CorruptBlockException.class, () -> readStreamed(bad, null));
    }
  }

  /**
   * A sink that fails (a full disk) leaves the writer failed: finishing again, as a serializer
   * closing its stream does, throws again instead of ending a truncated segment quietly.
   */
  @Test
  void aFailedSinkLeavesTheSegmentFailed() throws Exception {
    int[] writes = {0};
    java.io.OutputStream full =
        new java.io.OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            if (++writes[0] > 2) {
              throw new IOException("No space left on device");
            }
          }
        };
    byte[] data = new byte[100_000];
    new java.util.Random(1).nextBytes(data);
    try (BlockEncoder e = new BlockEncoder(TestCodecs.all().get(0))) {
      SegmentWriter w = new SegmentWriter(e, 16384, full);
      assertThrows(IOException.class, () -> w.write(data));
      assertThrows(IOException.class, w::finish);
      assertThrows(IOException.class, w::close);
      assertThrows(IOException.class, () -> w.write(1));
      // Failing while the index is written also sticks.
      writes[0] = 0;
      SegmentWriter atIndex =
          new SegmentWriter(
              e,
              16384,
              new java.io.OutputStream() {
                @Override
                public void write(int b) throws IOException {
                  throw new IOException("No space left on device");
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                  if (len < 64) {
                    throw new IOException("No space left on device");
                  }
                }
              });
      atIndex.write(data, 0, 16384);
      assertThrows(IOException.class, atIndex::finish);
      assertThrows(IOException.class, atIndex::finish);
    }
  }
}
