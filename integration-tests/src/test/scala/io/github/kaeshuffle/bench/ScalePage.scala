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

import java.awt.Color
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}
import java.util.Locale

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.ScaleBench.Run
import io.github.kaeshuffle.it.NodeShape
import org.knowm.xchart.{CategoryChartBuilder, XYChartBuilder}
import org.knowm.xchart.internal.chartpart.Chart

/**
 * ScaleBench's results in `out`: `scale.csv` (every run), `README.md` (a table of our default's
 * time against Spark's lz4 in every cell, then per shape and workload at each size, every
 * configuration's medians against Spark's lz4 shuffle) and `scale.png`: per
 * shape a chart of the time against Spark's lz4 and, for workloads measured at several sizes, one
 * of the time per GB against the size. A run replaces the cells (shape, workload, size) it measured and keeps
 * the others, each with its commit and date, and the page's title and notes (PageNotes).
 */
object ScalePage {
  private val Baseline = "spark-lz4"

  /** One colour per configuration in every chart, in this order in every legend. */
  private val Colors = Seq(
    "spark-lz4" -> new Color(0x4c72b0),
    "spark-lz4-again" -> new Color(0x9fb6dc),
    "spark-zstd" -> new Color(0xc44e52),
    "spark-kaeio" -> new Color(0x937860),
    "kae-auto" -> new Color(0x55a868),
    "kae-lz4" -> new Color(0xdd8452),
    "kae-zstd" -> new Color(0x8172b3),
    "kae-kaezip" -> new Color(0xda8bc3),
    "kae-auto-io" -> new Color(0x64b5cd),
    "kae-auto-installed" -> new Color(0xccb974),
    "kae-zstd-io" -> new Color(0x8c8c8c)
  )

  private val ColorOf = Colors.toMap

  private def color(config: String): Color =
    ColorOf.getOrElse(config, Color.getHSBColor((config.hashCode & 0xff) / 255f, 0.6f, 0.7f))

  /** The configurations of `rs` in the charts' order: the known ones first, then by name. */
  private def configs(rs: Seq[Run]): Seq[String] = {
    val known = Colors.map(_._1)
    rs.map(_.config).distinct.sortBy(c =>
      (known.indexOf(c) match { case -1 => known.size; case i => i }, c))
  }
  private val GiB = 1024.0 * 1024 * 1024
  private val Columns = "shape,workload,bytes,config,rep,seconds,cpu_seconds,peak_rss_bytes," +
    "spilled_disk_bytes,disk_read_bytes,disk_written_bytes,shuffle_written_bytes,result_ok,commit,date," +
    "driver_cpu_seconds,task_cpu_seconds,jit_cpu_seconds,gc_cpu_seconds,kae_thread_cpu_seconds," +
    "other_executor_cpu_seconds"

  def write(out: Path, runs: Seq[Run], args: Array[String]): Unit = {
    Files.createDirectories(out)
    val csv = out.resolve("scale.csv")
    val measured = runs.map(cell).toSet
    val all = read(csv).filterNot(r => measured(cell(r))) ++ runs
    val lines = Columns +: all.map(r =>
      Seq(
        r.shape,
        r.workload,
        r.bytes,
        r.config,
        r.rep,
        r.seconds,
        r.cpuSeconds,
        r.peakRss,
        r.spilled,
        r.diskRead,
        r.diskWritten,
        r.shuffleWritten,
        r.resultOk,
        r.commit,
        r.date
      ).mkString(",") + splitColumns(r.cpuSplit))
    Files.write(csv, lines.asJava)
    val picture = draw(out, all)
    val readme = out.resolve("README.md")
    val before = Some(readme).filter(Files.exists(_)).map(Files.readString)
    Files.write(
      readme,
      page(all, args, picture, title(before), before.flatMap(PageNotes.parse)).getBytes(
        StandardCharsets.UTF_8))
  }

