package io.github.kaeshuffle.codec;

/**
 * The bytes given to a decompressor or a block reader are not a valid block: bad magic, checksum,
 * length or compressed stream. Shuffle readers turn it into a fetch failure so the map output is
 * recomputed; it never means a bug in the caller.
 */
public class CorruptBlockException extends CodecException {
  private static final long serialVersionUID = 1L;

  public CorruptBlockException(String message) {
    super(message);
  }

  public CorruptBlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
