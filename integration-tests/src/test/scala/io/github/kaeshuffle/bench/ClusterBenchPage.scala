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

import io.github.kaeshuffle.bench.ClusterBench.{Run, Ties}
import io.github.kaeshuffle.it.NodeShape
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat

/**
 * ClusterBench's results: `cluster.csv` (every run), `README.md` (per rate and workload, each
 * configuration's medians and its time and link bytes against Spark's lz4 shuffle in the same
 * repetition) and `cluster-time-ratio.png`.
 */
object ClusterBenchPage {
  private val Baseline = "spark-lz4"

  private val Columns =
    "rate,rep,config,workload,seconds,linkBytes,cpuSeconds,commit,date,diskRead,diskWritten"

  /** The columns before the node shapes' disks (their rows read with no disk figures). */
  private val OldColumns = Columns.split(',').take(9).mkString(",")

  /**
   * Writes `runs` into the page in `out`, replacing the cells they measured, keeping the rest;
   * `ties` are this run's second looks at queries whose rows differed.
   */
  def write(out: Path, runs: Seq[Run], ties: Seq[Ties], args: Array[String]): Unit = {
    val csv = out.resolve("cluster.csv")
    val measured = runs.map(cell).toSet
    val all = read(csv).filterNot(r => measured(cell(r))) ++ runs
    Files.write(
      csv,
      (Columns +: all.map(r =>
        Seq(
          r.rate,
          r.rep,
          r.config,
          r.workload,
          r.seconds,
          r.linkBytes,
          r.cpuSeconds,
          r.commit,
          r.date,
          r.disk.fold("")(_.readBytes.toString),
          r.disk.fold("")(_.writtenBytes.toString)
        ).mkString(","))).asJava
    )
    val chart = drawChart(out, all)
    val readme = out.resolve("README.md")
    Files.write(readme, page(all, ties, args, chart, PageNotes.of(readme)).getBytes("UTF-8"))
  }

  private def cell(r: Run): (String, String) = (r.rate, r.workload)

  /** The runs already on the page; none where there is no page yet. */
  private def read(csv: Path): Seq[Run] =
    if (!Files.exists(csv)) Nil
    else {
      val lines = Files.readAllLines(csv).asScala.toSeq
      require(
        lines.headOption.exists(Set(Columns, OldColumns)),
        s"$csv: expected the columns $Columns")
      lines.tail.map(_.split(',')).map(f =>
        Run(
          f(0),
          f(1).toInt,
          f(2),
          f(3),
          f(4).toDouble,
          f(5).toLong,
          f(6).toDouble,
          commit = f(7),
          date = f(8),
          disk = diskOf(f)))
    }

  /** A row's disk figures: none in rows without a shape (their fields empty or absent). */
  private def diskOf(f: Array[String]): Option[BlockIo] =
    if (f.length < 11 || f(9).isEmpty) None else Some(BlockIo(f(9).toLong, f(10).toLong))

  /**
   * Link rates in bits per second, for their order on the page ("none": unlimited; a node shape's
   * name: its link for one core).
   */
  private def bitsPerSecond(rate: String): Double = {
    val units = Seq("kbit" -> 1e3, "mbit" -> 1e6, "gbit" -> 1e9)
    units.collectFirst {
      case (u, f) if rate.endsWith(u) => rate.dropRight(u.length).toDouble * f
    }.orElse(NodeShape.preset(rate).map(_.linkPerCore.toDouble))
      .getOrElse(Double.PositiveInfinity)
  }

  /** The command line with paths relative to the repository, as anyone would type it. */
  private def command(args: Array[String]): String = {
    val root = Paths.get(Harness.repositoryRoot).toAbsolutePath
    args.map { a =>
      val p = Paths.get(a)
      if (p.isAbsolute && p.startsWith(root)) root.relativize(p).toString else a
    }.mkString(" ")
  }

  private def median(v: Seq[Double]): Double = Harness.median(v)

  private def fmt(v: Double, f: String) =
    if (v.isNaN || v.isInfinite) "-" else f.formatLocal(Locale.ROOT, v)

  /** Per repetition, `c`'s value over the baseline's, then their median. */
  private def ratio(rs: Seq[Run], c: String, f: Run => Double): Double = {
    val base = rs.filter(_.config == Baseline).map(r => r.rep -> f(r)).toMap
    median(rs.filter(_.config == c).flatMap(r => base.get(r.rep).map(f(r) / _)))
  }

