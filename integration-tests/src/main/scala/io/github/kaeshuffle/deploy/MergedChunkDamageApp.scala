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
package io.github.kaeshuffle.deploy

import java.nio.file.Paths
import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.bench.ShuffleTotals

import org.apache.spark.FetchFailed
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * A Spark application for the push-based shuffle test with a damaged merged block: it reads one
 * shuffle twice (the second job skips the map stage and reads the merged blocks again), and
 * between the two reads lets the test damage merged files on the merger's disk. Reports, one
 * `key value` line each: `firstOk`, `firstMergedBytes`, `gateOpened`, `secondOk`,
 * `secondMergedBytes`, `mergedFetchFallbacks` and `corruptMergedChunks` (Spark's read metrics of
 * the second read), `mergedFetchFailures` (fetch failures of merged blocks: Spark then forgets the
 * merge result and re-runs the reduce tasks on the original blocks), `otherFetchFailures`,
 * `manager`.
 *
 * Arguments: `<report file> <ignored> <gate directory>`: after the first read it writes
 * `read-once` there and waits (at most 180 s) for `damaged`.
 */
object MergedChunkDamageApp {
  def main(args: Array[String]): Unit = {
    val report = Paths.get(args(0))
    val gate = new Gate(Paths.get(args(2)))
    val spark = SparkSession.builder().getOrCreate()
    val sc = spark.sparkContext
    val totals = new ShuffleTotals
    val corrupt = new AtomicLong
    val mergedFailures = new AtomicLong
    val otherFailures = new AtomicLong
    sc.addSparkListener(totals)
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(e: SparkListenerTaskEnd): Unit = {
        if (e.taskMetrics != null) {
          corrupt.addAndGet(e.taskMetrics.shuffleReadMetrics.corruptMergedBlockChunks)
        }
        e.reason match {
          // Spark's map id for a merged block (SHUFFLE_PUSH_MAP_ID).
          case f: FetchFailed if f.mapId == -1L => mergedFailures.incrementAndGet()
          case _: FetchFailed => otherFailures.incrementAndGet()
          case _ =>
        }
      }
    })
    val lines = Seq.newBuilder[String]
    try {
      val shuffled = Pairs.partitioned(sc)
      lines += s"firstOk ${Pairs.sumsOf(shuffled) == Pairs.expectedSums()}"
      KaeSparkAccess.drainListeners(sc)
      val firstMerged = totals.mergedBytesRead.get
      val fallbacksBefore = totals.mergedFetchFallbacks.get
      lines += s"firstMergedBytes $firstMerged"

      lines += s"gateOpened ${gate.reachAndAwait("read-once", "damaged")}"
      corrupt.set(0)

      lines += s"secondOk ${Pairs.sumsOf(shuffled) == Pairs.expectedSums()}"
      KaeSparkAccess.drainListeners(sc)
      lines += s"secondMergedBytes ${totals.mergedBytesRead.get - firstMerged}"
      lines += s"mergedFetchFallbacks ${totals.mergedFetchFallbacks.get - fallbacksBefore}"
      lines += s"corruptMergedChunks ${corrupt.get}"
      lines += s"mergedFetchFailures ${mergedFailures.get}"
      lines += s"otherFetchFailures ${otherFailures.get}"
      lines += s"manager ${KaeSparkAccess.shuffleManagerClass(sc)}"
    } finally spark.stop()
    ReportFile.write(report, lines.result())
  }
}
