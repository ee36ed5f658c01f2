package io.github.kaeshuffle.format;

import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;

/**
 * One segment held in memory with its index, parsed once: the frames and index occupy
 * {@code [0, limit)} of {@code bytes}, and {@code index} gives every block's offset in it and raw
 * length. Readers take blocks from here instead of parsing the index again.
 *
 * @param bytes the segment's bytes, index 0 at the segment's start
 * @param index its block index, already checked
 */
public record Segment(ByteBuffer bytes, SegmentIndex index) {
  /** Parses the index of the segment that occupies {@code [0, limit)} of {@code bytes}. */
  public static Segment of(ByteBuffer bytes) throws CorruptBlockException {
    return new Segment(bytes, SegmentIndex.parse(bytes));
  }
}
