package io.github.kaeshuffle.format;

/**
 * Running counts of what an encoder or decoder did; not thread-safe (one per owner). These feed
 * the shuffle metrics: bytes per codec call is {@code rawBytes / codecCalls}.
 */
public final class BlockStats {
  long blocks;
  long codecCalls;
  long rawBytes;
  long storedBytes;
  long storedRawBlocks;
  long codecNanos;

  public long blocks() {
    return blocks;
  }

  /** Calls into the codec: one per block compressed or decompressed, none for stored-raw reads. */
  public long codecCalls() {
    return codecCalls;
  }

  public long rawBytes() {
    return rawBytes;
  }

  /** Payload bytes after compression (frame headers not included). */
  public long storedBytes() {
    return storedBytes;
  }

  public long storedRawBlocks() {
    return storedRawBlocks;
  }

  public long codecNanos() {
    return codecNanos;
  }

  public void add(BlockStats other) {
    blocks += other.blocks;
    codecCalls += other.codecCalls;
    rawBytes += other.rawBytes;
    storedBytes += other.storedBytes;
    storedRawBlocks += other.storedRawBlocks;
    codecNanos += other.codecNanos;
  }

  @Override
  public String toString() {
    return "blocks=" + blocks + " codecCalls=" + codecCalls + " rawBytes=" + rawBytes
        + " storedBytes=" + storedBytes + " storedRawBlocks=" + storedRawBlocks
        + " codecMillis=" + codecNanos / 1_000_000;
  }
}
