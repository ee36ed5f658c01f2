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

import static io.github.kaeshuffle.format.BlockFormat.STREAM_END_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.STREAM_END_MAGIC;

import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The mark that ends a stream of frames written for Spark's IO: a stream cut short between two
 * frames would otherwise read as a shorter stream, and a record iterator reading to its end would
 * lose records without an error. It carries the stream's raw length, so a frame lost from the
 * middle is caught as well.
 */
final class StreamEnd {
  private StreamEnd() {}

  /** Writes the mark of a stream of {@code rawBytes} into {@code b} from 0. */
  static void write(byte[] b, long rawBytes) {
    ByteBuffer m = ByteBuffer.wrap(b, 0, STREAM_END_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    m.putInt(0, STREAM_END_MAGIC);
    m.putInt(4, BlockFormat.VERSION); // the version, then 3 reserved bytes of 0
    m.putLong(8, rawBytes);
    m.putInt(16, checksum(b));
  }

  /** Whether the 4 bytes at 0 of {@code b} are the mark's magic. */
  static boolean starts(byte[] b) {
    return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt(0) == STREAM_END_MAGIC;
  }

  /** Checks the mark in {@code b} from 0 against the {@code rawBytes} the stream's frames gave. */
  static void check(byte[] b, long rawBytes) throws CorruptBlockException {
    ByteBuffer m = ByteBuffer.wrap(b, 0, STREAM_END_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    if (m.getInt(16) != checksum(b)) {
      throw new CorruptBlockException("The end mark of a frame stream fails its checksum.");
    }
    if (m.getInt(4) != BlockFormat.VERSION) {
      throw new CorruptBlockException(
          "The end mark of a frame stream has version and reserved bytes 0x"
              + Integer.toHexString(m.getInt(4))
              + "; this reader reads version "
              + BlockFormat.VERSION
              + ".");
    }
    if (m.getLong(8) != rawBytes) {
      throw new CorruptBlockException(
          "A frame stream's end mark says "
              + m.getLong(8)
              + " bytes, its frames gave "
              + rawBytes
              + ": frames are missing.");
    }
  }

  private static int checksum(byte[] b) {
    Crc32c crc = new Crc32c();
    crc.update(b, 0, STREAM_END_LENGTH - 4);
    return (int) crc.getValue();
  }
}
