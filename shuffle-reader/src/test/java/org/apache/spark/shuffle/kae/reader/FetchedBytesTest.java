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
package org.apache.spark.shuffle.kae.reader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import org.apache.spark.network.util.LimitedInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Option;
import scala.Tuple3;

/**
 * FetchedBytes finds the bytes behind the streams Spark hands the reader, with and without Spark's
 * checksum wrapper, and leaves alone the streams it does not know. The module's tests open java.io
 * as Spark's launcher does for every driver and executor (shuffle-reader/pom.xml).
 */
class FetchedBytesTest {
  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  private static byte[] contents(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  private static byte[] range(byte[] b, int from) {
    return Arrays.copyOfRange(b, from, b.length);
  }

  @Test
  void oneReceivedRegionIsDecodedWhereItIsFromTheStreamsPosition() throws IOException {
    byte[] data = bytes(1000, 1);
    ByteBuf buf = Unpooled.wrappedBuffer(data);
    ByteBufInputStream in = new ByteBufInputStream(buf);
    assertEquals(7, in.skip(7));

    FetchedBytes.Bytes found = FetchedBytes.of(in).get();
    FetchedBytes.Whole whole = assertInstanceOf(FetchedBytes.Whole.class, found);
    assertEquals(993, whole.length());
    assertArrayEquals(range(data, 7), contents(whole.buffer()));
    assertEquals(993, in.available(), "finding the bytes reads nothing from the stream");
  }

  @Test
  void aRangeAssembledFromSeveralReadsIsGatheredInOneCopy() throws IOException {
    byte[] first = bytes(300, 2);
    byte[] second = bytes(500, 3);
    CompositeByteBuf buf = Unpooled.compositeBuffer();
    buf.addComponents(true, Unpooled.wrappedBuffer(first), Unpooled.wrappedBuffer(second));
    ByteBufInputStream in = new ByteBufInputStream(buf);
    assertEquals(100, in.skip(100));

    FetchedBytes.Parts parts =
        assertInstanceOf(FetchedBytes.Parts.class, FetchedBytes.of(in).get());
    assertEquals(700, parts.length());
    ByteBuffer dst = ByteBuffer.allocateDirect(1024);
    dst.position(24);
    parts.copyTo(dst);
    assertEquals(24, dst.position(), "the copy leaves the destination's position alone");
    ByteBuffer copied = dst.duplicate();
    copied.limit(24 + 700);
    byte[] expected = new byte[700];
    System.arraycopy(first, 100, expected, 0, 200);
    System.arraycopy(second, 0, expected, 200, 500);
    assertArrayEquals(expected, contents(copied));
  }

  @Test
  void theChecksumWrapperIsLookedThroughAndLeftUnread() throws IOException {
    byte[] data = bytes(256, 4);
    CheckedInputStream checked =
        new CheckedInputStream(new ByteBufInputStream(Unpooled.wrappedBuffer(data)), new CRC32());

    FetchedBytes.Whole whole =
        assertInstanceOf(FetchedBytes.Whole.class, FetchedBytes.of(checked).get());
    assertArrayEquals(data, contents(whole.buffer()));
    assertEquals(0L, checked.getChecksum().getValue(), "Spark's diagnosis reads the whole stream");
  }

  @Test
  void aFileSegmentIsFoundByItsChannelOffsetAndIndexLength(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("shuffle_0_0_0.data");
    Files.write(file, bytes(4096, 5));
    try (FileInputStream fis = new FileInputStream(file.toFile())) {
      assertEquals(1000, fis.skip(1000));
      // Longer than what the file still holds: the index's length, so a short file fails the read.
      InputStream segment = new CheckedInputStream(new LimitedInputStream(fis, 5000), new CRC32());

      Tuple3<FileChannel, Object, Object> found = FetchedBytes.fileSegment(segment).get();
      assertEquals(fis.getChannel(), found._1());
      assertEquals(1000L, found._2());
      assertEquals(5000, found._3());
      assertTrue(FetchedBytes.isFileSegment(segment));
      assertTrue(FetchedBytes.of(segment).isEmpty(), "a file's bytes are not a Netty buffer");
    }
  }

  @Test
  void aSegmentOfTwoGibibytesOrMoreIsReadAsAStream(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("shuffle_0_0_0.data");
    Files.write(file, bytes(16, 6));
    try (FileInputStream fis = new FileInputStream(file.toFile())) {
      InputStream segment = new LimitedInputStream(fis, 1L << 31);
      assertTrue(FetchedBytes.fileSegment(segment).isEmpty());
      assertTrue(FetchedBytes.isFileSegment(segment), "still a file Spark never fetches again");
    }
  }

  @Test
  void otherStreamsAreCopiedAsTheyStream() {
    InputStream plain = new ByteArrayInputStream(bytes(64, 7));
    Option<FetchedBytes.Bytes> none = FetchedBytes.of(plain);
    assertTrue(none.isEmpty());
    assertTrue(FetchedBytes.fileSegment(plain).isEmpty());
    assertFalse(FetchedBytes.isFileSegment(plain));
  }
}
