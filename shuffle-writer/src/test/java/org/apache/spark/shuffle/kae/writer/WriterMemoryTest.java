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
package org.apache.spark.shuffle.kae.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.SparkConf;
import org.apache.spark.memory.MemoryConsumer;
import org.apache.spark.memory.MemoryMode;
import org.apache.spark.memory.TaskMemoryManager;
import org.apache.spark.memory.UnifiedMemoryManager;
import org.junit.jupiter.api.Test;

/**
 * A block writer's memory is execution memory of its task: within its own bound when it has one, on
 * the pool Spark's Tungsten pages use, with the serialization streams' buffers on the heap, and
 * with nothing to spill before its buffer is set.
 */
class WriterMemoryTest {
  private static final long MIB = 1L << 20;

  private static UnifiedMemoryManager memory(SparkConf conf, long mib) {
    return new UnifiedMemoryManager(conf, mib * MIB, mib * MIB / 2, 1);
  }

  private static WriterMemory writer(UnifiedMemoryManager mm, long maxMemory) {
    return new WriterMemory(new TaskMemoryManager(mm, 0), maxMemory);
  }

  @Test
  void itsOwnBoundCapsWhatItIsGranted() {
    UnifiedMemoryManager mm = memory(new SparkConf(false), 16);
    WriterMemory w = writer(mm, 4 * MIB);
    assertEquals(3 * MIB, w.acquire(3 * MIB));
    assertEquals(MIB, w.acquire(3 * MIB), "only what keeps it within 4 MiB");
    assertEquals(0, w.acquire(1), "at its bound");
    assertEquals(4 * MIB, mm.executionMemoryUsed());
    w.release(2 * MIB);
    assertEquals(2 * MIB, w.acquire(5 * MIB));
    assertEquals(4 * MIB, w.peak());
  }

  @Test
  void withoutABoundItTakesWhatSparkGrants() {
    UnifiedMemoryManager mm = memory(new SparkConf(false), 16);
    WriterMemory w = writer(mm, 0);
    assertEquals(10 * MIB, w.acquire(10 * MIB));
    assertEquals(6 * MIB, w.acquire(10 * MIB), "the rest of the task's 16 MiB");
  }

  @Test
  void streamBuffersAreOnTheHeapAndCountInThePeak() {
    SparkConf conf =
        new SparkConf(false)
            .set("spark.memory.offHeap.enabled", "true")
            .set("spark.memory.offHeap.size", String.valueOf(8 * MIB));
    UnifiedMemoryManager mm = memory(conf, 16);
    WriterMemory w = writer(mm, 0);
    assertFalse(w.onHeap(), "Spark's off-heap pool holds the direct buffers");
    assertEquals(2 * MIB, w.acquire(2 * MIB));
    assertEquals(2 * MIB, mm.offHeapExecutionMemoryUsed());

    w.holdStream();
    w.holdStream();
    assertEquals(2 * WriterMemory.SerializerStreamBytes(), mm.onHeapExecutionMemoryUsed());
    assertEquals(2 * MIB + 2 * WriterMemory.SerializerStreamBytes(), w.peak());
    w.releaseStreams();
    assertEquals(0, mm.onHeapExecutionMemoryUsed());
    assertEquals(2 * MIB + 2 * WriterMemory.SerializerStreamBytes(), w.peak(), "a peak stays");
  }

  @Test
  void onTheHeapPoolWithoutOffHeapMemory() {
    WriterMemory w = writer(memory(new SparkConf(false), 16), 0);
    assertTrue(w.onHeap());
  }

  @Test
  void itSpillsNothingBeforeItHasABufferWhoeverAsks() throws Exception {
    UnifiedMemoryManager mm = memory(new SparkConf(false), 16);
    TaskMemoryManager tmm = new TaskMemoryManager(mm, 0);
    WriterMemory w = new WriterMemory(tmm, 0);
    MemoryConsumer other =
        new MemoryConsumer(tmm, MemoryMode.ON_HEAP) {
          @Override
          public long spill(long size, MemoryConsumer trigger) {
            return 0;
          }
        };
    assertEquals(0, w.spill(MIB, other));
    assertEquals(0, w.spill(MIB, w));
  }
}
