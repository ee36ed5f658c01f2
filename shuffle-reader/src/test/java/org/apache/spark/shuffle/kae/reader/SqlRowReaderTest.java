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
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.junit.jupiter.api.Test;
import scala.Tuple2;
import scala.collection.AbstractIterator;

/** SqlRowReader reads Spark SQL's row stream format exactly, and keeps Spark's row contract. */
class SqlRowReaderTest {

  /** Rows of 8-byte multiples (as UnsafeRow's are), from empty to larger than a buffer. */
  private static List<byte[]> rows(Random random, int count) {
    List<byte[]> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int size = 8 * (i % 97 == 0 ? random.nextInt(20_000) : random.nextInt(12));
      byte[] row = new byte[size];
      random.nextBytes(row);
      rows.add(row);
    }
    return rows;
  }

  /** The format of UnsafeRowSerializer's streams: a big-endian length, then the row's bytes. */
  private static byte[] stream(List<byte[]> rows) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    for (byte[] row : rows) {
      out.writeInt(row.length);
      out.write(row);
    }
    out.flush();
    return bytes.toByteArray();
  }

  /** A stream that returns at most `chunk` bytes per read, and counts closes. */
  private static InputStream chunked(byte[] bytes, int chunk, AtomicInteger closes) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, chunk));
      }

      @Override
      public void close() {
        closes.incrementAndGet();
      }
    };
  }

  private static SqlRowReader reader(List<InputStream> streams) {
    // A Scala iterator over the list (no converter serves both Scala 2.12 and 2.13 from Java).
    Iterator<InputStream> it = streams.iterator();
    return new SqlRowReader(
        new AbstractIterator<InputStream>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public InputStream next() {
            return it.next();
          }
        },
        3);
  }

  private static byte[] bytesOf(UnsafeRow row) {
    return row.getBytes();
  }

  @Test
  void readsEveryRowOfEveryStreamWhateverTheReadSizes() throws IOException {
    Random random = new Random(42);
    for (int chunk : new int[] {1, 3, 4096, 65_536, 1 << 20}) {
      List<List<byte[]>> perStream = new ArrayList<>();
      List<InputStream> streams = new ArrayList<>();
      AtomicInteger closes = new AtomicInteger();
      for (int s = 0; s < 5; s++) {
        List<byte[]> rows = rows(random, s == 2 ? 0 : 500 + s * 300);
        perStream.add(rows);
        streams.add(chunked(stream(rows), chunk, closes));
      }
      SqlRowReader reader = reader(streams);
      UnsafeRow first = null;
      for (List<byte[]> rows : perStream) {
        for (byte[] expected : rows) {
          assertTrue(reader.hasNext());
          Tuple2<Object, UnsafeRow> record = reader.next();
          assertEquals(0, record._1());
          if (first == null) first = record._2();
          assertSame(first, record._2(), "one row object, as Spark's deserializer");
          assertArrayEquals(expected, bytesOf(record._2()));
          assertEquals(3, record._2().numFields());
        }
      }
      assertFalse(reader.hasNext());
      assertEquals(5, closes.get(), "every stream closed at its end");
    }
  }

  @Test
  void theRowReturnedLastStaysIntactUntilTheNextNext() throws IOException {
    // Reads of 1,000 bytes keep the first buffers; reads of 1 MiB grow them while rows are held.
    for (int chunk : new int[] {1000, 1 << 20}) {
      Random random = new Random(7);
      List<byte[]> rows = rows(random, 3000);
      SqlRowReader reader = reader(List.of(chunked(stream(rows), chunk, new AtomicInteger())));
      for (byte[] expected : rows) {
        UnsafeRow row = reader.next()._2();
        // Asking for more reads more bytes; the row must not move or change.
        reader.hasNext();
        assertArrayEquals(expected, bytesOf(row));
      }
      assertFalse(reader.hasNext());
    }
  }

  @Test
  void aStreamEndingInsideARowIsAnError() throws IOException {
    byte[] whole = stream(List.of(new byte[64], new byte[64]));
    // Inside the second row's length, and inside its bytes.
    for (int cut : new int[] {4 + 64 + 2, 4 + 64 + 4 + 10}) {
      byte[] truncated = Arrays.copyOf(whole, cut);
      SqlRowReader reader = reader(List.of(new ByteArrayInputStream(truncated)));
      reader.next();
      assertThrows(EOFException.class, reader::next);
    }
  }

  @Test
  void aNegativeLengthIsAnError() throws IOException {
    byte[] bytes = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0, 1, 2, 3, 4};
    SqlRowReader reader = reader(List.of(new ByteArrayInputStream(bytes)));
    IOException e = assertThrows(IOException.class, reader::next);
    assertTrue(e.getMessage().contains("row length -16"), e.getMessage());
  }
}
