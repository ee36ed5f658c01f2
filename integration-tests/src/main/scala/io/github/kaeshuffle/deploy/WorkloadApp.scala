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
import java.util.concurrent.atomic.AtomicInteger

import io.github.kaeshuffle.bench.ShuffleTotals
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}

import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerExecutorAdded,
  SparkListenerExecutorRemoved
}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * A Spark application for the deployment tests (spark-submit, YARN): runs workloads at a size
 * with whatever shuffle manager it was submitted with, and writes what happened to a report file
 * the test reads, one `key value...` line each:
 * {{{
 * workload <name> <records> <hash>
 * manager <class of the shuffle manager>
 * kae.<accumulator> <total>          (KAE Shuffle's write/read totals over successful tasks)
 * executorsAdded <n> / executorsRemoved <n>
 * mergedBytesRead <n> / mergedFetchFallbacks <n>   (push-based shuffle's merged blocks)
 * java <version>...                  (the distinct Java versions of the driver and executors)
 * arch <os.arch>...                  (the distinct architectures of their JVMs)
 * }}}
 *
 * Arguments: `<report file> <size> <workload,workload,...> [pause]`. With `pause`, the
 * application waits between workloads until an executor has been removed (dynamic allocation),
 * at most 60 s, so a run shows executors going and coming within one application.
 */
object WorkloadApp {

  /**
   * The distinct values of a system property on the driver and the executors (tasks of a job
   * without a shuffle): the Java versions or architectures they run on.
   */
  private def distinctProperty(sc: org.apache.spark.SparkContext, key: String): Seq[String] = {
    val tasks = 2 * sc.defaultParallelism
    val executors = sc.parallelize(0 until tasks, tasks)
      .map(_ => System.getProperty(key)).collect().toSeq
    (System.getProperty(key) +: executors).distinct.sorted
  }

  /** KAE Shuffle's accumulators the report carries, by name. */
  private val KaeCounts = Seq(
    "write.rawBytes",
    "write.storedBytes",
    "write.codecCalls",
    "write.softwareBlocks",
    "read.rawBytes",
    "read.codecCalls",
    "read.mappedBytes",
    "read.fileReadBytes",
    "read.inPlaceBytes",
    "read.copiedBytes"
  )

  /** Executors added and removed while the application runs. */
  private final class ExecutorCounts extends SparkListener {
    val added = new AtomicInteger
    val removed = new AtomicInteger
    override def onExecutorAdded(e: SparkListenerExecutorAdded): Unit = added.incrementAndGet()
    override def onExecutorRemoved(e: SparkListenerExecutorRemoved): Unit =
      removed.incrementAndGet()
  }

  def main(args: Array[String]): Unit = {
    require(args.length >= 3, "usage: WorkloadApp <report file> <size> <workloads> [pause]")
    val report = Paths.get(args(0))
    val size = Workloads.Size.of(args(1))
    val workloads = args(2).split(",").map(_.trim).filter(_.nonEmpty).toSeq
    val pause = args.length > 3 && args(3) == "pause"

    val spark = SparkSession.builder().getOrCreate()
    val sc = spark.sparkContext
    val totals = new ShuffleTotals
    val executors = new ExecutorCounts
    sc.addSparkListener(totals)
    sc.addSparkListener(executors)
    val lines = Seq.newBuilder[String]
    try {
      for ((w, i) <- workloads.zipWithIndex) {
        if (pause && i > 0) awaitExecutorRemoved(executors)
        val t0 = System.nanoTime()
        val d = WorkloadJobs.run(w, spark, size, 4)
        lines += s"workload $w ${d.records} ${d.hash}"
        lines += s"seconds $w ${(System.nanoTime() - t0) / 1e9}"
      }
      KaeSparkAccess.drainListeners(sc)
      lines ++= summary(sc, totals, executors)
    } finally {
      spark.stop()
    }
    ReportFile.write(report, lines.result())
  }

  /** Waits until an executor has been removed (dynamic allocation), at most 60 s. */
  private def awaitExecutorRemoved(executors: ExecutorCounts): Unit = {
    val seen = executors.removed.get
    val deadline = System.nanoTime() + 60L * 1000 * 1000 * 1000
    while (executors.removed.get == seen && System.nanoTime() < deadline) Thread.sleep(200)
  }

  /** The report's lines after the workloads': the manager, totals, executors, hosts, JVMs. */
  private def summary(
      sc: org.apache.spark.SparkContext,
      totals: ShuffleTotals,
      executors: ExecutorCounts): Seq[String] = {
    val lines = Seq.newBuilder[String]
    lines += s"manager ${KaeSparkAccess.shuffleManagerClass(sc)}"
    for (name <- KaeCounts) lines += s"kae.$name ${totals.kaeTotal(name)}"
    lines += s"executorsAdded ${executors.added.get}"
    lines += s"mergedBytesRead ${totals.mergedBytesRead.get}"
    lines += s"mergedFetchFallbacks ${totals.mergedFetchFallbacks.get}"
    lines += s"executorsRemoved ${executors.removed.get}"
    val byHost = totals.remoteBytesReadByHost
    for (host <- byHost.keySet.toArray(new Array[String](0)).sorted) {
      lines += s"remoteBytesRead $host ${byHost.get(host).get}"
    }
    lines += s"java ${distinctProperty(sc, "java.version").mkString(" ")}"
    lines += s"arch ${distinctProperty(sc, "os.arch").mkString(" ")}"
    lines.result()
  }
}
