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
import java.util.ArrayDeque;
import java.util.Deque;

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
  private final int maxIdle;
  private final Deque<BlockEncoder> idle = new ArrayDeque<>();
  private long created;
  private boolean closed;

  /**
   * @param probeIncompressible whether the encoders probe blocks before the codec ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean)})
   * @param softwareBelow with a hardware codec, blocks shorter than this go to software ({@link
   *     BlockEncoder#BlockEncoder(BlockCodec, boolean, int)})
   * @param maxIdle most encoders kept for reuse; more returned at once are closed
   */
  public EncoderPool(
      BlockCodec codec, boolean probeIncompressible, int softwareBelow, int maxIdle) {
    if (maxIdle < 0) {
      throw new IllegalArgumentException("maxIdle cannot be negative: " + maxIdle);
    }
    this.codec = codec;
    this.probeIncompressible = probeIncompressible;
    this.softwareBelow = softwareBelow;
    this.maxIdle = maxIdle;
  }

  /** An encoder with cleared statistics: an idle one, or a new one (a new compressor). */
  public BlockEncoder borrow() throws CodecException {
    synchronized (this) {
      BlockEncoder e = idle.pollFirst();
      if (e != null) {
        e.stats().clear();
        return e;
      }
    }
    // Outside the lock: opening a compressor may wait for the library (KAEzip's init mutex).
    BlockEncoder e = new BlockEncoder(codec, probeIncompressible, softwareBelow);
    synchronized (this) {
      created++;
    }
    return e;
  }

  /** Takes an encoder back once its owner has read its statistics. */
  public void giveBack(BlockEncoder encoder) {
    synchronized (this) {
      if (!closed && !encoder.failed() && idle.size() < maxIdle) {
        idle.addFirst(encoder);
        return;
      }
    }
    encoder.close();
  }

  /** Encoders created so far: the native compressors this pool opened. */
  public synchronized long created() {
    return created;
  }

  /** Closes the idle encoders; encoders still lent out are closed when they come back. */
  @Override
  public synchronized void close() {
    closed = true;
    for (BlockEncoder e : idle) {
      e.close();
    }
    idle.clear();
  }
}