  /**
   * `<dir>`: draws `<dir>/scale.png` again from `<dir>/scale.csv` (the page stays as it is).
   * `<dir> <csv> <arg>...`: writes the runs of a ScaleBench run that went to another directory
   * (its `scale.csv` and the arguments it ran with) into the page at `<dir>`, as if made there.
   */
  def main(args: Array[String]): Unit = {
    val out = Paths.get(args(0))
    if (args.length == 1) draw(out, read(out.resolve("scale.csv")))
    // The csv stands where ScaleBench's own output directory does, which the page leaves out.
    else write(out, read(Paths.get(args(1))), args.drop(1))
  }

  /** Each shape's charts side by side, one shape to a row, as `scale.png`. */
  private def draw(out: Path, all: Seq[Run]): Seq[String] =
    ChartGrid.save(
      out,
      "scale.png",
      2,
      all.map(_.shape).distinct.flatMap(s => charts(s, all.filter(_.shape == s)))).toSeq

  private def cell(r: Run): (String, String, Long) = (r.shape, r.workload, r.bytes)

  /** The workloads and sizes `rs` ran, by workload, then size. */
  private def items(rs: Seq[Run]): Seq[(String, Long)] =
    rs.map(r => (r.workload, r.bytes)).distinct.sortBy(identity)

  /** The CPU split's columns; empty where the run was recorded before it. */
  private def splitColumns(c: CpuSplit): String =
    Seq(c.driver, c.tasks, c.jit, c.gc, c.ours, c.other)
      .map(v => if (v.isNaN) "" else "%.2f".formatLocal(Locale.ROOT, v)).mkString(",", ",", "")

  private def splitOf(f: Array[String]): CpuSplit =
    if (f.length < 21 || f(15).isEmpty) CpuSplit.Unknown
    else CpuSplit(
      f(15).toDouble,
      f(16).toDouble,
      f(17).toDouble,
      f(18).toDouble,
      f(19).toDouble,
      f(20).toDouble)

  private def read(csv: Path): Seq[Run] =
    if (!Files.exists(csv)) Nil
    else Files.readAllLines(csv).asScala.drop(1).filter(_.nonEmpty).map(_.split(",", -1)).map {
      f =>
        Run(
          f(0),
          f(1),
          f(2).toLong,
          f(3),
          f(4).toInt,
          f(5).toDouble,
          f(6).toDouble,
          f(7).toLong,
          f(8).toLong,
          f(9).toLong,
          f(10).toLong,
          f(11).toLong,
          f(12).toBoolean,
          f(13),
          f(14),
          splitOf(f)
        )
    }.toSeq

  /** `320m`, `3.2g`: a size in the study's units (powers of 1000). */
  def size(bytes: Long): String =
    if (bytes >= 1000000000L) "%sg".formatLocal(Locale.ROOT, trim(bytes / 1e9))
    else "%sm".formatLocal(Locale.ROOT, trim(bytes / 1e6))

  private def trim(v: Double): String =
    BigDecimal(v).setScale(2, BigDecimal.RoundingMode.HALF_UP).bigDecimal.stripTrailingZeros
      .toPlainString

  private def median(v: Seq[Double]): Double = Harness.median(v)

  private def mib(v: Double): String = "%.0f".formatLocal(Locale.ROOT, v / 1048576.0)

  private def f2(v: Double): String =
    if (v.isNaN || v.isInfinite) "-" else "%.2f".formatLocal(Locale.ROOT, v)

  private def med(rs: Seq[Run])(f: Run => Double): Double = median(rs.map(f))

  /** The page's title: its own where it has one (a page of another out dir names itself). */
  private def title(before: Option[String]): String =
    before.flatMap(_.linesIterator.take(1).toList.headOption).filter(_.startsWith("# "))
      .getOrElse("# The study's workloads, sizes and node shapes")

