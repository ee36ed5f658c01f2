package io.github.kaeshuffle.format;

import io.github.kaeshuffle.codec.CodecException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Reads back the raw bytes of one or more concatenated segments, block by block: each block is
 * decoded whole (one codec call) into a reused buffer and served from there. The segments are
 * split and their indexes checked up front, so a bad index fails before any byte is returned.
 */
public final class SegmentInputStream extends InputStream {
  private final BlockDecoder decoder;
  private final List<ByteBuffer> segments;
  private ByteBuffer block = ByteBuffer.allocate(0);
  private int segment;
  private int blockInSegment;
  private SegmentIndex index;

  public SegmentInputStream(ByteBuffer data, BlockDecoder decoder) throws CodecException {
    this.decoder = decoder;
    this.segments = Segments.split(data);
  }

  private boolean fill() throws IOException {
    while (!block.hasRemaining()) {
      if (index != null && blockInSegment < index.blockCount()) {
        ByteBuffer seg = segments.get(segment - 1);
        int raw = index.rawLength(blockInSegment);
        if (block.capacity() < raw) {
          block = ByteBuffer.allocate(raw);
        }
        block.clear();
        decoder.decode(seg, (int) index.offset(blockInSegment), raw, block);
        block.flip();
        blockInSegment++;
      } else if (segment < segments.size()) {
        index = SegmentIndex.parse(segments.get(segment++));
        blockInSegment = 0;
      } else {
        return false;
      }
    }
    return true;
  }

  @Override
  public int read() throws IOException {
    return fill() ? block.get() & 0xff : -1;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, block.remaining());
    block.get(b, off, n);
    return n;
  }

  @Override
  public int available() {
    return block.remaining();
  }
}
