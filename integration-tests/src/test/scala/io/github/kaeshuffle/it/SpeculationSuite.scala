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
package io.github.kaeshuffle.it

import java.nio.file.{Files, Paths}
import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.it.ClusterFaults.awaitCondition
import io.github.kaeshuffle.testing.MatrixSuite

import org.apache.spark.{Success, TaskContext, TaskEndReason}
import org.apache.spark.deploy.TwoHostCluster
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd, TaskInfo}
import org.apache.spark.shuffle.kae.{KaeSparkAccess, ShuffleFiles}

/**
 * Two attempts of one map task writing KAE Shuffle output at the same time: a speculative copy on
 * another host (a standalone cluster whose workers have different addresses, TwoHostCluster,
 * since Spark never starts a copy on the host of the original). The original holds all its
 * records in the block writer and then waits until the copy has written all of its own, and a
 * second more, before its own writer finishes: both writers are open together and the original
 * commits last (or is killed first, as Spark asks once the copy succeeds). Spark keeps the copy's
 * output and the job's result is exactly the one computed without Spark. In the matrix; the gate
 * has two attempts of a task at once in one JVM (ShuffleSuite's SPARK-8029, SameMapCommitSuite).
 */
class SpeculationSuite extends MatrixSuite {
  import SpeculationSuite._

  test("a speculative copy on another host runs beside the original; one output is read, right") {
    Sessions.withTestingMode {
      val cluster = TwoHostCluster.start(coresPerWorker = 2, memoryMbPerWorker = 1024)
      try {
        val conf = Sessions.conf(Some("auto"), Sessions.Kryo, cluster.masterUrl)
          .set("spark.executor.memory", "512m")
          .set("spark.speculation", "true")
          .set("spark.speculation.interval", "100ms")
          .set("spark.speculation.quantile", "0.5")
          .set("spark.speculation.multiplier", "2")
          // Speculate on time alone, not on Spark's records-per-second efficiency test.
          .set("spark.speculation.efficiency.enabled", "false")
          // The shuffle's files are looked at after the job: not cleaned when its RDD is collected.
          .set("spark.cleaner.referenceTracking", "false")
        // The in-process workers put executors' dirs under the JVM's cached local root dirs,
        // which this session then sets from its spark.local.dir (earlier suites set them too).
        KaeSparkAccess.clearLocalRootDirs()
        Sessions.withSession(conf) { spark =>
          val sc = spark.sparkContext
          assert(KaeSparkAccess.usesKaeShuffle(sc))
          awaitCondition("an executor on each host", 90)(
            KaeSparkAccess.executorIds(sc).size == 2)
          val copyDone = ClusterFaults.tmpDir("speculation").resolve("copy-done").toString
          val ends = new ConcurrentLinkedQueue[(Int, TaskInfo, TaskEndReason)]()
          sc.addSparkListener(new SparkListener {
            override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
              ends.add((e.stageId, e.taskInfo, e.reason))
          })

          val sums = sc.parallelize(0 until Rows, 4)
            .mapPartitions(it => new OriginalOfFirstTaskLingers(it, TaskContext.get(), copyDone))
            .map(i => (i % Keys, i.toLong))
            .reduceByKey(_ + _, 8)
            .collect()
            .toMap
          assert(sums == expected)

          KaeSparkAccess.drainListeners(sc)
          val mapStage = ends.asScala.map(_._1).min
          val first = ends.asScala.filter(e => e._1 == mapStage && e._2.index == 0).toSeq
            .sortBy(_._2.attemptNumber)
          assert(first.size == 2, s"the first map task ran ${first.size} time(s): $first")
          val (original, copy) = (first(0)._2, first(1)._2)
          assert(copy.speculative, s"$copy")
          assert(copy.host != original.host, s"both attempts on ${copy.host}")
          assert(
            copy.finishTime < original.finishTime && copy.launchTime < original.finishTime,
            "the copy finished while the original still ran")
          val kept = KaeSparkAccess.mapOutputs(sc, 0).map(_._2)
          assert(kept.contains(copy.taskId) && !kept.contains(original.taskId), s"$kept")
          // Spark kills the original once the copy succeeded (interrupting its wait): its writer
          // leaves nothing behind; had it committed, its files would be whole and unused.
          val files = ShuffleFiles.files(ShuffleFiles.localRoot(sc), "shuffle_0_.*")
            .map(_.getFileName.toString)
          assert(files.contains(s"shuffle_0_${copy.taskId}_0.data"), s"$files")
          if (first(0)._3 != Success) {
            assert(!files.exists(_.startsWith(s"shuffle_0_${original.taskId}_")), s"$files")
          }
          info(
            s"original on ${original.host} ended ${first(0)._3}; copy on ${copy.host} ended " +
              s"${first(1)._3}")
        }
      } finally cluster.stop()
    }
  }
}

object SpeculationSuite {
  val Rows = 200000
  val Keys = 1000

  def expected: Map[Int, Long] =
    (0 until Rows).groupBy(_ % Keys).map { case (k, v) => k -> v.map(_.toLong).sum }

  /**
   * Passes the records through. The first attempt of partition 0, having handed every record on
   * (they are in the block writer), waits before saying there are no more until a later attempt
   * of it (the speculative copy, in another executor JVM of this machine) has handed on all of
   * its own, then a second more for the copy's commit, at most 120 s: its writer commits last.
   */
  final class OriginalOfFirstTaskLingers(in: Iterator[Int], ctx: TaskContext, copyDone: String)
    extends Iterator[Int] {
    private val first = ctx.partitionId() == 0
    private var ended = false

    override def hasNext: Boolean = in.hasNext || {
      if (first && !ended) {
        ended = true
        val marker = Paths.get(copyDone)
        if (ctx.attemptNumber() > 0) Files.write(marker, Array.emptyByteArray)
        else {
          val until = System.nanoTime() + 120L * 1000 * 1000 * 1000
          while (!Files.exists(marker) && System.nanoTime() < until) Thread.sleep(50)
          Thread.sleep(1000)
        }
      }
      false
    }

    override def next(): Int = in.next()
  }
}
