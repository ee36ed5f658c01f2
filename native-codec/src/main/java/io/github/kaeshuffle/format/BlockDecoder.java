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

import static io.github.kaeshuffle.format.BlockFormat.FRAME_HEADER_LENGTH;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.BlockDecompressor;
import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CodecFormat;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.util.EnumMap;
import java.util.Map;

/**
 * Decodes frames: checks the header, the CRC32C of header and payload, then decompresses with one
 * codec call (or copies a stored-raw payload) into exactly the block's raw length. Frames of any
 * format are read: the preferred codec serves its own format, {@link Codecs#defaultDecoder} the
 * others (a deflate block from a KAEzip node decodes with zlib here). Each format's decompressor is
 * created on first use and reused for every later block (the native stream is reset per block, not
 * re-initialised), so a decoder can serve many streams in turn: the pools of {@code
 * io.github.kaeshuffle.pool} lend them out. Not thread-safe.
 */
public final class BlockDecoder implements AutoCloseable {
  private final BlockCodec preferred;
  private final Map<CodecFormat, BlockDecompressor> decompressors =
      new EnumMap<>(CodecFormat.class);
  private final Crc32c crc = new Crc32c();
  private final BlockStats stats = new BlockStats();

  /** Made when a hardware codec first fails a block (only the preferred codec's format). */
  private BlockDecompressor software;

  /**
   * Set on a software decoder a pool lent because every hardware session was busy: the blocks it
   * decompresses count as {@link BlockStats#overflowBlocks}.
   */
  private boolean overflow;

  /** Set when a decode failed: such a decoder is closed, never handed to another stream. */
  private boolean failed;

  /** A decoder preferring {@code preferred} for its format; null to use the defaults only. */
  /** Decrypts encrypted frames when set; null: an encrypted frame is an error. */
  private final FrameCipher cipher;

  /** An encrypted frame's plaintext, between decryption and decompression. */
  private ByteBuffer plain = ByteBuffer.allocate(0);

  public BlockDecoder(BlockCodec preferred) {
    this(preferred, null);
  }

  /**
   * @param decryptionKey the AES key of encrypted frames ({@link FrameCipher}), or null when no
   *     frame is expected to be encrypted
   */
  public BlockDecoder(BlockCodec preferred, byte[] decryptionKey) {
    this.preferred = preferred;
    this.cipher = decryptionKey == null ? null : new FrameCipher(decryptionKey);
  }

  /**
   * Decodes the frame at absolute index {@code at} of {@code frames} into {@code dst} from its
   * position, advancing it by the raw length, which is returned. {@code expectedRaw} is the raw
   * length the index gives, or -1 when there is no index to compare with.
   */
  public int decode(ByteBuffer frames, int at, int expectedRaw, ByteBuffer dst)
      throws CodecException {
    boolean ok = false;
    try {
      int raw = decodeFrame(frames, at, expectedRaw, dst);
      ok = true;
      return raw;
    } finally {
      failed |= !ok;
    }
  }

  /**
   * Checks the frame at absolute index {@code at} of {@code frames} as {@link #decode} would (its
   * header, the raw length the index gives, its CRC32C, after decryption when encrypted) without
   * decompressing it: a CRC pass over the stored bytes.
   */
  public void verify(ByteBuffer frames, int at, int expectedRaw) throws CodecException {
    FrameHeader h = FrameHeader.parse(frames, at);
    checkRawLength(h, at, expectedRaw);
    checkedPayload(h, frames, at);
  }

  private int decodeFrame(ByteBuffer frames, int at, int expectedRaw, ByteBuffer dst)
      throws CodecException {
    FrameHeader h = FrameHeader.parse(frames, at);
    checkRawLength(h, at, expectedRaw);
    if (dst.remaining() < h.rawLength()) {
      throw new IllegalArgumentException(
          "The destination has "
              + dst.remaining()
              + " bytes left; the block needs "
              + h.rawLength()
              + ".");
    }
    ByteBuffer src = checkedPayload(h, frames, at);
    if (h.storedRaw()) {
      dst.put(src);
      stats.storedRawBlocks++;
    } else {
      long t0 = System.nanoTime();
      decompress(h, src, dst);
      stats.codecNanos += System.nanoTime() - t0;
      stats.codecCalls++;
      stats.overflowBlocks += overflow && preferred.format() == h.format() ? 1 : 0;
    }
    stats.blocks++;
    stats.rawBytes += h.rawLength();
    stats.storedBytes += h.storedLength();
    return h.rawLength();
  }

