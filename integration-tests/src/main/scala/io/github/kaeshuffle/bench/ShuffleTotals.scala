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
package io.github.kaeshuffle.bench

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

import org.apache.spark.Success
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/** Adds up, over successful tasks, Spark's shuffle metrics and KAE Shuffle's accumulators. */
class ShuffleTotals extends SparkListener {
  val bytesWritten = new AtomicLong
  val bytesRead = new AtomicLong
  val gcMillis = new AtomicLong
  val peakExecutionMemory = new AtomicLong

  /** Bytes spilled: as they were in memory, and as written to disk. */
  val memoryBytesSpilled = new AtomicLong
  val diskBytesSpilled = new AtomicLong

  /** Bytes read from push-merged blocks (push-based shuffle), remote and local. */
  val mergedBytesRead = new AtomicLong

  /** Merged blocks or chunks whose fetch failed and that were read from the original blocks. */
  val mergedFetchFallbacks = new AtomicLong
  private val kae = new ConcurrentHashMap[String, AtomicLong]()

  /** Per host whose tasks read a shuffle: the bytes they fetched from other executors. */
  val remoteBytesReadByHost = new ConcurrentHashMap[String, AtomicLong]()

  override def onTaskEnd(e: SparkListenerTaskEnd): Unit = {
    if (e.reason == Success && e.taskMetrics != null) {
      val m = e.taskMetrics
      bytesWritten.addAndGet(m.shuffleWriteMetrics.bytesWritten)
      bytesRead.addAndGet(m.shuffleReadMetrics.totalBytesRead)
      mergedBytesRead.addAndGet(
        m.shuffleReadMetrics.remoteMergedBytesRead + m.shuffleReadMetrics.localMergedBytesRead)
      mergedFetchFallbacks.addAndGet(m.shuffleReadMetrics.mergedFetchFallbackCount)
      if (m.shuffleReadMetrics.totalBytesRead > 0) {
        remoteBytesReadByHost.computeIfAbsent(e.taskInfo.host, _ => new AtomicLong)
          .addAndGet(m.shuffleReadMetrics.remoteBytesRead)
      }
      gcMillis.addAndGet(m.jvmGCTime)
      peakExecutionMemory.accumulateAndGet(m.peakExecutionMemory, math.max)
      memoryBytesSpilled.addAndGet(m.memoryBytesSpilled)
      diskBytesSpilled.addAndGet(m.diskBytesSpilled)
      // Only a task of a KAE shuffle has them; Spark's own runs need not load our classes.
      if (e.taskInfo.accumulables.exists(_.name.exists(_.startsWith("kae.shuffle")))) {
        for ((name, v) <- KaeSparkAccess.kaeCounts(e.taskInfo)) {
          kae.computeIfAbsent(name, _ => new AtomicLong).addAndGet(v)
        }
      }
    }
  }

  /** A KAE Shuffle count's total, e.g. `write.codecCalls`; 0 when no task reported it. */
  def kaeTotal(name: String): Long =
    Option(kae.get("kae.shuffle." + name)).map(_.get).getOrElse(0L)
}
