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

import java.lang.management.ManagementFactory
import java.nio.file.{Files, Path, Paths}
import java.util.Locale

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.Harness.{median, Config}
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat

/**
 * The harness's partition-count dimension: [[PartitionsJob]] at each partition count
 * under each configuration, every run a JVM of its own with a 1 GiB heap (as `spark-submit
 * --driver-memory 1g`), the configurations alternating within each repetition. Reports time,
 * peak RSS, heap after GC, direct memory and GC time, as medians and as paired ratios to Spark's
 * shuffle. Writes `Partitions.csv`, `.md` and a chart.
 *
 * Arguments: output dir, partition counts, repetitions (one for every count, or one per count:
 * the large counts' runs take minutes each), configurations, rows, `run` (the
 * default) or `render` (re-renders the page and chart from the CSV in the output dir, e.g. after
 * the notes changed: no new runs), and Spark settings every run of every configuration adds
 * (`key=value,...`, or `none`), e.g. to take a cost of Spark's own out of both sides.
 */
object PartitionsBench {
  private val Baseline = "spark-lz4"

  case class Run(
      config: String,
      partitions: Int,
      rep: Int,
      wall: Double,
      rss: Long,
      heapAfterGc: Long,
      direct: Long,
      gcMs: Long,
      cpu: Double,
      result: String,
      taskCpu: Double,
      deserializeCpu: Double,
      stages: Seq[Double])

  def main(args: Array[String]): Unit = {
    val outDir = Paths.get(args.lift(0).getOrElse("docs/benchmarks"))
    val counts = args.lift(1).getOrElse("200,2000,20000").split(',').map(_.toInt).toSeq
    val reps = repetitions(args.lift(2).getOrElse("3"), counts)
    val all = Harness.AllConfigs
    val configs = Harness.named(args.lift(3).getOrElse(s"$Baseline,kae-auto"), all)
    require(configs.exists(_.name == Baseline), s"The configurations must include $Baseline.")
    val rows = args.lift(4).map(_.toLong).getOrElse(8000000L)
    val extra = Harness.extraSettings(args.lift(6).getOrElse("none"))
    val runs = args.lift(5).getOrElse("run") match {
      case "run" =>
        run(counts, reps, configs.map(c => c.copy(settings = c.settings ++ extra)), rows)
      case "render" => readCsv(outDir.resolve("Partitions.csv"))
      case other => throw new IllegalArgumentException(s"Unknown command $other: run or render.")
    }
    val expected = s"groups=100000 rows=$rows"
    Files.createDirectories(outDir)
    writeCsv(outDir.resolve("Partitions.csv"), runs)
    val chart = drawChart(outDir, runs, counts, configs)
    val notes = PageNotes.of(outDir.resolve("Partitions.md"))
    val md = summary(runs, counts, configs, extra, reps, rows, chart, expected, notes)
    Files.writeString(outDir.resolve("Partitions.md"), md)
    println(md)
    if (runs.exists(_.result != expected)) {
      System.err.println(s"Some run did not count $expected: see the page.")
      sys.exit(1)
    }
  }

  /** Repetitions per partition count: `n` for every count, or `n1,n2,...` one per count. */
  private def repetitions(arg: String, counts: Seq[Int]): Seq[Int] = {
    val given = arg.split(',').toSeq.map(_.trim.toInt)
    require(given.forall(_ > 0), s"bench.reps: $arg has a count under 1.")
    if (given.size == 1) counts.map(_ => given.head)
    else {
      require(
        given.size == counts.size,
        s"bench.reps: $arg gives ${given.size} counts for ${counts.size} partition counts " +
          s"(${counts.mkString(",")}): give one, or one per partition count."
      )
      given
    }
  }

