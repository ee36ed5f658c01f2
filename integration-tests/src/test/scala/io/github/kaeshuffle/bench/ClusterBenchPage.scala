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

import java.nio.file.{Files, Path}
import java.util.Locale

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.ClusterBench.Run
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat

/**
 * ClusterBench's results: `cluster.csv` (every run), `cluster.md` (per rate and workload, each
 * configuration's medians and its time and link bytes against Spark's lz4 shuffle in the same
 * repetition) and `cluster-time-ratio.png`.
 */
object ClusterBenchPage {
  private val Baseline = "spark-lz4"

  def write(out: Path, runs: Seq[Run], args: Array[String]): Unit = {
    Files.write(
      out.resolve("cluster.csv"),
      ("rate,rep,config,workload,seconds,linkBytes,cpuSeconds" +: runs.map(r =>
        Seq(r.rate, r.rep, r.config, r.workload, r.seconds, r.linkBytes, r.cpuSeconds)
          .mkString(","))).asJava
    )
    val chart = drawChart(out, runs)
    Files.write(out.resolve("cluster.md"), page(runs, args, chart).getBytes("UTF-8"))
  }

  private def median(v: Seq[Double]): Double = Harness.median(v)

  private def fmt(v: Double, f: String) =
    if (v.isNaN || v.isInfinite) "-" else f.formatLocal(Locale.ROOT, v)

  /** Per repetition, `c`'s value over the baseline's, then their median. */
  private def ratio(rs: Seq[Run], c: String, f: Run => Double): Double = {
    val base = rs.filter(_.config == Baseline).map(r => r.rep -> f(r)).toMap
    median(rs.filter(_.config == c).flatMap(r => base.get(r.rep).map(f(r) / _)))
  }

  private def page(runs: Seq[Run], args: Array[String], chart: String): String = {
    val sb = new StringBuilder
    sb ++= "# Shuffle across test hosts with rate-limited links\n\n"
    sb ++= s"`ClusterBench ${args.mkString(" ")}`: Spark on YARN across three test hosts in " +
      "network namespaces (the driver and ResourceManager on one, a NodeManager on each of two " +
      "others, one executor each), every host's link limited to the rate in both directions " +
      "(tbf; no added latency). Time: the workload's jobs inside the application (medians over " +
      "repetitions); link bytes: everything delivered over the links during the application, " +
      "its start included; CPU: the machine's busy CPU seconds during the application (every " +
      "host shares the same cores). Ratios are against Spark's lz4 shuffle in the same " +
      "repetition, then the median.\n\n"
    for ((rate, rs) <- runs.groupBy(_.rate).toSeq.sortBy(_._1); (w, ws) <- rs.groupBy(_.workload)) {
      sb ++= s"## $rate, $w\n\n"
      sb ++= "| config | time (s) | time / spark-lz4 | link MiB | link bytes / spark-lz4 | CPU s |\n"
      sb ++= "|---|---:|---:|---:|---:|---:|\n"
      for (c <- ws.map(_.config).distinct) {
        val cs = ws.filter(_.config == c)
        sb ++= s"| $c | ${fmt(median(cs.map(_.seconds)), "%.2f")} | " +
          s"${fmt(ratio(ws, c, _.seconds), "%.3f")} | " +
          s"${fmt(median(cs.map(_.linkBytes / 1048576.0)), "%.1f")} | " +
          s"${fmt(ratio(ws, c, _.linkBytes.toDouble), "%.3f")} | " +
          s"${fmt(median(cs.map(_.cpuSeconds)), "%.1f")} |\n"
      }
      sb ++= "\n"
    }
    sb ++= s"![time against Spark's lz4 shuffle]($chart)\n"
    sb.toString
  }

  private def drawChart(out: Path, runs: Seq[Run]): String = {
    val chart = new CategoryChartBuilder().width(1000).height(460)
      .title("Workload time across test hosts, against Spark's lz4 shuffle (median)")
      .xAxisTitle("link rate, workload").yAxisTitle("ratio (lower is better)").build()
    val cells = runs.map(r => (r.rate, r.workload)).distinct
    val labels = cells.map { case (rate, w) => s"$rate $w" }
    for (c <- runs.map(_.config).distinct if c != Baseline) {
      val ys = cells.map { case (rate, w) =>
        ratio(runs.filter(r => r.rate == rate && r.workload == w), c, _.seconds)
      }
      chart.addSeries(c, labels.asJava, ys.map(Double.box).asJava)
    }
    val file = "cluster-time-ratio.png"
    BitmapEncoder.saveBitmap(chart, out.resolve(file).toString, BitmapFormat.PNG)
    file
  }
}
