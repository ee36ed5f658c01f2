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

import static io.github.kaeshuffle.format.BlockFormat.FLAG_ENCRYPTED;
import static io.github.kaeshuffle.format.BlockFormat.FLAG_STORED_RAW;
import static io.github.kaeshuffle.format.BlockFormat.FRAME_CHECKSUM_OFFSET;
import static io.github.kaeshuffle.format.BlockFormat.FRAME_HEADER_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.MAX_BLOCK_SIZE;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.BlockCompressor;
import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.Codecs;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Turns one raw block into one frame with exactly one codec call. If the compressed payload is not
 * strictly smaller than the block, the raw bytes are stored instead, so a frame's payload is never
 * larger than its block. With the {@link IncompressibleProbe} on, a block the probe judges
 * incompressible is stored raw with no codec call at all. Not thread-safe; owns one compressor,
 * reused for every block.
 */
public final class BlockEncoder implements AutoCloseable {
  private final BlockCodec codec;
  private final BlockCompressor compressor;
  private final Crc32c crc = new Crc32c();
  private final BlockStats stats = new BlockStats();
  private final IncompressibleProbe probe;

  /** Encrypts every frame's payload when set (Spark's IO encryption); null: frames are plain. */
  private final FrameCipher cipher;

  /** Bytes an encrypted payload has before its ciphertext: the IV, or 0 without encryption. */
  private final int ivLength;

  /** Blocks shorter than this go to {@link #software} (hardware codecs only). */
  private final int softwareBelow;

  /**
   * Made when a hardware codec first fails a block, or first meets a block under {@link
   * #softwareBelow}: those blocks use it.
   */
  private BlockCompressor software;

  /**
   * Set on a software encoder a pool lent because every hardware session was busy: its blocks count
   * as {@link BlockStats#overflowBlocks}.
   */
  private boolean overflow;

  /** Set when an encode failed: such an encoder is closed, never lent out again. */
  private boolean failed;

  /** An encoder that calls the codec for every block. */
  public BlockEncoder(BlockCodec codec) throws CodecException {
    this(codec, false);
  }

  /**
   * @param probeIncompressible test each block with an {@link IncompressibleProbe} first and store
   *     the ones it judges incompressible raw, without calling the codec
   */
  public BlockEncoder(BlockCodec codec, boolean probeIncompressible) throws CodecException {
    this(codec, probeIncompressible, 0);
  }

  /**
   * @param softwareBelow with a hardware codec, blocks shorter than this many bytes are compressed
   *     in software (same format): each hardware request has a fixed cost, and a partition's last
   *     block is often tiny; 0 sends every block to the hardware
   */
  public BlockEncoder(BlockCodec codec, boolean probeIncompressible, int softwareBelow)
      throws CodecException {
    this(codec, probeIncompressible, softwareBelow, null);
  }

  /**
   * @param encryptionKey the AES key every frame's payload is encrypted with ({@link FrameCipher}),
   *     or null for plain frames
   */
  public BlockEncoder(
      BlockCodec codec, boolean probeIncompressible, int softwareBelow, byte[] encryptionKey)
      throws CodecException {
    if (softwareBelow < 0) {
      throw new IllegalArgumentException("softwareBelow cannot be negative: " + softwareBelow);
    }
    this.codec = codec;
    this.compressor = codec.newCompressor();
    this.probe = probeIncompressible ? new IncompressibleProbe() : null;
    this.softwareBelow = codec.hardware() ? softwareBelow : 0;
    this.cipher = encryptionKey == null ? null : new FrameCipher(encryptionKey);
    this.ivLength = cipher == null ? 0 : FrameCipher.IV_LENGTH;
  }

  public BlockCodec codec() {
    return codec;
  }

  /** Room an output needs to take the frame of a {@code rawLength}-byte block. */
  public int maxFrameLength(int rawLength) {
    return FRAME_HEADER_LENGTH
        + ivLength
        + Math.max(rawLength, codec.maxCompressedLength(rawLength));
  }

  /**
   * Encodes the remaining bytes of {@code raw} (1 to {@link BlockFormat#MAX_BLOCK_SIZE}) as a frame
   * written at {@code out}'s position, which must have {@link #maxFrameLength} bytes left. Advances
   * both buffers; returns the frame's length.
   */
  public int encode(ByteBuffer raw, ByteBuffer out) throws CodecException {
    boolean ok = false;
    try {
      int length = encodeBlock(raw, out);
      ok = true;
      return length;
    } finally {
      failed |= !ok;
    }
  }

