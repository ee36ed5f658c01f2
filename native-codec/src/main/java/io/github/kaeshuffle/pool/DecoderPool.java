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
package io.github.kaeshuffle.pool;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.Codecs;
import io.github.kaeshuffle.format.BlockDecoder;
import io.github.kaeshuffle.format.FrameCipher;
import java.io.UncheckedIOException;

/**
 * Decoders shared by the streams and tasks of one process, so a reduce stage opens about one native
 * decompressor per thread that decodes instead of one per fetched stream. Native decompression
 * contexts are not free: zlib allocates its window per {@code inflateInit}, and on KAEzip each one
 * takes a hardware session and an 8 MiB staging buffer. A decoder is lent to one owner at a time;
 * on return its statistics are cleared for the next owner. A decoder whose decode failed is closed,
 * not kept, and so are returns beyond {@code maxIdle}. With a hardware codec at most {@link
 * SessionBound#maxSessions} decoders exist; an owner that finds them all lent waits up to the
 * bound's wait, then gets a software decoder (its blocks count as overflow). The wait is bounded
 * because a task may hold one decoder while its decompress-ahead thread asks for another. Thread-
 * safe.
 */
public final class DecoderPool extends LendingPool<BlockDecoder> implements DecoderLender {
  private final BlockCodec preferred;

  /** Spark's IO encryption key, for encrypted frames; null when none are expected. */
  private final byte[] decryptionKey;

  /**
   * @param preferred the codec that decodes blocks of its own format (others use their format's
   *     default decoder); null for the defaults only
   * @param maxIdle most decoders kept for reuse; more returned at once are closed
   * @param bound with a hardware codec, how many sessions may exist and how long to wait for one
   * @param decryptionKey the AES key of encrypted frames ({@link FrameCipher}), or null
   */
  public DecoderPool(BlockCodec preferred, int maxIdle, SessionBound bound, byte[] decryptionKey) {
    super(
        bound.pool(preferred, maxIdle, BlockDecoder::close),
        maxIdle,
        BlockDecoder::close,
        BlockDecoder::overflow,
        BlockDecoder::failed);
    this.preferred = preferred;
    this.decryptionKey = decryptionKey == null ? null : decryptionKey.clone();
  }

  /** A pool of decoders for plain frames. */
  public DecoderPool(BlockCodec preferred, int maxIdle, SessionBound bound) {
    this(preferred, maxIdle, bound, null);
  }

  /** A pool without a session bound. */
  public DecoderPool(BlockCodec preferred, int maxIdle) {
    this(preferred, maxIdle, SessionBound.NONE);
  }

  /**
   * A decoder with cleared statistics: an idle one, a new one, or when the hardware sessions are
   * all busy a software one. Give it back with {@link #giveBack}.
   */
  @Override
  public BlockDecoder borrow() {
    ContextPool.Take<BlockDecoder> take = contexts.take();
    BlockDecoder d;
    boolean opened = false;
    if (take.full()) {
      d = overflowDecoder();
    } else if (take.idle() != null) {
      d = take.idle();
    } else {
      // A decoder opens its native decompressors on first use, so making one cannot fail.
      d = new BlockDecoder(preferred, decryptionKey);
      contexts.made();
      opened = preferred != null && preferred.hardware();
    }
    d.stats().clear();
    d.stats().lent(opened, take.waitedNanos());
    return d;
  }

  private BlockDecoder overflowDecoder() {
    ContextPool.Take<BlockDecoder> take = overflow.take();
    if (take.idle() != null) {
      return take.idle();
    }
    BlockDecoder d;
    try {
      d = new BlockDecoder(Codecs.software(preferred.format()), decryptionKey);
    } catch (CodecException e) {
      overflow.notMade();
      throw new UncheckedIOException(e);
    }
    overflow.made();
    d.countAsOverflow();
    return d;
  }
}
