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
package io.github.kaeshuffle.writer;

import io.github.kaeshuffle.codec.BlockCodec;
import io.github.kaeshuffle.format.BlockFormat;
import java.util.Objects;

/**
 * What a map-side writer needs, already resolved and checked where the settings are read
 * (KaeShuffleSettings): writers never read SparkConf themselves, and the buffer sizes are checked
 * again only by the component that uses them (PartitionedBlockBuffer).
 *
 * @param codec the block codec chosen for this executor
 * @param blockSize raw bytes per block (every block but a partition's last is exactly this long)
 * @param maxMemory most memory one task's block writer holds, 0 for no limit of its own
 * @param initialBufferSize first size of a partition's raw buffer in the block writer
 * @param largeBufferMemory most bytes of one task's raw buffers past their chain of small chunks
 *     (0: no bound)
 * @param frameMemory most bytes of one task's compressed frames (and parked bytes) kept in memory
 *     before its frame file (0: every frame goes to the file)
 * @param probeIncompressible store blocks an {@code IncompressibleProbe} judges incompressible raw
 *     without a codec call
 * @param partitionStreams most partitions for which the block writer keeps a serialization stream
 *     per partition (above, one stream flushed into each record's partition)
 * @param hardwareMinBlock with a hardware codec, blocks shorter than this are compressed in
 *     software (0: every block goes to the hardware)
 */
public final class WriterSettings {
  /** Spark's own limit for its bypass-merge writer, which also keeps a stream per partition. */
  public static final int DEFAULT_PARTITION_STREAMS = 200;

  private final BlockCodec codec;
  private final int blockSize;
  private final long maxMemory;
  private final int initialBufferSize;
  private final long largeBufferMemory;
  private final long frameMemory;
  private final boolean probeIncompressible;
  private final int partitionStreams;
  private final int hardwareMinBlock;

  public WriterSettings(
      BlockCodec codec,
      int blockSize,
      long maxMemory,
      int initialBufferSize,
      long largeBufferMemory,
      long frameMemory,
      boolean probeIncompressible,
      int partitionStreams,
      int hardwareMinBlock) {
    this.codec = Objects.requireNonNull(codec, "codec");
    BlockFormat.checkBlockSize(blockSize);
    this.blockSize = blockSize;
    if (maxMemory < 0) {
      throw new IllegalArgumentException("maxMemory cannot be negative: " + maxMemory);
    }
    if (partitionStreams < 0) {
      throw new IllegalArgumentException(
          "partitionStreams cannot be negative: " + partitionStreams);
    }
    this.maxMemory = maxMemory;
    this.initialBufferSize = initialBufferSize;
    this.largeBufferMemory = largeBufferMemory;
    this.frameMemory = frameMemory;
    this.probeIncompressible = probeIncompressible;
    this.partitionStreams = partitionStreams;
    this.hardwareMinBlock = hardwareMinBlock;
  }

  /**
   * Settings with the simplest memory (no own limit, 4 KiB first buffers, no bound on large
   * buffers, frames to the file as they are made), no probe.
   */
  public WriterSettings(BlockCodec codec, int blockSize) {
    this(codec, blockSize, 0, Math.min(4096, blockSize), 0, 0, false, DEFAULT_PARTITION_STREAMS, 0);
  }

  public BlockCodec codec() {
    return codec;
  }

  public int blockSize() {
    return blockSize;
  }

  public long maxMemory() {
    return maxMemory;
  }

  public int initialBufferSize() {
    return initialBufferSize;
  }

  public long largeBufferMemory() {
    return largeBufferMemory;
  }

  public long frameMemory() {
    return frameMemory;
  }

  public boolean probeIncompressible() {
    return probeIncompressible;
  }

  public int partitionStreams() {
    return partitionStreams;
  }

  public int hardwareMinBlock() {
    return hardwareMinBlock;
  }
}