  /** {@code expectedRaw}: the raw length the segment index gives, or -1 without an index. */
  private static void checkRawLength(FrameHeader h, int at, int expectedRaw)
      throws CorruptBlockException {
    if (expectedRaw >= 0 && h.rawLength() != expectedRaw) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " declares raw length "
              + h.rawLength()
              + " but the segment index says "
              + expectedRaw
              + ".");
    }
  }

  /** The frame's payload (decrypted when encrypted) once its CRC32C checks out. */
  private ByteBuffer checkedPayload(FrameHeader h, ByteBuffer frames, int at)
      throws CodecException {
    int payload = at + FRAME_HEADER_LENGTH;
    ByteBuffer src = ByteBuffers.range(frames, payload, payload + h.storedLength());
    if (h.encrypted()) {
      src = decrypt(src, h, at);
    }
    int computed = FrameHeader.checksum(crc, frames, at, src);
    if (computed != h.checksum()) {
      throw new CorruptBlockException(
          String.format(
              "Frame at offset %d fails its CRC32C check%s: stored 0x%08x, computed 0x%08x.",
              at,
              h.encrypted() ? " after decryption (damaged, or encrypted with another key)" : "",
              h.checksum(),
              computed));
    }
    return src;
  }

  /** The plaintext of an encrypted frame's payload, in {@link #plain}. */
  private ByteBuffer decrypt(ByteBuffer encrypted, FrameHeader h, int at) throws CodecException {
    if (cipher == null) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " is encrypted, and this reader has no key: the shuffle was written with"
              + " spark.io.encryption.enabled=true by another application or configuration.");
    }
    if (plain.capacity() < h.plainLength()) {
      plain = ByteBuffer.allocate(h.plainLength());
    }
    ByteBuffers.clear(plain);
    cipher.decrypt(encrypted, plain);
    return ByteBuffers.flip(plain);
  }

  /**
   * One codec call; when a hardware codec fails, the block is decoded again in software from the
   * same bytes: a hardware fault never fails a read, while corrupt data fails both and is reported
   * by the software decoder.
   */
  private void decompress(FrameHeader h, ByteBuffer src, ByteBuffer dst) throws CodecException {
    if (!hardware(h.format())) {
      decompressor(h.format()).decompress(src, dst, h.rawLength());
      return;
    }
    ByteBuffer srcAgain = src.duplicate();
    int dstStart = dst.position();
    stats.countRequests(preferred, src.remaining());
    try {
      decompressor(h.format()).decompress(src, dst, h.rawLength());
    } catch (CodecException e) {
      dst.position(dstStart);
      software(h.format(), e).decompress(srcAgain, dst, h.rawLength());
      stats.softwareBlocks++;
    }
  }

  /** Marks a software decoder lent in place of a busy hardware one, by the pool that lends it. */
  public void countAsOverflow() {
    overflow = true;
  }

  /** Whether this decoder was lent in place of a busy hardware one. */
  public boolean overflow() {
    return overflow;
  }

  private boolean hardware(CodecFormat format) {
    return preferred != null && preferred.format() == format && preferred.hardware();
  }

  private BlockDecompressor software(CodecFormat format, CodecException fault)
      throws CodecException {
    if (software == null) {
      software = Codecs.software(format, "decompress", fault).newDecompressor();
    }
    return software;
  }

  private BlockDecompressor decompressor(CodecFormat format) throws CodecException {
    BlockDecompressor d = decompressors.get(format);
    if (d == null) {
      BlockCodec codec =
          preferred != null && preferred.format() == format
              ? preferred
              : Codecs.defaultDecoder(format);
      d = codec.newDecompressor();
      decompressors.put(format, d);
    }
    return d;
  }

  public BlockStats stats() {
    return stats;
  }

  /** Whether a decode failed (corrupt input or a codec error) since this decoder was made. */
  public boolean failed() {
    return failed;
  }

  @Override
  public void close() {
    for (BlockDecompressor d : decompressors.values()) {
      d.close();
    }
    if (software != null) {
      software.close();
      software = null;
    }
    decompressors.clear();
  }
}
