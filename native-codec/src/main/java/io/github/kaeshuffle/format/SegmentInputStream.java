package io.github.kaeshuffle.format;

import io.github.kaeshuffle.codec.CodecException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Reads back the raw bytes of one or more concatenated segments, block by block: each block is
 * decoded whole (one codec call) into a reused buffer and served from there. The segments are
 * split and their indexes checked up front, so a bad index fails before any byte is returned.
 */
public final class SegmentInputStream extends BlockSourceInputStream {
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

  @Override
  protected ByteBuffer nextBlock() throws IOException {
    while (true) {
      if (index != null && blockInSegment < index.blockCount()) {
        ByteBuffer seg = segments.get(segment - 1);
        int raw = index.rawLength(blockInSegment);
        if (block.capacity() < raw) {
          block = ByteBuffer.allocate(raw);
        }
        block.clear();
        decoder.decode(seg, (int) index.offset(blockInSegment), raw, block);
        blockInSegment++;
        return block.flip();
      } else if (segment < segments.size()) {
        index = SegmentIndex.parse(segments.get(segment++));
        blockInSegment = 0;
      } else {
        return null;
      }
    }
  }
}
