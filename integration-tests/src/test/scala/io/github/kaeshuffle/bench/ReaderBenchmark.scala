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

import java.nio.file.{Files, Path, Paths}
import java.util.Locale
import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * The reader's decompress-ahead, measured: for `sort` and `lda-edges`, the time of the stages
 * that read a shuffle and the time the deserializer waited for the decompressor, with prefetching
 * off, on with a direct window, and on with a mapped window. Configurations alternate within each
 * repetition (A B C A B C ...); medians, with min-max.
 *
 * Run (docs/benchmarks/README.md): `mvn -B -pl integration-tests -am -Pbench-reader verify`
 * Arguments: results file, size, repetitions.
 */
object ReaderBenchmark {
  private val Configs = Seq(
    "prefetch off" -> Map("spark.shuffle.kae.reader.prefetch" -> "false"),
    "prefetch, direct window" -> Map("spark.shuffle.kae.reader.window" -> "direct"),
    "prefetch, mapped window" -> Map("spark.shuffle.kae.reader.window" -> "mapped")
  )

  private case class Sample(job: Double, reduce: Double, waitMs: Double)

  def main(args: Array[String]): Unit = {
    val out = Paths.get(args.lift(0).getOrElse("docs/benchmarks/ReaderBenchmark-small.md"))
    val size = Workloads.Size.of(args.lift(1).getOrElse("small"))
    val reps = args.lift(2).map(_.toInt).getOrElse(3)
    val workloads = Seq("sort", "lda-edges")
    val samples = scala.collection.mutable.Map[(String, String), Seq[Sample]]()
    for (rep <- 0 to reps; w <- workloads; (name, extra) <- Configs) {
      val s = run(w, size, extra)
      if (rep > 0) samples((w, name)) = samples.getOrElse((w, name), Nil) :+ s // rep 0: warm-up
      println(f"rep $rep $w%-10s $name%-24s job ${s.job}%.2f s, reduce stages ${s.reduce}%.2f s," +
        f" waited ${s.waitMs}%.0f ms")
    }
    val md = new StringBuilder
    md ++= "# Reader: decompressing ahead, direct vs mapped window\n\n"
    md ++= s"Produced by `mvn -B -pl integration-tests -am -Pbench-reader verify " +
      s"-Dbench.size=${size.name.toLowerCase(Locale.ROOT)} -Dbench.reps=$reps` (class " +
      s"`${getClass.getName.stripSuffix("$")}`), size `${size.name.toLowerCase(Locale.ROOT)}`, " +
      s"local[2], Kryo, KAE Shuffle codec auto, 256 KiB blocks, 2 MiB window; $reps timed " +
      "repetitions after one warm-up, configurations alternating. Median (min-max) seconds.\n\n"
    md ++= MachineInfo.describe() + "\n"
    md ++= "*reduce stages*: wall time of the stages that read shuffle data (submission to " +
      "completion). *waited*: time the deserializers waited for the decompressor, summed over " +
      "tasks.\n\n"
    md ++= "| workload | reader | job s | reduce stages s | waited ms | reduce vs prefetch off |\n"
    md ++= "|---|---|---:|---:|---:|---:|\n"
    for (w <- workloads) {
      val base = median(samples((w, Configs.head._1)).map(_.reduce))
      for ((name, _) <- Configs) {
        val s = samples((w, name))
        md ++= f"| $w | $name | ${fmt(s.map(_.job))} | ${fmt(s.map(_.reduce))} | " +
          f"${median(s.map(_.waitMs))}%.0f | ${median(s.map(_.reduce)) / base}%.2f |\n"
      }
    }
    Files.createDirectories(out.toAbsolutePath.getParent)
    Files.writeString(out, md.toString)
    println(md)
    println(s"Wrote ${out.toAbsolutePath}")
  }

  private def run(workload: String, size: Workloads.Size, extra: Map[String, String]): Sample = {
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local[2]")
      .set("spark.shuffle.kae.blockSize", "256k")
      .set("spark.unsafe.exceptionOnMemoryLeak", "false")
      .setAll(extra)
    Sessions.withSession(conf) { spark =>
      val reduceNanos = new AtomicLong
      val totals = new ShuffleTotals
      spark.sparkContext.addSparkListener(totals)
      spark.sparkContext.addSparkListener(new SparkListener {
        override def onStageCompleted(e: SparkListenerStageCompleted): Unit = {
          val i = e.stageInfo
          if (i.taskMetrics != null && i.taskMetrics.shuffleReadMetrics.totalBytesRead > 0) {
            for (s <- i.submissionTime; c <- i.completionTime) {
              reduceNanos.addAndGet((c - s) * 1000000L)
            }
          }
        }
      })
      val t0 = System.nanoTime()
      WorkloadJobs.run(workload, spark, size, 4)
      val job = (System.nanoTime() - t0) / 1e9
      KaeSparkAccess.drainListeners(spark.sparkContext)
      Sample(job, reduceNanos.get / 1e9, totals.kaeTotal("read.waitNanos") / 1e6)
    }
  }

  private def median(v: Seq[Double]): Double = {
    val s = v.sorted
    s(s.size / 2)
  }

  private def fmt(v: Seq[Double]): String =
    "%.2f (%.2f-%.2f)".formatLocal(Locale.ROOT, median(v), v.min, v.max)
}
