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

import io.github.kaeshuffle.bench.ShuffleTotals
import io.github.kaeshuffle.workloads.{ScaleJobs, TextCorpus}

import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * One workload of the scale benchmark at one size, with whatever shuffle it was submitted with;
 * its report file, one `key value...` line each:
 * {{{
 * workload <name> <records> <hash>      (a result compared exactly)
 * values <name> <v1> <v2> ...           (MLlib's floating results, compared within a tolerance)
 * seconds <name> <s>                    (the workload's jobs, not the application's start)
 * shuffle <bytes written> <bytes read>
 * spilled <bytes in memory> <bytes on disk>
 * kae.<count> <total>
 * manager <class of the shuffle manager>
 * }}}
 *
 * Arguments: `<report file> <workload> <input bytes>`.
 */
object ScaleApp {
  private val KaeCounts =
    Seq("write.rawBytes", "write.storedBytes", "write.codecCalls", "write.parkedBytes")

  def main(args: Array[String]): Unit = {
    require(args.length == 3, "usage: ScaleApp <report file> <workload> <input bytes>")
    val Array(report, workload, bytes) = args
    val spark = SparkSession.builder().getOrCreate()
    val sc = spark.sparkContext
    val totals = new ShuffleTotals
    sc.addSparkListener(totals)
    val lines = Seq.newBuilder[String]
    try {
      warmUp(sc)
      val t0 = System.nanoTime()
      val outcome = ScaleJobs.run(workload, spark, bytes.toLong, 42L)
      val seconds = (System.nanoTime() - t0) / 1e9
      outcome.digest.foreach(d => lines += s"workload $workload ${d.records} ${d.hash}")
      if (outcome.values.nonEmpty) lines += s"values $workload ${outcome.values.mkString(" ")}"
      lines += s"seconds $workload $seconds"
      KaeSparkAccess.drainListeners(sc)
      lines += s"shuffle ${totals.bytesWritten.get} ${totals.bytesRead.get}"
      lines += s"spilled ${totals.memoryBytesSpilled.get} ${totals.diskBytesSpilled.get}"
      for (name <- KaeCounts) lines += s"kae.$name ${totals.kaeTotal(name)}"
      lines += s"manager ${KaeSparkAccess.shuffleManagerClass(sc)}"
    } finally spark.stop()
    ReportFile.write(Paths.get(report), lines.result())
  }

  /**
   * Untimed: waits (at most 60 s) for the executors `spark.kae.bench.executors` names, then runs
   * a task on each that loads the text's vocabulary, so that no configuration's time holds the
   * executors' start.
   */
  private def warmUp(sc: org.apache.spark.SparkContext): Unit = {
    val executors = sc.getConf.getInt("spark.kae.bench.executors", 0)
    val deadline = System.nanoTime() + 60L * 1000 * 1000 * 1000
    // The status tracker lists the driver too.
    while (sc.statusTracker.getExecutorInfos.length <= executors && System.nanoTime() < deadline)
      Thread.sleep(100)
    val tasks = math.max(2, 2 * executors)
    sc.parallelize(0 until tasks, tasks).foreach(_ => TextCorpus.get())
  }
}
