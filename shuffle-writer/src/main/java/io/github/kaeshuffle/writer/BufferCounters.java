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

/**
 * What a {@link PartitionedBlockBuffer} did so far, for the task's metrics and for tests: its
 * spills, the blocks they sealed, the bytes it parked. Not thread-safe: one task's thread.
 */
public final class BufferCounters {
  private long memorySpilled;
  private long spilledBytes;
  private int spillCount;
  private long sealedBlocks;
  private long parkedBytes;
  private int partitionsWritten;

  BufferCounters() {}

  void spilled(long memoryFreed, long bytesWritten) {
    memorySpilled += memoryFreed;
    spilledBytes += bytesWritten;
    spillCount++;
  }

  void sealed() {
    sealedBlocks++;
  }

  void parked(long bytes) {
    parkedBytes += bytes;
  }

  void partitionWritten() {
    partitionsWritten++;
  }

  /**
   * Bytes written to disk under memory pressure (Spark's "disk bytes spilled"): frames moved from
   * memory to the frame file and partial blocks sealed there.
   */
  public long spilledBytes() {
    return spilledBytes;
  }

  /** Memory freed by spills so far (Spark's "memory bytes spilled"). */
  public long memorySpilled() {
    return memorySpilled;
  }

  /** Partitions that were given bytes, so state: the others cost one null reference each. */
  public int partitionsWritten() {
    return partitionsWritten;
  }

  /** Times memory ran out and partial blocks were sealed. */
  public int spillCount() {
    return spillCount;
  }

  /** Partial blocks closed early, as short frames, because memory ran out. */
  public long sealedBlocks() {
    return sealedBlocks;
  }

  /**
   * Bytes parked in the frame file to keep the large buffers within their bound (each read back
   * once, when its block is compressed).
   */
  public long parkedBytes() {
    return parkedBytes;
  }
}