  private def page(
      all: Seq[Run],
      args: Array[String],
      charts: Seq[String],
      title: String,
      notes: Option[String]): String = {
    val sb = new StringBuilder(title + "\n\n")
    sb ++= "Made by `mvn -B -pl integration-tests -am -Pbench-scale verify` (as root; class " +
      "`io.github.kaeshuffle.bench.ScaleBench`), this page's last run with " +
      s"`${args.drop(1).mkString(" ")}` (shapes, workload@size, repetitions, configurations); " +
      "each table names the commits and dates of its runs. Every run: [scale.csv](scale.csv). " +
      s"Each run is a `spark-submit` in `${ScaleBench.Master}` (two executors of 1 core and " +
      "2 GB, as in the study), the configurations in turn, their order rotated from one " +
      "repetition to the next; medians with (min-max). Results are checked against the first " +
      "configuration's: digests equal, MLlib's values within a relative " +
      s"${ScaleBench.Tolerance}. `kae-kaezip` runs on the KAEzip cost model (simulated, not " +
      "hardware: 50 us per request, 2 contexts, and the model's own zlib work on the CPU, which " +
      "hardware would not spend).\n\n"
    sb ++= MachineInfo.describe()
    val cores = ScaleBench.Cores
    sb ++= s"\n## Shapes (for the $cores cores of a run)\n\n| shape | disk | link (cluster runs) | memory " +
      "cgroup |\n|---|---:|---:|---:|\n| host | this machine's disk | - | none |\n"
    for (s <- NodeShape.Presets) {
      sb ++= "| %s | %.1f MB/s | %s | %.1f GiB + %.0f GiB |\n".formatLocal(
        Locale.ROOT,
        s.name,
        s.diskRate(cores) / 1e6,
        s.linkRate(cores),
        s.memoryPerSlot * cores / GiB,
        ScaleBench.OtherBytes / GiB)
    }
    sb ++= "\n" + glance(all)
    notes.foreach(n => sb ++= PageNotes.block(n))
    charts.foreach(c => sb ++= s"![$c]($c)\n\n")
    for (shape <- all.map(_.shape).distinct) {
      sb ++= s"## $shape\n\n"
      val here = all.filter(_.shape == shape)
      for ((w, bytes) <- items(here))
        sb ++= table(here.filter(r => r.workload == w && r.bytes == bytes), w, bytes)
    }
    sb.toString
  }

  /** Where the default configuration ran, per cell; with our IO codec where only that ran. */
  private val Ours = Seq("kae-auto" -> "", "kae-auto-io" -> ", with KaeIoCodec")

  /**
   * One line per workload@size, one column per shape: our default's median time over Spark's lz4
   * median time and how many runs ours has, so a reader sees every cell before the notes.
   */
  private def glance(all: Seq[Run]): String = {
    val shapes = (("host" +: NodeShape.Presets.map(_.name)) ++ all.map(_.shape)).distinct
      .filter(s => all.exists(_.shape == s))
    val sb = new StringBuilder(
      "## At a glance: `auto` against Spark's lz4\n\nOur default's median time over Spark's " +
        "lz4 median time in each cell of the tables below (in brackets: our default's runs); " +
        "the notes say what each cell means.\n\n")
    sb ++= shapes.mkString("| workload@size | ", " | ", " |\n")
    sb ++= shapes.map(_ => "---:").mkString("|---|", "|", "|\n")
    for ((w, b) <- items(all)) {
      val cells = shapes.map(s => ratioCell(all.filter(r => cell(r) == ((s, w, b)))))
      sb ++= cells.mkString(s"| $w@${size(b)} | ", " | ", " |\n")
    }
    sb ++= "\n"
    sb.toString
  }

  private def ratioCell(rs: Seq[Run]): String = {
    val base = rs.filter(_.config == Baseline)
    Ours.find { case (c, _) => rs.exists(_.config == c) } match {
      case Some((c, how)) if base.nonEmpty =>
        val ours = rs.filter(_.config == c)
        s"${f2(med(ours)(_.seconds) / med(base)(_.seconds))}x (${ours.size}$how)"
      case _ => "-"
    }
  }

