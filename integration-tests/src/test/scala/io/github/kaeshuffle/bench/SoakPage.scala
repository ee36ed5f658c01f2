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

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.it.Soak
import org.knowm.xchart.XYChartBuilder

/**
 * The soak's results page (docs/benchmarks/soak/): every sample of both runs in a CSV, each
 * measure's growth per 1,000 shuffles after warm-up, and one picture with a chart per measure of
 * its value against the shuffles made, KAE Shuffle beside Spark's shuffle. `main(<dir>)` draws
 * the picture again from the dir's CSV.
 */
object SoakPage {
  val Picture = "soak.png"
  private val CsvFile = "soak.csv"

  /** The CSV's columns before the measures. */
  private val Leading = Seq("config", "shuffles", "batches", "seconds")

  private val Charts = Seq(
    "driver.heapMiB" -> "driver heap after GC, MiB",
    "executors.heapMiB" -> "executors' heap after GC, MiB (both)",
    "driver.rssMiB" -> "driver resident memory, MiB",
    "executors.rssMiB" -> "executors' resident memory, MiB (both)",
    "executors.directMiB" -> "executors' direct and mapped memory, MiB (both)",
    "executors.fds" -> "executors' open file descriptors (both)",
    "executors.threads" -> "executors' threads (both)",
    "localFiles" -> "files in the local dirs",
    "shufflesTracked" -> "shuffles the driver's map output tracker holds",
    "accumulators" -> "accumulators registered on the driver",
    "uiKaeStageRows" -> "KAE Shuffle tab's stage rows"
  )

  def write(out: Path, plan: Soak.Plan, kae: Soak.Run, spark: Soak.Run): Unit = {
    Files.createDirectories(out)
    val runs = Seq("kae-auto" -> kae.samples, "spark-lz4" -> spark.samples)
    Files.write(out.resolve(CsvFile), csv(runs).asJava)
    drawAll(out, runs)
    val left = Seq("kae-auto" -> kae.released, "spark-lz4" -> spark.released)
    val readme = out.resolve("README.md")
    Files.writeString(readme, page(plan, runs, left, PageNotes.of(readme)))
  }

  /** Draws the picture again from `<dir>/soak.csv`. */
  def main(args: Array[String]): Unit = {
    val out = Paths.get(args(0))
    drawAll(out, read(out.resolve(CsvFile)))
  }

  /** The samples of each configuration in a CSV that [[csv]] wrote. */
  private def read(file: Path): Seq[(String, Seq[Soak.Sample])] = {
    val lines = Files.readAllLines(file).asScala.toSeq
    val names = lines.head.split(",", -1).drop(Leading.size).toSeq
    val samples = lines.tail.filter(_.nonEmpty).map(_.split(",", -1)).map { f =>
      val values =
        names.zip(f.drop(Leading.size)).collect { case (n, v) if v.nonEmpty => n -> v.toDouble }
      f(0) -> Soak.Sample(f(1).toInt, f(2).toLong, f(3).toDouble, values.toMap)
    }
    samples.map(_._1).distinct.map(c => c -> samples.filter(_._1 == c).map(_._2))
  }

  private def csv(runs: Seq[(String, Seq[Soak.Sample])]): Seq[String] = {
    val names = runs.flatMap(_._2.flatMap(_.values.keys)).distinct.sorted
    (Leading ++ names).mkString(",") +: runs.flatMap { case (c, ss) =>
      ss.map(s =>
        (Seq(c, s.shuffles.toString, s.batches.toString, f(s.seconds, 1)) ++
          names.map(n => s.values.get(n).map(f(_, 2)).getOrElse(""))).mkString(","))
    }
  }

  private def f(v: Double, digits: Int): String = s"%.${digits}f".formatLocal(Locale.ROOT, v)

  /** Each measure's chart, two to a row, in one picture. */
  private def drawAll(out: Path, runs: Seq[(String, Seq[Soak.Sample])]): Unit =
    ChartGrid.save(out, Picture, 2, Charts.map { case (m, title) => chart(m, title, runs) })