  private int encodeBlock(ByteBuffer raw, ByteBuffer out) throws CodecException {
    int rawLength = raw.remaining();
    checkRoom(rawLength, out);
    int start = out.position();
    // The stored bytes; an encrypted frame's IV goes in front of them.
    int text = start + FRAME_HEADER_LENGTH + ivLength;
    ByteBuffer payload = out.duplicate();
    payload.position(text);
    int stored = compressOrSkip(raw, payload);
    int flags = cipher == null ? 0 : FLAG_ENCRYPTED;
    if (stored >= rawLength) {
      stored = rawLength;
      flags |= FLAG_STORED_RAW;
      ByteBuffers.putAt(out, text, raw, raw.position(), rawLength);
      stats.storedRawBlocks++;
    }
    FrameHeader.writeFields(out, start, codec.format(), flags, rawLength, ivLength + stored);
    // The checksum covers the plaintext: a frame decrypted with another key fails it.
    int checksum =
        FrameHeader.checksum(crc, out, start, ByteBuffers.range(out, text, text + stored));
    out.duplicate().order(ByteOrder.LITTLE_ENDIAN).putInt(start + FRAME_CHECKSUM_OFFSET, checksum);
    if (cipher != null) {
      cipher.encryptInPlace(out, start + FRAME_HEADER_LENGTH, stored);
    }
    raw.position(raw.limit());
    out.position(text + stored);
    stats.blocks++;
    stats.rawBytes += rawLength;
    stats.storedBytes += ivLength + stored;
    return FRAME_HEADER_LENGTH + ivLength + stored;
  }

  private void checkRoom(int rawLength, ByteBuffer out) {
    if (rawLength < 1 || rawLength > MAX_BLOCK_SIZE) {
      throw new IllegalArgumentException(
          "A block must hold 1 to " + MAX_BLOCK_SIZE + " bytes, not " + rawLength + ".");
    }
    if (out.remaining() < maxFrameLength(rawLength)) {
      throw new IllegalArgumentException(
          "The output has "
              + out.remaining()
              + " bytes left; a "
              + rawLength
              + "-byte block may need "
              + maxFrameLength(rawLength)
              + ".");
    }
  }

  /**
   * Compresses the block into {@code payload} unless the probe finds it incompressible; returns the
   * compressed length, or the raw length when the block is to be stored raw. {@code raw} is left
   * where it was.
   */
  private int compressOrSkip(ByteBuffer raw, ByteBuffer payload) throws CodecException {
    long t0 = System.nanoTime();
    int stored;
    if (probe != null && probe.looksIncompressible(raw)) {
      stored = raw.remaining();
      stats.probedRawBlocks++;
    } else {
      stored = compress(raw.duplicate(), payload);
      stats.codecCalls++;
      stats.overflowBlocks += overflow ? 1 : 0;
    }
    // The probe's time counts as the codec's: it is the codec layer's work for this block.
    stats.codecNanos += System.nanoTime() - t0;
    return stored;
  }

  /**
   * One codec call for the block; when a hardware codec fails, the block is compressed again in
   * software (same format) from the untouched input, so no task fails for a hardware fault.
   */
  private int compress(ByteBuffer raw, ByteBuffer payload) throws CodecException {
    if (raw.remaining() < softwareBelow) {
      if (software == null) {
        software = Codecs.software(codec.format()).newCompressor();
      }
      stats.smallSoftwareBlocks++;
      return software.compress(raw, payload);
    }
    if (!codec.hardware()) {
      return compressor.compress(raw, payload);
    }
    ByteBuffer rawAgain = raw.duplicate();
    ByteBuffer payloadAgain = payload.duplicate();
    stats.countRequests(codec, raw.remaining());
    try {
      return compressor.compress(raw, payload);
    } catch (CodecException e) {
      if (software == null) {
        software = Codecs.software(codec.format(), "compress", e).newCompressor();
      }
      stats.softwareBlocks++;
      return software.compress(rawAgain, payloadAgain);
    }
  }

  public BlockStats stats() {
    return stats;
  }

  /** Marks a software encoder lent in place of a busy hardware one, by the pool that lends it. */
  public void countAsOverflow() {
    overflow = true;
  }

  /** Whether this encoder was lent in place of a busy hardware one. */
  public boolean overflow() {
    return overflow;
  }

  /** Whether an encode failed since this encoder was made (bad arguments or a codec error). */
  public boolean failed() {
    return failed;
  }

  @Override
  public void close() {
    if (software != null) {
      software.close();
    }
    compressor.close();
  }
}
