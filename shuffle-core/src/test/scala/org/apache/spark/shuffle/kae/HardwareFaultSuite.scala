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

import io.github.kaeshuffle.codec.KaeZipModel
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.ShuffleDependency
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics

/**
 * Hardware codec faults never fail a task nor change a result: with the KAEzip cost model failing
 * every fifth call, each failed block is compressed or decoded in software (same format), counted
 * in the shuffle's accumulators.
 */
class HardwareFaultSuite extends AnyFunSuite {
  private type Counts = Option[(Long, Long)]

  /** The job's results, and the software blocks its grouping shuffle counted (KAE only). */
  private def job(kae: Boolean): (Seq[(Int, Int)], Seq[(Int, Int)], Counts) = {
    val conf = LocalSpark.conf("local[2]", kae)
      .set("spark.shuffle.kae.codec", "kaezip")
      .set("spark.shuffle.kae.kaezip.libraryPath", KaeZipModel.path())
      .set("spark.shuffle.kae.kaezip.skipHardwareCheck", "true")
      .set("spark.shuffle.kae.blockSize", "16k")
    LocalSpark.withSpark(conf) { sc =>
      val rdd = sc.parallelize(1 to 200000, 8).map(i => (i % 997, s"value-$i-" * 3))
      val lengths = rdd.reduceByKey(_ + _, 6).mapValues(_.length).collect().sorted.toSeq
      val grouped = rdd.groupByKey(5)
      val sizes = grouped.mapValues(_.size).collect().sorted.toSeq
      val counts = grouped.dependencies.head match {
        case d: ShuffleDependency[_, _, _] =>
          d.shuffleHandle match {
            case h: KaeShuffleHandle[_, _, _] =>
              Some((
                h.metrics(KaeShuffleMetrics.WriteSoftwareBlocks),
                h.metrics(KaeShuffleMetrics.ReadSoftwareBlocks)))
            case _ => None
          }
        case _ => None
      }
      (lengths, sizes, counts)
    }
  }

  test("one KAEzip session per direction: the second task works in software, same results") {
    def run(kae: Boolean): (Seq[(Int, Int)], Long, Long) = {
      val conf = LocalSpark.conf("local[2]", kae)
        .set("spark.shuffle.kae.codec", "kaezip")
        .set("spark.shuffle.kae.kaezip.libraryPath", KaeZipModel.path())
        .set("spark.shuffle.kae.kaezip.skipHardwareCheck", "true")
        .set("spark.shuffle.kae.kaezip.maxSessions", "1")
        .set("spark.shuffle.kae.blockSize", "16k")
      LocalSpark.withSpark(conf) { sc =>
        val sessions0 = KaeZipModel.counter(KaeZipModel.SESSIONS, KaeZipModel.COMPRESS)
        Rendezvous.reset(2)
        val pairs = sc.parallelize(1 to 100000, 2).mapPartitions { it =>
          Rendezvous.meet() // both map tasks hold their encoder (borrowed before the records)
          it.map(i => (i % 997, s"value-$i-" * 3))
        }
        // No map-side combine, so the block writer serves it: it borrows its encoder before it
        // reads the first record. (The sort writer borrows after combining every record, so two
        // tasks may not overlap there: one CI run saw no overflow with reduceByKey.)
        val shuffled = pairs.groupByKey(4)
        val lengths = shuffled.mapValues(_.map(_.length).sum).collect().sorted.toSeq
        val overflow = shuffled.dependencies.head match {
          case d: ShuffleDependency[_, _, _] =>
            d.shuffleHandle match {
              case h: KaeShuffleHandle[_, _, _] =>
                h.metrics(KaeShuffleMetrics.WriteOverflowBlocks)
              case _ => 0L
            }
          case _ => 0L
        }
        val sessions = KaeZipModel.counter(KaeZipModel.SESSIONS, KaeZipModel.COMPRESS) - sessions0
        (lengths, overflow, sessions)
      }
    }
    val expected = run(kae = false)
    val (lengths, overflow, sessions) = run(kae = true)
    assert(lengths == expected._1, "results as Spark's")
    assert(overflow > 0, "the task that found the session lent wrote its blocks in software")
    // One pooled compressor, plus the backend's trial init the first time the library opens.
    assert(sessions >= 1 && sessions <= 2, s"$sessions compress sessions opened")
  }

  test("a faulty KAEzip: identical results, the failed blocks done in software") {
    val expected = job(kae = false)
    KaeZipModel.configure(0, 0, 2, 5)
    val actual =
      try job(kae = true)
      finally KaeZipModel.defaults()
    assert(actual._1 == expected._1 && actual._2 == expected._2, "results as Spark's")
    val (written, read) = actual._3.get
    assert(written > 0 && read > 0, s"software blocks: $written written, $read read")
  }
}

/** Holds the tasks of a local-mode job until all have arrived (same JVM). */
private object Rendezvous {
  @volatile private var latch = new java.util.concurrent.CountDownLatch(0)

  def reset(parties: Int): Unit = latch = new java.util.concurrent.CountDownLatch(parties)

  def meet(): Unit = {
    latch.countDown()
    assert(latch.await(2, java.util.concurrent.TimeUnit.MINUTES), "the other tasks never came")
  }
}