  private def chart(measure: String, title: String, runs: Seq[(String, Seq[Soak.Sample])]) = {
    val chart = new XYChartBuilder().width(700).height(300).title(title)
      .xAxisTitle("shuffles made by the iterative job").yAxisTitle(measure).build()
    for ((config, samples) <- runs if samples.exists(_.values.contains(measure))) {
      val kept = samples.filter(_.values.contains(measure))
      chart.addSeries(
        config,
        kept.map(s => Double.box(s.shuffles.toDouble)).asJava,
        kept.map(s => Double.box(s.values(measure))).asJava)
    }
    chart
  }

  private def page(
      plan: Soak.Plan,
      runs: Seq[(String, Seq[Soak.Sample])],
      left: Seq[(String, Map[String, Double])],
      notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= "# Soak: an application that runs for long\n\n"
    sb ++= "Written by `SoakSuite`'s long soak (`mvn -B install -pl integration-tests " +
      "-Dtest=SoakSuite -Dkae.tests=full -Dkae.soak.out=$PWD/docs/benchmarks/soak " +
      "-Dsurefire.failIfNoSpecifiedTests=false`; `-Dkae.soak.shuffles`, `-Dkae.soak.batches` " +
      "set its length). One application in `local-cluster[2,2,1024]` runs an iterative job " +
      "that makes a new shuffle per iteration (4 map and 4 reduce tasks, its result checked) " +
      s"while a Structured Streaming aggregation over the rate source shuffles into " +
      s"${plan.streamPartitions} partitions every micro-batch, in a scheduler pool of its own; " +
      "the iterative job keeps pace with the query, so that both reach their counts together; " +
      s"sampled every ${plan.sampleEvery} iterations after a full collection in every JVM. " +
      "Spark's UI keeps 200 stages and jobs " +
      "(`spark.ui.retainedStages`, `spark.ui.retainedJobs`), so its own store is full early; " +
      "the context cleaner's periodic collection runs every 10 s.\n\n"
    sb ++= "| config | shuffles | micro-batches | minutes |\n|---|---:|---:|---:|\n"
    for ((c, ss) <- runs if ss.nonEmpty) {
      sb ++= s"| $c | ${ss.last.shuffles} | ${ss.last.batches} | ${f(ss.last.seconds / 60, 1)} |\n"
    }
    sb ++= "\nGrowth per 1,000 shuffles after warm-up (the median of the slopes between every two " +
      "samples after the first third), and the value at the end:\n\n"
    sb ++= "| measure | kae-auto growth | spark-lz4 growth | kae-auto at the end | " +
      "spark-lz4 at the end |\n|---|---:|---:|---:|---:|\n"
    val measures = runs.flatMap(_._2.flatMap(_.values.keys)).distinct.sorted
    for (m <- measures) {
      val cells = runs.map { case (_, ss) => f(Soak.growth(ss, m), 2) } ++
        runs.map { case (_, ss) =>
          ss.lastOption.flatMap(_.values.get(m)).map(f(_, 1)).getOrElse("-")
        }
      sb ++= s"| $m | ${cells.mkString(" | ")} |\n"
    }
    sb ++= "\nLeft once the streaming query stopped and the context cleaner caught up (collections " +
      "until its counts settle):\n\n| config | shuffles tracked | accumulators | files in the " +
      "local dirs |\n|---|---:|---:|---:|\n"
    for ((c, l) <- left) {
      sb ++= s"| $c | ${f(l("shufflesTracked"), 0)} | ${f(l("accumulators"), 0)} | " +
        s"${f(l("localFiles"), 0)} |\n"
    }
    sb ++= s"\n![$Picture]($Picture)\n\n"
    notes.foreach(n => sb ++= PageNotes.block(n))
    sb.toString.stripSuffix("\n")
  }
}
