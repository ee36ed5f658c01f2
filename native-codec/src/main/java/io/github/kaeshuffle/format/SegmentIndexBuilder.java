package io.github.kaeshuffle.format;

import static io.github.kaeshuffle.format.BlockFormat.FOOTER_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.FOOTER_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_ENTRY_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_HEAD_LENGTH;
import static io.github.kaeshuffle.format.BlockFormat.INDEX_MAGIC;
import static io.github.kaeshuffle.format.BlockFormat.VERSION;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * Collects the frames of one segment, in order, and writes the block index that closes it. Frames
 * are assumed contiguous from the segment's start, as {@link SegmentWriter} writes them.
 */
public final class SegmentIndexBuilder {
  private long[] entries = new long[16]; // raw length << 32 | stored length, per block
  private int count;
  private long framesLength;
  private long totalRaw;

  /** Records the next frame: its raw and stored (payload) length. */
  public void add(int rawLength, int storedLength) {
    if (count == entries.length) {
      entries = Arrays.copyOf(entries, count * 2);
    }
    entries[count++] = ((long) rawLength << 32) | (storedLength & 0xffffffffL);
    framesLength += BlockFormat.FRAME_HEADER_LENGTH + storedLength;
    totalRaw += rawLength;
  }

  public int blockCount() {
    return count;
  }

  /** Bytes of frames recorded so far: where the index will start. */
  public long framesLength() {
    return framesLength;
  }

  public long totalRawLength() {
    return totalRaw;
  }

  public int indexLength() {
    return Math.toIntExact(BlockFormat.indexLength(count));
  }

  /** The index as bytes; a segment is its frames followed by these. */
  public ByteBuffer build() {
    if (count == 0) {
      throw new IllegalStateException("An empty segment has no index: write nothing instead.");
    }
    ByteBuffer b = ByteBuffer.allocate(indexLength()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(INDEX_MAGIC).putInt(count);
    long offset = 0;
    for (int i = 0; i < count; i++) {
      int raw = (int) (entries[i] >>> 32);
      int stored = (int) entries[i];
      b.putLong(offset).putInt(raw).putInt(stored);
      offset += BlockFormat.FRAME_HEADER_LENGTH + stored;
    }
    b.putLong(totalRaw).putLong(framesLength).putInt(count).put((byte) VERSION)
        .put((byte) 0).put((byte) 0).put((byte) 0);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue()).putInt(FOOTER_MAGIC);
    assert b.position() == INDEX_HEAD_LENGTH + count * INDEX_ENTRY_LENGTH + FOOTER_LENGTH;
    return b.flip();
  }

  /** Forgets all frames, to build the next segment. */
  public void reset() {
    count = 0;
    framesLength = 0;
    totalRaw = 0;
  }
}
