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

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.codec.CodecException;

/**
 * Encoders shared by the map tasks of one process, so an executor opens about one native compressor
 * per task slot over a whole job instead of one per map task: on KAEzip each {@code deflateInit} is
 * a hardware session with an 8 MiB staging buffer. An encoder is lent to one task at a time; its
 * statistics are cleared for the next. One whose encode failed is closed, not kept, and so are
 * returns beyond {@code maxIdle}. Thread-safe.
 */
public final class EncoderPool implements AutoCloseable {
  private final BlockCodec codec;
  private final boolean probeIncompressible;
  private final int softwareBelow;
  private final IdlePool<BlockEncoder> idle;

  /**
   * @param probeIncompressible whether the encoders probe blocks before the codec ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean)})
   * @param softwareBelow with a hardware codec, blocks shorter than this go to software ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean, int)})
   * @param maxIdle most encoders kept for reuse; more returned at once are closed
   */
  public EncoderPool(
      BlockCodec codec, boolean probeIncompressible, int softwareBelow, int maxIdle) {
    this.codec = codec;
    this.probeIncompressible = probeIncompressible;
    this.softwareBelow = softwareBelow;
    this.idle = new IdlePool<>(maxIdle, BlockEncoder::close);
  }

  /** An encoder with cleared statistics: an idle one, or a new one (a new compressor). */
  public BlockEncoder borrow() throws CodecException {
    BlockEncoder e = idle.poll();
    if (e != null) {
      e.stats().clear();
      return e;
    }
    // Not under the pool's lock: opening a compressor may wait for the library (KAEzip's init
    // mutex).
    e = new BlockEncoder(codec, probeIncompressible, softwareBelow);
    idle.made();
    return e;
  }

  /** Takes an encoder back once its owner has read its statistics. */
  public void giveBack(BlockEncoder encoder) {
    idle.giveBack(encoder, !encoder.failed());
  }

  /** Encoders created so far: the native compressors this pool opened. */
  public long created() {
    return idle.created();
  }

  /** Closes the idle encoders; encoders still lent out are closed when they come back. */
  @Override
  public void close() {
    idle.close();
  }
}