  private def table(rs: Seq[Run], w: String, bytes: Long): String = {
    val sb = new StringBuilder(s"### $w@${size(bytes)}\n\n")
    val when = rs.map(r => s"${r.commit} ${r.date}").distinct.mkString(", ")
    val reps = rs.map(_.rep).distinct.size
    sb ++= s"$reps repetition(s); $when" +
      (if (rs.forall(_.resultOk)) "; every result equal." else "; **SOME RESULTS DIFFERED**.") +
      "\n\n| config | time s | vs lz4 | CPU s | peak RSS MiB | vs lz4 | spilled MiB | disk " +
      "written MiB | disk read MiB | shuffle MiB | CPU s: tasks, JIT, GC; driver |\n" +
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    val base = rs.filter(_.config == Baseline)
    for (c <- rs.map(_.config).distinct) {
      val cs = rs.filter(_.config == c)
      val t = cs.map(_.seconds)
      sb ++= s"| $c | ${f2(median(t))} (${f2(t.min)}-${f2(t.max)}) | " +
        s"${f2(median(t) / med(base)(_.seconds))} | ${f2(med(cs)(_.cpuSeconds))} | " +
        s"${mib(med(cs)(_.peakRss.toDouble))} | " +
        s"${f2(med(cs)(_.peakRss.toDouble) / med(base)(_.peakRss.toDouble))} | " +
        s"${mib(med(cs)(_.spilled.toDouble))} | ${mib(med(cs)(_.diskWritten.toDouble))} | " +
        s"${mib(med(cs)(_.diskRead.toDouble))} | ${mib(med(cs)(_.shuffleWritten.toDouble))} | " +
        s"${splitCell(cs.map(_.cpuSplit))} |\n"
    }
    sb ++= "\n"
    sb.toString
  }

  /** Medians of the executors' task, JIT and GC seconds and the driver's; "-" before the split. */
  private def splitCell(splits: Seq[CpuSplit]): String = {
    val known = splits.filterNot(_.tasks.isNaN)
    if (known.isEmpty) "-"
    else {
      def m(f: CpuSplit => Double) = "%.1f".formatLocal(Locale.ROOT, median(known.map(f)))
      s"${m(_.tasks)}, ${m(_.jit)}, ${m(_.gc)}; ${m(_.driver)}"
    }
  }

  /** A shape's charts: the time against Spark's lz4, and per GB where it ran several sizes. */
  private def charts(shape: String, rs: Seq[Run]): Seq[Chart[_, _]] = {
    val items = ScalePage.items(rs)
    val labels = items.map { case (w, b) => s"$w@${size(b)}" }
    val ratio = new CategoryChartBuilder().width(1000).height(460)
      .title(s"$shape: time / Spark's lz4 time").xAxisTitle("workload@size")
      .yAxisTitle("ratio (lower is better)").build()
    ratio.getStyler.setXAxisLabelRotation(20)
    for (c <- configs(rs).filter(_ != Baseline)) {
      val ys = items.map { case (w, b) =>
        def at(cfg: String) =
          med(rs.filter(r => r.workload == w && r.bytes == b && r.config == cfg))(_.seconds)
        val v = at(c) / at(Baseline)
        Double.box(if (v.isNaN || v.isInfinite) 0.0 else v)
      }
      ratio.addSeries(c, labels.asJava, ys.asJava).setFillColor(color(c))
    }
    val perGb = for (w <- items.map(_._1).distinct if items.count(_._1 == w) > 1) yield {
      val sizes = items.filter(_._1 == w).map(_._2)
      val chart = new XYChartBuilder().width(1000).height(460)
        .title(s"$shape, $w: seconds per GB of input against the input's size")
        .xAxisTitle("input GB").yAxisTitle("seconds per GB").build()
      for (c <- configs(rs.filter(_.workload == w))) {
        val ys = sizes.map(b =>
          med(rs.filter(r => r.workload == w && r.bytes == b && r.config == c))(_.seconds) /
            (b / 1e9))
        chart
          .addSeries(c, sizes.map(b => Double.box(b / 1e9)).asJava, ys.map(Double.box).asJava)
          .setMarkerColor(color(c))
          .setLineColor(color(c))
      }
      chart
    }
    ratio +: perGb
  }
}
