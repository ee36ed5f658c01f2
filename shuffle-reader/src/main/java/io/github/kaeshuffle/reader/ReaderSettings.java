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
package io.github.kaeshuffle.reader;

import io.github.kaeshuffle.codec.BlockCodec;

/**
 * What a reduce-side reader needs, resolved by the shuffle manager.
 *
 * @param decoderCodec the codec that decodes blocks of its own format (other formats use the
 *     default decoder of theirs); null for the defaults only
 * @param prefetch decompress ahead of the deserializer on a background thread
 * @param windowSize bytes of decoded blocks that may wait for the deserializer, per stream
 * @param windowKind how that window is backed
 * @param slotSize bytes per window slot: the largest block expected (the block size)
 * @param maxInMemoryRemote largest fetched (remote) range decoded ahead from memory; larger ones
 *     are decoded as they stream in
 * @param localReadLimit largest segment on this host read into a heap copy; larger ones are mapped
 */
public final class ReaderSettings {
  private final BlockCodec decoderCodec;
  private final boolean prefetch;
  private final long windowSize;
  private final DecodeWindow.Kind windowKind;
  private final int slotSize;
  private final long maxInMemoryRemote;
  private final int localReadLimit;

  public ReaderSettings(
      BlockCodec decoderCodec,
      boolean prefetch,
      long windowSize,
      DecodeWindow.Kind windowKind,
      int slotSize,
      long maxInMemoryRemote,
      int localReadLimit) {
    this.decoderCodec = decoderCodec;
    this.prefetch = prefetch;
    this.windowSize = windowSize;
    this.windowKind = windowKind;
    this.slotSize = slotSize;
    this.maxInMemoryRemote = maxInMemoryRemote;
    this.localReadLimit = localReadLimit;
  }

  public BlockCodec decoderCodec() {
    return decoderCodec;
  }

  public boolean prefetch() {
    return prefetch;
  }

  public long windowSize() {
    return windowSize;
  }

  public DecodeWindow.Kind windowKind() {
    return windowKind;
  }

  public int slotSize() {
    return slotSize;
  }

  public long maxInMemoryRemote() {
    return maxInMemoryRemote;
  }

  public int localReadLimit() {
    return localReadLimit;
  }

  /** Slots per window: the window size in blocks, at least 2. */
  public int slots(int blockSize) {
    return (int) Math.max(2, Math.min(1024, windowSize / Math.max(1, blockSize)));
  }
}
