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
import io.github.kaeshuffle.format.BlockEncoder;
import io.github.kaeshuffle.format.FrameCipher;

/**
 * Encoders shared by the map tasks of one process, so an executor opens about one native compressor
 * per task slot over a whole job instead of one per map task: on KAEzip each {@code deflateInit} is
 * a hardware session with an 8 MiB staging buffer. An encoder is lent to one task at a time; its
 * statistics are cleared for the next. One whose encode failed is closed, not kept, and so are
 * returns beyond {@code maxIdle}. With a hardware codec at most {@link SessionBound#maxSessions}
 * encoders exist; a task that finds them all lent waits up to the bound's wait, then gets a
 * software encoder of the same format (its blocks count as overflow). Thread-safe.
 */
public final class EncoderPool extends LendingPool<BlockEncoder> {
  private final BlockCodec codec;
  private final boolean probeIncompressible;
  private final int softwareBelow;

  /** Spark's IO encryption key, every frame encrypted with it; null for plain frames. */
  private final byte[] encryptionKey;

  /**
   * @param probeIncompressible whether the encoders probe blocks before the codec ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean)})
   * @param softwareBelow with a hardware codec, blocks shorter than this go to software ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean, int)})
   * @param maxIdle most encoders kept for reuse; more returned at once are closed
   * @param bound with a hardware codec, how many sessions may exist and how long to wait for one
   * @param encryptionKey the AES key the encoders encrypt every frame with ({@link FrameCipher}),
   *     or null
   */
  public EncoderPool(
      BlockCodec codec,
      boolean probeIncompressible,
      int softwareBelow,
      int maxIdle,
      SessionBound bound,
      byte[] encryptionKey) {
    super(
        bound.pool(codec, maxIdle, BlockEncoder::close),
        maxIdle,
        BlockEncoder::close,
        BlockEncoder::overflow,
        BlockEncoder::failed);
    this.codec = codec;
    this.encryptionKey = encryptionKey == null ? null : encryptionKey.clone();
    this.probeIncompressible = probeIncompressible;
    this.softwareBelow = softwareBelow;
  }

  /** A pool of plain-frame encoders. */
  public EncoderPool(
      BlockCodec codec,
      boolean probeIncompressible,
      int softwareBelow,
      int maxIdle,
      SessionBound bound) {
    this(codec, probeIncompressible, softwareBelow, maxIdle, bound, null);
  }

  /** A pool without a session bound. */
  public EncoderPool(
      BlockCodec codec, boolean probeIncompressible, int softwareBelow, int maxIdle) {
    this(codec, probeIncompressible, softwareBelow, maxIdle, SessionBound.NONE);
  }

  /**
   * An encoder with cleared statistics: an idle one, a new one (a new compressor), or when the
   * hardware sessions are all busy a software one. Its statistics say whether it opened a session
   * and how long it waited.
   */
  public BlockEncoder borrow() throws CodecException {
    ContextPool.Take<BlockEncoder> take = contexts.take();
    BlockEncoder e = take.full() ? overflowEncoder() : take.idle();
    boolean opened = false;
    if (e == null) {
      // Not under the pool's lock: opening a compressor may wait for the library (KAEzip's init
      // mutex).
      e = make(contexts, codec, softwareBelow);
      opened = codec.hardware();
    }
    e.stats().clear();
    e.stats().lent(opened, take.waitedNanos());
    return e;
  }

  private BlockEncoder overflowEncoder() throws CodecException {
    ContextPool.Take<BlockEncoder> take = overflow.take();
    if (take.idle() != null) {
      return take.idle();
    }
    BlockEncoder e = make(overflow, Codecs.software(codec.format()), 0);
    e.countAsOverflow();
    return e;
  }

  private BlockEncoder make(ContextPool<BlockEncoder> pool, BlockCodec with, int below)
      throws CodecException {
    try {
      BlockEncoder e = new BlockEncoder(with, probeIncompressible, below, encryptionKey);
      pool.made();
      return e;
    } catch (CodecException | RuntimeException e) {
      pool.notMade();
      throw e;
    }
  }
}
