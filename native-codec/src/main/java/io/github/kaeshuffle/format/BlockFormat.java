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

/**
 * Byte layout of frames and segment indexes (docs/block-format.md is the full description).
 * Everything is little-endian. Lengths are written as sums of their fields so they cannot drift.
 */
public final class BlockFormat {
  private BlockFormat() {}

  public static final int VERSION = 1;

  /** "KAEF" in file order: starts every frame. */
  public static final int FRAME_MAGIC = 0x4645414B;

  /** "KAEI" in file order: starts every segment index. */
  public static final int INDEX_MAGIC = 0x4945414B;

  /** "KAEX" in file order: ends every segment index (and so every segment). */
  public static final int FOOTER_MAGIC = 0x5845414B;

  /**
   * "KAEE" in file order: ends every stream of frames written for Spark's IO ({@link
   * FrameOutputStream}), followed by the version, 3 reserved bytes, the stream's raw length (8
   * bytes) and the CRC32C of those 16 bytes.
   */
  public static final int STREAM_END_MAGIC = 0x4545414B;

  public static final int STREAM_END_LENGTH =
      4 // magic
          + 1 // format version
          + 3 // reserved, 0
          + 8 // raw bytes of the stream's frames
          + 4; // CRC32C of the 16 bytes before it

  /** Frame flag: the payload is the raw block, stored because compression did not shrink it. */
  public static final int FLAG_STORED_RAW = 0x01;

  /**
   * Frame flag: the payload is a 16-byte IV and the AES/CTR ciphertext of the stored bytes ({@link
   * FrameCipher}); the frame's CRC32C covers the plaintext.
   */
  public static final int FLAG_ENCRYPTED = 0x02;

  public static final int FRAME_HEADER_LENGTH =
      4 // magic
          + 1 // format version
          + 1 // codec format id
          + 1 // flags
          + 1 // reserved, 0
          + 4 // raw length
          + 4 // stored (payload) length
          + 4; // CRC32C of the header's first 16 bytes, then the payload

  /** Offset of the checksum field; the checksum covers the header bytes before it. */
  public static final int FRAME_CHECKSUM_OFFSET = FRAME_HEADER_LENGTH - 4;

  public static final int INDEX_HEAD_LENGTH =
      4 // magic
          + 4; // block count
  public static final int INDEX_ENTRY_LENGTH =
      8 // frame offset from the segment's start
          + 4 // raw length
          + 4; // stored length
  public static final int FOOTER_LENGTH =
      8 // total raw length of the segment's blocks
          + 8 // index offset: where the index head starts = total length of the frames
          + 4 // block count (again, so a reader coming from the end knows the index size)
          + 1 // format version
          + 3 // reserved, 0
          + 4 // CRC32C of the index from its head up to this field
          + 4; // magic

  /** Smallest block size a writer takes. */
  public static final int MIN_BLOCK_SIZE = 16 * 1024;

  /** Largest block size a writer takes, and the largest raw length a reader accepts. */
  public static final int MAX_BLOCK_SIZE = 8 * 1024 * 1024;

  public static final int DEFAULT_BLOCK_SIZE = 256 * 1024;

  /** Bytes of index for a segment of {@code blocks} blocks. */
  public static long indexLength(long blocks) {
    return INDEX_HEAD_LENGTH + blocks * INDEX_ENTRY_LENGTH + FOOTER_LENGTH;
  }

  public static void checkBlockSize(int blockSize) {
    if (blockSize < MIN_BLOCK_SIZE || blockSize > MAX_BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "Block size "
              + blockSize
              + " is out of range: use "
              + MIN_BLOCK_SIZE
              + " (16 KiB) to "
              + MAX_BLOCK_SIZE
              + " (8 MiB) bytes.");
    }
  }
}
