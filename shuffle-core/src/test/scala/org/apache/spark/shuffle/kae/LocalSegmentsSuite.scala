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

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics
import org.apache.spark.shuffle.kae.metrics.ShuffleCounts

/**
 * Segments on this host are taken from the file the fetcher opened: one of up to
 * `spark.shuffle.kae.reader.localReadLimit` bytes read whole into a heap copy, a larger one
 * mapped; either way every byte the map side wrote is read back, to the same records.
 */
class LocalSegmentsSuite extends AnyFunSuite {
  import KaeShuffleMetrics._

  private val Expected = (0 until 500).map(k => k -> (k.toLong + 1) * 400).toMap

  /** The job's result, the map stage's bytes written and the reduce stage's counts. */
  private def run(settings: (String, String)*): (Map[Int, Long], Long, Map[String, Long]) =
    LocalSpark.withSpark(LocalSpark.conf("local[2]").setAll(settings)) { sc =>
      val written = new java.util.concurrent.atomic.AtomicLong
      val reads = new ConcurrentLinkedQueue[Map[String, Long]]()
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
          if (e.stageId == 0) written.addAndGet(e.taskMetrics.shuffleWriteMetrics.bytesWritten)
          else reads.add(ShuffleCounts.fromAccumulables(e.taskInfo.accumulables, _.update).counts)
      })
      // 4 map tasks x 8 partitions: segments of a few KB.
      val sums = sc.parallelize(1 to 200000, 4).map(i => (i % 500, 1L))
        .reduceByKey(_ + _, 8).map { case (k, n) => (k, n * (k + 1)) }.collect().toMap
      sc.listenerBus.waitUntilEmpty()
      val counts = Seq(ReadMappedBytes, ReadFileReadBytes, ReadCopiedBytes, ReadInPlaceBytes)
        .map(n => n -> reads.asScala.toSeq.map(_.getOrElse(n, 0L)).sum).toMap
      assert(written.get > 0)
      (sums, written.get, counts)
    }

  test("small segments are read whole from their file, every stored byte once") {
    val (sums, written, counts) = run()
    assert(sums == Expected)
    assert(counts(ReadFileReadBytes) == written, counts)
    assert(counts(ReadMappedBytes) == 0 && counts(ReadCopiedBytes) == 0, counts)
    assert(counts(ReadInPlaceBytes) == 0, counts)
  }

  test("segments over the limit are mapped; 0 maps every one") {
    val (sums, written, counts) = run("spark.shuffle.kae.reader.localReadLimit" -> "0")
    assert(sums == Expected)
    assert(counts(ReadMappedBytes) == written, counts)
    assert(counts(ReadFileReadBytes) == 0, counts)
  }

  test("without prefetching nothing is had whole: segments are decoded as they stream in") {
    val (sums, _, counts) = run("spark.shuffle.kae.reader.prefetch" -> "false")
    assert(sums == Expected)
    assert(counts(ReadMappedBytes) == 0 && counts(ReadFileReadBytes) == 0, counts)
  }
}