  private def page(
      runs: Seq[Run],
      ties: Seq[Ties],
      args: Array[String],
      chart: String,
      notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= "# Shuffle across test hosts with rate-limited links\n\n"
    sb ++= s"Last run: `ClusterBench ${command(args)}`. Spark on YARN across three test hosts in " +
      "network namespaces (the driver and ResourceManager on one, a NodeManager on each of two " +
      "others, one executor each), every host's link limited to the rate in both directions " +
      "(tbf; no added latency); each rate's fresh cluster first runs an untimed tiny `sort` " +
      "per configuration. Time: the workload's jobs inside the application (medians over " +
      "repetitions); link bytes: everything delivered over the links during the application, " +
      "its start included; CPU: the machine's busy CPU seconds during the application (every " +
      "host shares the same cores). Ratios are against Spark's lz4 shuffle in the same " +
      "repetition, then the median. A node shape's name in place of a rate (`kunpeng-study`, " +
      "`x86-study`) gives every host that shape's link for one core and each NodeManager's " +
      "local dirs a disk at the shape's rate for one core, with the host's memory bounded " +
      "(docs/benchmarks/scale); its cells add the MiB those disks wrote and read. Each cell " +
      "(rate and workload) comes from one run of the " +
      "benchmark, named under its heading; a later run replaces the cells it measures.\n\n"
    notes.foreach(n => sb ++= PageNotes.block(n))
    val rates = runs.groupBy(_.rate).toSeq.sortBy(r => bitsPerSecond(r._1))
    for ((rate, rs) <- rates; (w, ws) <- rs.groupBy(_.workload).toSeq.sortBy(_._1)) {
      sb ++= s"## $rate, $w\n\n"
      sb ++= s"Measured on ${ws.map(r => s"${r.commit}, ${r.date}").distinct.mkString("; ")}.\n\n"
      val disks = ws.forall(_.disk.isDefined)
      sb ++= "| config | time (s) | time / spark-lz4 | link MiB | link bytes / spark-lz4 | CPU s |" +
        (if (disks) " disk written MiB | disk read MiB |\n" else "\n")
      sb ++= "|---|---:|---:|---:|---:|---:|" + (if (disks) "---:|---:|\n" else "\n")
      for (c <- ws.map(_.config).distinct) {
        val cs = ws.filter(_.config == c)
        sb ++= s"| $c | ${fmt(median(cs.map(_.seconds)), "%.2f")} | " +
          s"${fmt(ratio(ws, c, _.seconds), "%.3f")} | " +
          s"${fmt(median(cs.map(_.linkBytes / 1048576.0)), "%.1f")} | " +
          s"${fmt(ratio(ws, c, _.linkBytes.toDouble), "%.3f")} | " +
          s"${fmt(median(cs.map(_.cpuSeconds)), "%.1f")} |" +
          (if (disks) diskCells(cs.flatMap(_.disk)) else "") + "\n"
      }
      sb ++= "\n"
      ties.filter(t => t.rate == rate && t.workload == w).foreach { t =>
        sb ++= "Rows that differed between runs, looked at again on the cluster without the " +
          "query's final LIMIT and sorted (an ORDER BY with ties decides neither the order of " +
          "tied rows nor which are cut):\n\n"
        t.verdicts.foreach(v => sb ++= s"- ${v.describe}\n")
        sb ++= "\n"
      }
    }
    sb ++= s"![time against Spark's lz4 shuffle]($chart)\n"
    sb.toString
  }

  private def diskCells(io: Seq[BlockIo]): String =
    s" ${fmt(median(io.map(_.writtenBytes / 1048576.0)), "%.1f")} | " +
      s"${fmt(median(io.map(_.readBytes / 1048576.0)), "%.1f")} |"

  private def drawChart(out: Path, runs: Seq[Run]): String = {
    val chart = new CategoryChartBuilder().width(1000).height(460)
      .title("Workload time across test hosts, against Spark's lz4 shuffle (median)")
      .xAxisTitle("link rate, workload").yAxisTitle("ratio (lower is better)").build()
    val cells = runs.map(cell).distinct.sortBy(c => (bitsPerSecond(c._1), c._2))
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
