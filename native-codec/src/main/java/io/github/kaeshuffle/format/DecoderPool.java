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

/**
 * Decoders shared by the streams and tasks of one process, so a reduce stage opens about one native
 * decompressor per thread that decodes instead of one per fetched stream. Native decompression
 * contexts are not free: zlib allocates its window per {@code inflateInit}, and on KAEzip each one
 * takes a hardware session and an 8 MiB staging buffer. A decoder is lent to one owner at a time;
 * on return its statistics are cleared for the next owner. A decoder whose decode failed is closed,
 * not kept, and so are returns beyond {@code maxIdle}. Thread-safe.
 */
public final class DecoderPool implements DecoderLender, AutoCloseable {
  private final BlockCodec preferred;
  private final IdlePool<BlockDecoder> idle;

  /**
   * @param preferred the codec that decodes blocks of its own format (others use their format's
   *     default decoder); null for the defaults only
   * @param maxIdle most decoders kept for reuse; more returned at once are closed
   */
  public DecoderPool(BlockCodec preferred, int maxIdle) {
    this.preferred = preferred;
    this.idle = new IdlePool<>(maxIdle, BlockDecoder::close);
  }

  /**
   * A decoder with cleared statistics: an idle one, or a new one. Give it back with {@link
   * #giveBack}.
   */
  @Override
  public BlockDecoder borrow() {
    BlockDecoder d = idle.poll();
    if (d == null) {
      d = new BlockDecoder(preferred);
      idle.made();
    }
    d.stats().clear();
    return d;
  }

  /** Takes a decoder back once its owner has read its statistics. */
  @Override
  public void giveBack(BlockDecoder decoder) {
    idle.giveBack(decoder, !decoder.failed());
  }

  /** Decoders created so far: an upper bound on the native decompressors opened per format. */
  public long created() {
    return idle.created();
  }

  /** Closes the idle decoders; decoders still lent out are closed when they come back. */
  @Override
  public void close() {
    idle.close();
  }
}