  private def run(counts: Seq[Int], reps: Seq[Int], configs: Seq[Config], rows: Long): Seq[Run] = {
    // Untimed: the first JVMs pay for a cold page cache of the class path, whatever the shuffle.
    configs.foreach(c => once(c, counts.min, rows))
    val runs = mutable.ArrayBuffer[Run]()
    val repsOf = counts.zip(reps).toMap
    for (rep <- 1 to reps.max; p <- counts if rep <= repsOf(p); c <- configs) {
      val r = once(c, p, rows).copy(rep = rep)
      runs += r
      println(f"rep $rep%d P=$p%-6d ${c.name}%-12s ${r.wall}%7.2f s rss ${r.rss >> 20}%5d MiB " +
        s"heap after GC ${r.heapAfterGc >> 20} MiB direct ${r.direct >> 20} MiB GC ${r.gcMs} ms " +
        f"CPU ${r.cpu}%.1f s task run CPU ${r.taskCpu}%.1f s deserialize ${r.deserializeCpu}%.1f s" +
        s" stages ${r.stages.mkString("/")} s")
    }
    runs.toSeq
  }

  private def readCsv(csv: Path): Seq[Run] =
    Files.readAllLines(csv).asScala.drop(1).filter(_.nonEmpty).map(_.split(",", -1)).map { f =>
      Run(
        f(0),
        f(1).toInt,
        f(2).toInt,
        f(3).toDouble,
        f(4).toLong,
        f(5).toLong,
        f(6).toLong,
        f(7).toLong,
        f(8).toDouble,
        f(9),
        // Pages from before the tasks' CPU and the stages' times were recorded lack them.
        f.lift(10).map(_.toDouble).getOrElse(Double.NaN),
        f.lift(11).map(_.toDouble).getOrElse(Double.NaN),
        f.lift(12).map(stageTimes).getOrElse(Nil)
      )
    }.toSeq

