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

import org.apache.spark.ShuffleDependency
import org.apache.spark.rdd.ShuffledRDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * A Spark application for the shuffle-service tests, run with `spark.shuffle.service.enabled`
 * and dynamic allocation: it runs a map stage, waits until dynamic allocation has released every
 * executor (their files stay with the service), then runs the reduce stage on new executors and
 * reports, one `key value` line each: `executorsGone`, `mapTasksAfter` (map tasks run again:
 * 0 when the service served everything), `resultOk`, `manager`, `kae.<total>`.
 *
 * Arguments: `<report file> <ignored> [gate directory]`. With a gate directory, the application
 * writes `map-done` there once its executors are gone and waits (at most 180 s) for `go` before
 * the reduce stage, so a test can restart the shuffle service in between.
 */
object ShuffleServiceApp {
  def main(args: Array[String]): Unit = {
    val report = Paths.get(args(0))
    // Named by spark-submit (kae-<test>), as every test application: tests find theirs by it.
    val spark = SparkSession.builder().getOrCreate()
    val sc = spark.sparkContext
    val totals = new ShuffleTotals
    sc.addSparkListener(totals)
    val lines = Seq.newBuilder[String]
    try {
      val shuffled = Pairs.partitioned(sc).asInstanceOf[ShuffledRDD[String, Long, Long]]
      val dep = shuffled.dependencies.head.asInstanceOf[ShuffleDependency[String, Long, Long]]
      KaeSparkAccess.runMapStage(sc, dep)
      val deadline = System.nanoTime() + 120L * 1000 * 1000 * 1000
      while (KaeSparkAccess.executorIds(sc).nonEmpty && System.nanoTime() < deadline) {
        Thread.sleep(200)
      }
      lines += s"executorsGone ${KaeSparkAccess.executorIds(sc).isEmpty}"
      if (args.length > 2 && args(2).nonEmpty) {
        val gate = new Gate(Paths.get(args(2)))
        lines += s"gateOpened ${gate.reachAndAwait("map-done", "go")}"
      }
      val mapTasks = new AtomicInteger
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
          if (e.taskType == "ShuffleMapTask") mapTasks.incrementAndGet()
      })
      val ok = Pairs.sumsOf(shuffled) == Pairs.expectedSums()
      KaeSparkAccess.drainListeners(sc)
      lines += s"mapTasksAfter ${mapTasks.get}"
      lines += s"resultOk $ok"
      lines += s"manager ${KaeSparkAccess.shuffleManagerClass(sc)}"
      for (name <-
          Seq(
            "write.codecCalls",
            "read.codecCalls",
            "read.copiedBytes",
            "read.mappedBytes",
            "read.fileReadBytes")) {
        lines += s"kae.$name ${totals.kaeTotal(name)}"
      }
    } finally spark.stop()
    ReportFile.write(report, lines.result())
  }
}
