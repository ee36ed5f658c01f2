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
import static io.github.kaeshuffle.format.BlockFormat.FRAME_HEADER_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.FRAME_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.MAX_BLOCK_SIZE;
import static io.github.kaeshuffle.format.BlockFormat.VERSION;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecFormat;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * One frame's header, parsed and checked for internal consistency. The checksum is verified against
 * the payload by {@link BlockDecoder}, not here.
 */
public final class FrameHeader {
  private final CodecFormat format;
  private final int flags;
  private final int rawLength;
  private final int storedLength;
  private final int checksum;

  public FrameHeader(CodecFormat format, int flags, int rawLength, int storedLength, int checksum) {
    this.format = format;
    this.flags = flags;
    this.rawLength = rawLength;
    this.storedLength = storedLength;
    this.checksum = checksum;
  }

  public CodecFormat format() {
    return format;
  }

  public int flags() {
    return flags;
  }

  public int rawLength() {
    return rawLength;
  }

  public int storedLength() {
    return storedLength;
  }

  public int checksum() {
    return checksum;
  }

  public boolean storedRaw() {
    return (flags & FLAG_STORED_RAW) != 0;
  }

  public boolean encrypted() {
    return (flags & FLAG_ENCRYPTED) != 0;
  }

  /** The stored bytes before encryption: the payload less its IV when encrypted. */
  public int plainLength() {
    return encrypted() ? storedLength - FrameCipher.IV_LENGTH : storedLength;
  }

  public int frameLength() {
    return FRAME_HEADER_LENGTH + storedLength;
  }

  /**
   * The checksum of the frame whose header is at {@code at} of {@code header} and whose checked
   * payload bytes are {@code payload}'s remaining ones: the stored payload, or for an encrypted
   * frame its plaintext.
   */
  static int checksum(Crc32c crc, ByteBuffer header, int at, ByteBuffer payload) {
    crc.reset();
    crc.update(ByteBuffers.range(header, at, at + BlockFormat.FRAME_CHECKSUM_OFFSET));
    crc.update(payload.duplicate());
    return (int) crc.getValue();
  }

  /** Writes the first 16 header bytes (all but the checksum) at {@code at}. */
  static void writeFields(
      ByteBuffer out, int at, CodecFormat format, int flags, int rawLength, int storedLength) {
    ByteBuffer b = out.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(at, FRAME_MAGIC);
    b.put(at + 4, (byte) VERSION);
    b.put(at + 5, (byte) format.id());
    b.put(at + 6, (byte) flags);
    b.put(at + 7, (byte) 0);
    b.putInt(at + 8, rawLength);
    b.putInt(at + 12, storedLength);
  }

  /**
   * Parses the header at absolute index {@code at} of {@code buf}, which must hold the whole frame
   * ({@code limit - at >= frameLength}). Throws when any field is impossible.
   */
  public static FrameHeader parse(ByteBuffer buf, int at) throws CorruptBlockException {
    if (at < 0 || buf.limit() - at < FRAME_HEADER_LENGTH) {
      throw new CorruptBlockException(
          "Truncated frame: "
              + Math.max(0, buf.limit() - at)
              + " bytes left at offset "
              + at
              + ", a frame header needs "
              + FRAME_HEADER_LENGTH
              + ".");
    }
    ByteBuffer b = buf.duplicate().order(ByteOrder.LITTLE_ENDIAN);
    int magic = b.getInt(at);
    if (magic != FRAME_MAGIC) {
      throw new CorruptBlockException(
          String.format(
              "Bad frame magic 0x%08x at offset %d (expected 0x%08x).", magic, at, FRAME_MAGIC));
    }
    int version = b.get(at + 4) & 0xff;
    if (version != VERSION) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " has format version "
              + version
              + "; this reader reads version "
              + VERSION
              + ".");
    }
    FrameHeader h = fields(b, at);
    if ((long) buf.limit() - at - FRAME_HEADER_LENGTH < h.storedLength()) {
      throw new CorruptBlockException(
          "Truncated frame at offset "
              + at
              + ": payload of "
              + h.storedLength()
              + " bytes, only "
              + (buf.limit() - at - FRAME_HEADER_LENGTH)
              + " left.");
    }
    return h;
  }

  /** Reads and checks the header's fields after its magic and version. */
  private static FrameHeader fields(ByteBuffer b, int at) throws CorruptBlockException {
    int codecId = b.get(at + 5) & 0xff;
    CodecFormat format = CodecFormat.ofId(codecId);
    int flags = b.get(at + 6) & 0xff;
    int reserved = b.get(at + 7) & 0xff;
    int raw = b.getInt(at + 8);
    int stored = b.getInt(at + 12);
    int checksum = b.getInt(at + 16);
    if (format == null) {
      throw new CorruptBlockException(
          "Frame at offset " + at + " names unknown codec id " + codecId + ".");
    }
    if ((flags & ~(FLAG_STORED_RAW | FLAG_ENCRYPTED)) != 0 || reserved != 0) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " has unknown flags 0x"
              + Integer.toHexString(flags)
              + " or reserved byte "
              + reserved
              + ".");
    }
    if (raw < 1 || raw > MAX_BLOCK_SIZE) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " declares raw length "
              + raw
              + ", outside 1.."
              + MAX_BLOCK_SIZE
              + ".");
    }
    boolean storedRaw = (flags & FLAG_STORED_RAW) != 0;
    // Compressed payloads are kept only when strictly smaller than the raw block; encryption adds
    // the IV in front.
    int plain = (flags & FLAG_ENCRYPTED) != 0 ? stored - FrameCipher.IV_LENGTH : stored;
    if (plain < 1 || plain > raw || storedRaw != (plain == raw)) {
      throw new CorruptBlockException(
          "Frame at offset "
              + at
              + " declares stored length "
              + stored
              + " for raw length "
              + raw
              + (storedRaw ? " stored raw." : " compressed."));
    }
    return new FrameHeader(format, flags, raw, stored, checksum);
  }

  @Override
  public boolean equals(Object other) {
    if (!(other instanceof FrameHeader)) {
      return false;
    }
    FrameHeader o = (FrameHeader) other;
    return Objects.equals(format, o.format)
        && flags == o.flags
        && rawLength == o.rawLength
        && storedLength == o.storedLength
        && checksum == o.checksum;
  }

  @Override
  public int hashCode() {
    return Objects.hash(format, flags, rawLength, storedLength, checksum);
  }

  @Override
  public String toString() {
    return "FrameHeader["
        + "format="
        + format
        + ", flags="
        + flags
        + ", rawLength="
        + rawLength
        + ", storedLength="
        + storedLength
        + ", checksum="
        + checksum
        + "]";
  }
}