  /** Runs the job in a new JVM with this JVM's options (less heap size and recordings). */
  private def once(c: Config, partitions: Int, rows: Long): Run = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val inherited = ManagementFactory.getRuntimeMXBean.getInputArguments.asScala
      .filterNot(a => a.startsWith("-Xmx") || a.startsWith("-XX:StartFlightRecording"))
    val settings = c.settings.map { case (k, v) => s"$k=$v" }
    val command = Seq(java) ++ inherited ++ Seq(
      "-Xmx1g",
      "-cp",
      System.getProperty("java.class.path"),
      PartitionsJob.getClass.getName.stripSuffix("$"),
      partitions.toString,
      rows.toString) ++ settings
    val process = new ProcessBuilder(command: _*).redirectErrorStream(true).start()
    val output = scala.io.Source.fromInputStream(process.getInputStream).getLines().toList
    val exit = process.waitFor()
    val line = output.find(_.startsWith("RESULT ")).getOrElse(throw new IllegalStateException(
      s"${c.name} at $partitions partitions exited with $exit and no result:\n" +
        output.takeRight(40).mkString("\n")))
    val f = line.stripPrefix("RESULT ").split(' ').map(_.split("=", 2)).map(a => a(0) -> a(1))
      .toMap
    Run(
      c.name,
      partitions,
      0,
      f("wall").toDouble,
      f("rss").toLong,
      f("heapAfterGc").toLong,
      f("direct").toLong,
      f("gcMs").toLong,
      f("cpu").toDouble,
      s"groups=${f("groups")} rows=${f("rows")}",
      f("taskCpu").toDouble,
      f("deserializeCpu").toDouble,
      stageTimes(f("stages"))
    )
  }

  /** Each stage's seconds, in stage order: `6.3/258.9/1.2`. */
  private def stageTimes(text: String): Seq[Double] =
    text.split('/').toSeq.filter(_.nonEmpty).map(_.toDouble)

  private def writeCsv(path: Path, runs: Seq[Run]): Unit = {
    val header = "config,partitions,rep,wall_s,peak_rss_bytes,heap_after_gc_bytes," +
      "direct_bytes,gc_ms,cpu_s,result,task_run_cpu_s,task_deserialize_cpu_s,stages_s"
    val lines = runs.map(r =>
      Seq(
        r.config,
        r.partitions,
        r.rep,
        r.wall,
        r.rss,
        r.heapAfterGc,
        r.direct,
        r.gcMs,
        r.cpu,
        r.result,
        r.taskCpu,
        r.deserializeCpu,
        r.stages.mkString("/"))
        .mkString(","))
    Files.write(path, (header +: lines).asJava)
  }

  private def of(runs: Seq[Run], c: String, p: Int): Seq[Run] =
    runs.filter(r => r.config == c && r.partitions == p)

  /** Per repetition, `f` of `c` over `f` of the baseline in the same repetition. */
  private def paired(runs: Seq[Run], c: String, p: Int, f: Run => Double): Seq[Double] =
    of(runs, c, p).flatMap(r => of(runs, Baseline, p).find(_.rep == r.rep).map(b => f(r) / f(b)))

  private def fmt(v: Double, f: String) =
    if (v.isNaN || v.isInfinite) "-" else f.formatLocal(Locale.ROOT, v)

  private def mib(v: Seq[Long]) = fmt(median(v.map(_.toDouble)) / 1048576.0, "%.0f")

  private def repsArg(reps: Seq[Int]): String =
    if (reps.distinct.size == 1) reps.head.toString else reps.mkString(",")

  private def repsText(reps: Seq[Int], counts: Seq[Int]): String =
    if (reps.distinct.size == 1) s"${reps.head} repetitions"
    else
      "repetitions (" + counts.zip(reps).map { case (p, n) =>
        String.format(Locale.ROOT, "%d at P = %,d", Int.box(n), Int.box(p))
      }.mkString(", ") + ")"

  private def summary(
      runs: Seq[Run],
      counts: Seq[Int],
      configs: Seq[Config],
      extra: Seq[(String, String)],
      reps: Seq[Int],
      rows: Long,
      chart: String,
      expected: String,
      notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= "# Memory and time by partition count: KAE Shuffle vs Spark's shuffle\n\n"
    sb ++= "Produced by `mvn -B -pl integration-tests -am -Pbench-partitions verify" +
      s" -Dbench.partitions=${counts.mkString(",")} -Dbench.reps=${repsArg(reps)}" +
      s" -Dbench.configs=${configs.map(_.name).mkString(",")} -Dbench.rows=$rows" +
      settingsArg(extra) + "` (class " +
      "`io.github.kaeshuffle.bench.PartitionsBench`): a Spark SQL job repartitions " +
      s"`spark.range(0, $rows, 1, 4)` (a key of 100,000 values and a short string) into P " +
      "partitions by key and counts each key; local[2], AQE off, every run in a JVM of its own " +
      "with a 1 GiB heap (as `spark-submit --driver-memory 1g`); configurations alternating " +
      s"within each repetition, one untimed round at the smallest P first, then " +
      repsText(
        reps,
        counts) + ". Peak RSS is the JVM's `VmHWM`; heap after GC the most heap in use right " +
      "after any collection; direct memory the most in the JVM's direct buffer pool plus KAE " +
      "Shuffle's buffers mapped from the kernel (sampled every 20 ms); GC time over the JVM's " +
      "life; CPU the process's CPU time, all threads (on a shared host, cycles stolen by " +
      "neighbours show in the time, not here); task CPU Spark's own measure of its tasks' CPU, " +
      "summed, apart for running them (the shuffle's work is in there) and for deserializing " +
      "them (the same work whichever shuffle, which grows with the partition count); stage " +
      "times each stage's wall time, submission to completion (medians): the map stage (4 " +
      "tasks), the reduce stage (P tasks, each reading 4 segments and writing one row) and the " +
      "last (one task reading P segments). " +
      "Ratios are medians of per-repetition pairs " +
      s"against $Baseline. Every run: [Partitions.csv](Partitions.csv).\n\n"
    if (extra.nonEmpty) {
      sb ++= "Every run of every configuration also set " +
        extra.map { case (k, v) => s"`$k=$v`" }.mkString(", ") + ".\n\n"
    }
    sb ++= MachineInfo.describe()
    sb ++= s"- Spark: ${org.apache.spark.SPARK_VERSION}, Scala " +
      s"${scala.util.Properties.versionNumberString}\n\n"
    sb ++= s"![$chart]($chart)\n\n"
    sb ++= "| P | config | time s, median (min-max) | time vs spark | CPU s | CPU vs spark | " +
      "task run CPU s | vs spark | task deserialize CPU s | stage times s | " +
      "peak RSS MiB | RSS vs spark | heap after GC MiB | direct MiB | GC ms | results |\n" +
      "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n"
    for (p <- counts; c <- configs) {
      val rs = of(runs, c.name, p)
      val t = rs.map(_.wall)
      val vs = (f: Run => Double) => {
        // No ratio for the baseline, nor for a measure older pages did not record (NaN).
        val ratio = if (c.name == Baseline) Double.NaN else median(paired(runs, c.name, p, f))
        if (ratio.isNaN) "-" else fmt(ratio, "%.2f") + "x"
      }
      sb ++= s"| $p | ${c.name} | ${fmt(median(t), "%.2f")} (${fmt(t.min, "%.2f")}-" +
        s"${fmt(t.max, "%.2f")}) | ${vs(_.wall)} | ${fmt(median(rs.map(_.cpu)), "%.1f")} | " +
        s"${vs(_.cpu)} | ${fmt(median(rs.map(_.taskCpu)), "%.1f")} | ${vs(_.taskCpu)} | " +
        s"${fmt(median(rs.map(_.deserializeCpu)), "%.1f")} | ${stageMedians(rs)} | " +
        s"${mib(rs.map(_.rss))} | " +
        s"${vs(_.rss.toDouble)} | ${mib(rs.map(_.heapAfterGc))} | ${mib(rs.map(_.direct))} | " +
        s"${median(rs.map(_.gcMs.toDouble)).toLong} | " +
        s"${if (rs.forall(_.result == expected)) "identical" else "DIFFER"} |\n"
    }
    sb ++= "\n"
    // The hand-written analysis (where the memory and time go, from profiles) checked in next to it.
    notes.foreach(n => sb ++= PageNotes.block(n))
    sb.toString
  }

  /** The median of each stage's time over the runs, `map / reduce / last`; - if not recorded. */
  private def stageMedians(rs: Seq[Run]): String = {
    val n = rs.map(_.stages.size).distinct
    if (n.size != 1 || n.head == 0) "-"
    else (0 until n.head).map(i => fmt(median(rs.map(_.stages(i))), "%.1f")).mkString(" / ")
  }

  private def settingsArg(extra: Seq[(String, String)]): String =
    if (extra.isEmpty) ""
    else " -Dbench.settings=" + extra.map { case (k, v) => s"$k=$v" }.mkString(",")

  private def drawChart(
      dir: Path,
      runs: Seq[Run],
      counts: Seq[Int],
      configs: Seq[Config]): String = {
    val chart = new CategoryChartBuilder().width(900).height(450)
      .title("KAE / Spark's shuffle by partition count (median of paired ratios)")
      .xAxisTitle("partitions").yAxisTitle("ratio (lower is better)").build()
    val xs = counts.map(_.toString).asJava
    for (c <- configs if c.name != Baseline) {
      val measures =
        Seq[(String, Run => Double)]("time" -> (_.wall), "CPU" -> (_.cpu), "peak RSS" -> (_.rss))
      for ((label, f) <- measures) {
        val ys = counts.map(p => median(paired(runs, c.name, p, f)))
        chart.addSeries(s"${c.name} $label", xs, ys.map(Double.box).asJava)
      }
    }
    val file = "Partitions-ratios.png"
    BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString, BitmapFormat.PNG)
    file
  }
}
