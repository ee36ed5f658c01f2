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
package org.apache.spark.shuffle.kae
package writer

import io.github.kaeshuffle.writer.{MemoryBudget, PartitionedBlockBuffer}

import org.apache.spark.memory.{MemoryConsumer, MemoryMode, TaskMemoryManager}

/**
 * A block writer's memory, as execution memory of its task; spills the buffer when another
 * consumer asks. The raw block buffers are direct memory: counted in Spark's off-heap pool when it
 * has one (`spark.memory.offHeap.enabled`), else in the on-heap pool, which then stands for them
 * as it does for Spark's own off-heap-less Tungsten pages (docs/tuning.md: memoryOverhead).
 *
 * @param maxMemory the most this writer holds (`spark.shuffle.kae.writer.maxMemory`), 0 for no
 *   bound of its own
 */
private[spark] class WriterMemory(tmm: TaskMemoryManager, maxMemory: Long)
  extends MemoryConsumer(tmm, tmm.getTungstenMemoryMode) with MemoryBudget {
  var buffer: PartitionedBlockBuffer = _
  var peak = 0L

  /** The serialization streams' buffers are heap arrays: on-heap, whatever this pool is. */
  private val streams = new MemoryConsumer(tmm, MemoryMode.ON_HEAP) {
    override def spill(size: Long, trigger: MemoryConsumer): Long = 0L
  }

  /** Grants at most what keeps this writer within maxMemory. */
  override def acquire(bytes: Long): Long = {
    val allowed =
      if (maxMemory > 0) math.max(0L, math.min(bytes, maxMemory - getUsed))
      else bytes
    val got = if (allowed > 0) acquireMemory(allowed) else 0L
    notePeak()
    got
  }

  override def release(bytes: Long): Unit = freeMemory(bytes)

  override def onHeap(): Boolean = getMode == MemoryMode.ON_HEAP

  private def notePeak(): Unit = peak = math.max(peak, getUsed + streams.getUsed)

  /**
   * Counts one serialization stream's buffer: Kryo's output buffer is 4 KiB (Spark's
   * `KryoSerializationStream` makes a default `Output`), Java serialization's block buffer 1 KiB.
   * What the memory manager refuses is used all the same (a stream cannot be refused), but what is
   * granted makes other consumers spill, as Spark's own streams do not.
   */
  def holdStream(): Unit = {
    streams.acquireMemory(WriterMemory.SerializerStreamBytes)
    notePeak()
  }

  /** Gives back what the streams held, once they are closed. */
  def releaseStreams(): Unit = streams.freeMemory(streams.getUsed)

  /** Our own requests that fall short are handled by the buffer, which spills and retries. */
  override def spill(size: Long, trigger: MemoryConsumer): Long = {
    if ((trigger eq this) || buffer == null) {
      0L
    } else {
      buffer.spill()
    }
  }
}

private[spark] object WriterMemory {

  /** A serialization stream's buffer, as counted: Kryo's (4 KiB), the largest of Spark's. */
  val SerializerStreamBytes = 4096L
}
