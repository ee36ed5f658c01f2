package io.github.kaeshuffle.codec;

import java.nio.ByteBuffer;

/**
 * Compresses whole blocks with one codec call each. Not thread-safe: one owner, reused across
 * blocks (the codec's state is reset, never re-created, per block), closed when done.
 */
public interface BlockCompressor extends AutoCloseable {
  /**
   * Compresses {@code src[srcOff, srcOff + srcLen)} into {@code dst} at {@code dstOff}, which must
   * have room for {@link BlockCodec#maxCompressedLength}; returns the compressed length.
   */
  int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen)
      throws CodecException;

  /**
   * Compresses the remaining bytes of {@code src} into {@code dst} from its position; {@code dst}
   * must have {@link BlockCodec#maxCompressedLength} bytes remaining. Heap or direct buffers, in
   * any mix. Advances both positions; returns the compressed length.
   */
  int compress(ByteBuffer src, ByteBuffer dst) throws CodecException;

  /** Blocks compressed so far by this context: one per call. */
  long calls();

  @Override
  void close();
}
