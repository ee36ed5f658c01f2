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

import java.nio.file.{Files, Paths}
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger

import org.apache.spark.ShuffleDependency
import org.apache.spark.rdd.ShuffledRDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * A host lost while the reduce stage runs: the map stage runs, the hosts of its tasks go to the
 * gate's file `map-hosts`, and every reduce task waits at the gate (`reduce-waiting`, answered by
 * `go`) before it fetches, while the test kills a NodeManager holding map outputs. The outputs
 * on it are gone; Spark must run those map tasks again and still give the right sums.
 *
 * usage: NodeLossApp <report file> <size, unused> <gate dir>
 */
object NodeLossApp {
  def main(args: Array[String]): Unit = {
    val report = Paths.get(args(0))
    val gateDir = Paths.get(args(2))
    val spark = SparkSession.builder().getOrCreate()
    val sc = spark.sparkContext
    val mapHosts = ConcurrentHashMap.newKeySet[String]()
    val mapTasks = new AtomicInteger
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
        if (e.taskType == "ShuffleMapTask") {
          mapHosts.add(e.taskInfo.host)
          mapTasks.incrementAndGet()
        }
    })
    val lines = Seq.newBuilder[String]
    try {
      val shuffled = Pairs.partitioned(sc).asInstanceOf[ShuffledRDD[String, Long, Long]]
      val dep = shuffled.dependencies.head.asInstanceOf[ShuffleDependency[String, Long, Long]]
      KaeSparkAccess.runMapStage(sc, dep)
      KaeSparkAccess.drainListeners(sc)
      val before = mapTasks.get
      Files.createDirectories(gateDir)
      Files.write(gateDir.resolve("map-hosts"), String.join("\n", mapHosts).getBytes("UTF-8"))
      val gated = new GatedRDD(shuffled, gateDir.toString, "reduce-waiting", "go")
      val ok = Pairs.sumsOf(gated) == Pairs.expectedSums()
      KaeSparkAccess.drainListeners(sc)
      lines += s"mapTasksAfter ${mapTasks.get - before}"
      lines += s"resultOk $ok"
      lines += s"manager ${KaeSparkAccess.shuffleManagerClass(sc)}"
    } finally spark.stop()
    ReportFile.write(report, lines.result())
  }
}
