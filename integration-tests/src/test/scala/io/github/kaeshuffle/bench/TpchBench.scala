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

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.Harness.{median, Config}
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.Tpch
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat

import org.apache.spark.SparkConf
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * TPC-H in the harness (docs/benchmarks/README.md): the 22 queries under each configuration, the
 * configurations alternating within each repetition (one session per configuration and
 * repetition, the queries in order), one warm-up round first. Spark's settings are its defaults
 * (200 shuffle partitions unless others are asked for, AQE on) on local[2]; every query's rows
 * are checked equal to the first configuration's. Writes `Tpch-sf<N>.csv`, `.md` and a chart of
 * per-query time ratios.
 *
 * Arguments: output dir, scale factor, repetitions, configurations (comma list or `all`), the
 * directory the generated tables are kept in (generated once per scale factor), the queries (a
 * comma list or `all`) and the shuffle partition counts (comma list; each a run and a page,
 * `Tpch-sf<N>-p<count>` unless it is Spark's default 200).
 */
object TpchBench {

  /** Spark's default shuffle, and ours with the same codec (lz4) and with our default (auto). */
  val Configs: Seq[Config] = Seq(
    Harness.AllConfigs.find(_.name == "spark-lz4").get,
    Harness.kae("lz4", "spark-lz4"),
    Harness.kae("auto", "spark-lz4"))

  private val Baseline = "spark-lz4"

  /** One query of one run. */
  case class QueryRun(
      config: String,
      rep: Int,
      query: String,
      wall: Double,
      written: Long,
      read: Long,
      raw: Long,
      calls: Long,
      gcMs: Long,
      resultOk: Boolean)

  def main(args: Array[String]): Unit = {
    val outDir = Paths.get(args.lift(0).getOrElse("docs/benchmarks"))
    val sf = args.lift(1).map(_.toDouble).getOrElse(1.0)
    val reps = args.lift(2).map(_.toInt).getOrElse(3)
    val all = Configs ++ (Harness.AllConfigs ++ Harness.ExtraConfigs)
      .filterNot(c => Configs.exists(_.name == c.name))
    val configs = args.lift(3).filter(_ != "all").map(Harness.named(_, all)).getOrElse(Configs)
    val dataRoot = Paths.get(args.lift(4).getOrElse("target/tpch"))
    // A subset (e.g. q1,q8,q19) to look at a few queries over more repetitions.
    val queries = args.lift(5).filter(_ != "all").map(_.split(',').toSet)
      .map(names => Tpch.queries.filter(q => names(q.name))).getOrElse(Tpch.queries)
    require(queries.nonEmpty, s"No TPC-H query is named in ${args(5)}.")
    // Shuffle partition counts, each a run and a page of its own (Spark's default 200 first).
    val partitionCounts = args.lift(6).getOrElse("200").split(',').map(_.toInt).toSeq
    val data = Sessions.withSession(conf(Configs.head, SparkDefaultPartitions)) { spark =>
      Tpch.generate(spark, sf, dataRoot)
    }
    Files.createDirectories(outDir)
    val results = partitionCounts.map { p =>
      val runs = runAll(configs, reps, p, data, queries)
      val prefix = s"Tpch-sf${Tpch.scaleFactorName(sf)}" +
        (if (p == SparkDefaultPartitions) "" else s"-p$p")
      writeCsv(outDir.resolve(s"$prefix.csv"), runs)
      val chart = drawChart(outDir, prefix, runs, configs)
      val md = summary(runs, configs, sf, reps, p, chart, prefix, notes(outDir, prefix))
      Files.writeString(outDir.resolve(s"$prefix.md"), md)
      println(md)
      runs
    }
    if (results.flatten.exists(!_.resultOk)) {
      System.err.println("Some query gave a different result: see above.")
      sys.exit(1)
    }
  }

  /** Spark's default `spark.sql.shuffle.partitions`. */
  private val SparkDefaultPartitions = 200

  /** One warm-up round, then `reps` rounds in which the configurations alternate. */
  private def runAll(
      configs: Seq[Config],
      reps: Int,
      partitions: Int,
      data: Path,
      queries: Seq[Tpch.Query]): Seq[QueryRun] = {
    val runs = mutable.ArrayBuffer[QueryRun]()
    val reference = mutable.Map[String, Seq[String]]()
    doctorLines.clear()
    for (rep <- 0 to reps; c <- configs) {
      val rs = once(c, rep, partitions, data, queries, reference)
      if (rep > 0) runs ++= rs
      println(f"$partitions%d partitions, rep $rep%d ${c.name}%-16s ${rs.map(_.wall).sum}%7.2f s " +
        f"${rs.map(_.written).sum / 1048576.0}%9.1f MiB" +
        (if (rs.forall(_.resultOk)) "" else "  RESULT DIFFERS"))
    }
    runs.toSeq
  }

  /**
   * Spark's defaults for SQL on local[2], with `partitions` shuffle partitions and the
   * configuration's settings.
   */
  private def conf(c: Config, partitions: Int): SparkConf = {
    val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
      .set("spark.unsafe.exceptionOnMemoryLeak", "false")
    // The tests' small-data settings (8 partitions, tiny AQE sizes) are not what users run.
    conf.getAll.map(_._1).filter(k => k.startsWith("spark.sql.")).foreach(conf.remove)
    conf.set("spark.sql.shuffle.partitions", partitions.toString).setAll(c.settings)
  }

  /** Every query once in one session of `c`; results checked against the reference. */
  private def once(
      c: Config,
      rep: Int,
      partitions: Int,
      data: Path,
      queries: Seq[Tpch.Query],
      reference: mutable.Map[String, Seq[String]]): Seq[QueryRun] = {
    // Every session starts on a collected heap, not on the garbage of the one before.
    System.gc()
    Sessions.withSession(conf(c, partitions)) { spark =>
      val totals = new ShuffleTotals
      spark.sparkContext.addSparkListener(totals)
      val diagnoses = new java.util.concurrent.ConcurrentLinkedQueue[String]()
      if (c.kae) KaeSparkAccess.onDiagnoses(spark.sparkContext)(diagnoses.add(_))
      Tpch.register(spark, data)
      // Untimed: the session's first job pays for starting its executor side, whatever the shuffle.
      spark.sql("SELECT count(*) FROM nation").collect()
      queries.map { q =>
        KaeSparkAccess.drainListeners(spark.sparkContext)
        diagnoses.clear()
        val before = snapshot(totals)
        val t0 = System.nanoTime()
        val rows = Tpch.run(spark, q)
        val wall = (System.nanoTime() - t0) / 1e9
        KaeSparkAccess.drainListeners(spark.sparkContext)
        val d = snapshot(totals).zip(before).map { case (a, b) => a - b }
        val ok = reference.getOrElseUpdate(q.name, rows) == rows
        if (!ok) System.err.println(s"RESULT MISMATCH: ${q.name} under ${c.name}")
        if (rep > 0) doctorLines((c.name, q.name)) = diagnoses.asScala.toSeq
        QueryRun(c.name, rep, q.name, wall, d(0), d(1), d(2), d(3), d(4), ok)
      }
    }
  }

  /** The queries that ran, in TPC-H's order. */
  private def queriesIn(runs: Seq[QueryRun]): Seq[String] =
    Tpch.queries.map(_.name).filter(q => runs.exists(_.query == q))

  /** The shuffle doctor's lines for each (configuration, query), from the last repetition. */
  private val doctorLines = mutable.Map[(String, String), Seq[String]]()

  private def snapshot(t: ShuffleTotals): Seq[Long] = Seq(
    t.bytesWritten.get,
    t.bytesRead.get,
    t.kaeTotal("write.rawBytes"),
    t.kaeTotal("write.codecCalls"),
    t.gcMillis.get)

  private def writeCsv(path: Path, runs: Seq[QueryRun]): Unit = {
    val header = "config,rep,query,wall,written,read,raw,calls,gcMs,resultOk"
    val lines = runs.map(r =>
      Seq(r.config, r.rep, r.query, r.wall, r.written, r.read, r.raw, r.calls, r.gcMs, r.resultOk)
        .mkString(","))
    Files.write(path, (header +: lines).asJava)
  }

  private def wall(runs: Seq[QueryRun], c: String, q: String): Double =
    median(runs.filter(r => r.config == c && r.query == q).map(_.wall))

  /** Per repetition, the sum over the 22 queries of `c` of `f` (by default the time). */
  private def totals(
      runs: Seq[QueryRun],
      c: String,
      f: QueryRun => Double = _.wall): Map[Int, Double] =
    runs.filter(_.config == c).groupBy(_.rep).map { case (rep, rs) => rep -> rs.map(f).sum }

  /** The median over repetitions of the shuffle bytes `c` wrote for the 22 queries. */
  private def written(runs: Seq[QueryRun], c: String): Double =
    median(totals(runs, c, _.written.toDouble).values.toSeq)

  /** The median over repetitions of `c`'s total / the baseline's total in the same repetition. */
  private def pairedRatio(runs: Seq[QueryRun], c: String): Seq[Double] = {
    val base = totals(runs, Baseline)
    totals(runs, c).toSeq.sortBy(_._1).flatMap { case (rep, t) => base.get(rep).map(t / _) }
  }

  private def fmt(v: Double, f: String) =
    if (v.isNaN || v.isInfinite) "-" else f.formatLocal(Locale.ROOT, v)

  private def range(v: Seq[Double], f: String) =
    if (v.isEmpty) "-" else s"${fmt(v.min, f)}-${fmt(v.max, f)}"

  private def notes(dir: Path, prefix: String): Option[String] =
    Some(dir.resolve(s"$prefix-notes.md")).filter(Files.exists(_)).map(Files.readString)

  private def summary(
      runs: Seq[QueryRun],
      configs: Seq[Config],
      sf: Double,
      reps: Int,
      partitions: Int,
      chart: String,
      prefix: String,
      notes: Option[String]): String = {
    val sb = new StringBuilder
    val queries = queriesIn(runs)
    sb ++= s"# TPC-H SF ${Tpch.scaleFactorName(sf).replace('_', '.')}: KAE Shuffle vs " +
      "Spark's shuffle\n\n"
    val named =
      (if (configs == Configs) "" else s" -Dbench.configs=${configs.map(_.name).mkString(",")}") +
        (if (queries.size == Tpch.queries.size) ""
         else s" -Dbench.queries=${queries.mkString(",")}")
    sb ++= s"Produced by `mvn -B -pl integration-tests -am -Pbench-tpch verify " +
      s"-Dbench.sf=${Tpch.scaleFactorName(sf).replace('_', '.')} -Dbench.reps=$reps$named " +
      s"-Dbench.partitions=$partitions` (class `io.github.kaeshuffle.bench.TpchBench`): local[2], " +
      s"Kryo, Spark's SQL defaults but $partitions shuffle partitions (" +
      (if (partitions == SparkDefaultPartitions) "Spark's default" else "Spark's default is 200") +
      "; AQE on), data from `io.trino.tpch:tpch:1.2` in Parquet with " +
      "`DECIMAL(15,2)` money; the configurations alternate within each repetition, one session " +
      s"each running q1..q22 in order; one warm-up round then $reps timed repetitions. Every " +
      "query's rows are checked equal to the first configuration's. Every query of every run: " +
      s"[$prefix.csv]($prefix.csv).\n\n"
    sb ++= MachineInfo.describe()
    sb ++= s"- Spark: ${org.apache.spark.SPARK_VERSION}, Scala " +
      s"${scala.util.Properties.versionNumberString}\n\n"
    sb ++= "## Totals (the sum of the 22 query times)\n\n"
    sb ++= "| config | total s, median (min-max) | vs spark-lz4, median of paired ratios " +
      "(min-max) | written MiB | written vs spark-lz4 | codec calls/MiB | results |\n" +
      "|---|---:|---:|---:|---:|---:|---|\n"
    val baseWritten = written(runs, Baseline)
    for (c <- configs) {
      val t = totals(runs, c.name).values.toSeq
      val ratios = pairedRatio(runs, c.name)
      val bytes = written(runs, c.name)
      val raw = runs.filter(_.config == c.name).map(_.raw).sum.toDouble
      val calls = runs.filter(_.config == c.name).map(_.calls).sum.toDouble
      sb ++= s"| ${c.name} | ${fmt(median(t), "%.1f")} (${range(t, "%.1f")}) | " +
        s"${fmt(median(ratios), "%.3f")}x " +
        s"(${range(ratios, "%.3f")}) | " +
        s"${fmt(bytes / 1048576.0, "%.1f")} | ${fmt(bytes / baseWritten, "%.3f")}x | " +
        s"${if (calls > 0) fmt(calls / (raw / 1048576.0), "%.1f") else "-"} | " +
        s"${if (runs.filter(_.config == c.name).forall(_.resultOk)) "identical" else "DIFFER"} |\n"
    }
    sb ++= "\n"
    notes.foreach(n => sb ++= n.stripSuffix("\n") + "\n\n")
    sb ++= s"![$chart]($chart)\n\n"
    doctor(sb, runs, configs.filter(_.kae))
    sb ++= "## Per query (median seconds; ratio to spark-lz4)\n\n"
    val kaeConfigs = configs.filter(_.name != Baseline)
    sb ++= "| query | " + configs.map(_.name + " s").mkString(" | ") + " | " +
      kaeConfigs.map(_.name + " ratio").mkString(" | ") + " | spark-lz4 written MiB |\n"
    sb ++= "|---|" + ("---:|" * (configs.size + kaeConfigs.size + 1)) + "\n"
    for (q <- queries) {
      val baseMib = median(runs.filter(r => r.config == Baseline && r.query == q)
        .map(_.written / 1048576.0))
      sb ++= s"| $q | " + configs.map(c => fmt(wall(runs, c.name, q), "%.2f")).mkString(" | ") +
        " | " + kaeConfigs.map(c => fmt(wall(runs, c.name, q) / wall(runs, Baseline, q), "%.2f"))
          .mkString(" | ") + s" | ${fmt(baseMib, "%.1f")} |\n"
    }
    sb.toString
  }

  /** For each KAE configuration, the doctor's diagnosis of the stages of its 3 slowest queries. */
  private def doctor(sb: StringBuilder, runs: Seq[QueryRun], kae: Seq[Config]): Unit =
    for (c <- kae) {
      val slowest = queriesIn(runs).sortBy(q => -wall(runs, c.name, q)).take(3)
      sb ++= s"## The shuffle doctor on the slowest queries of ${c.name}\n\n"
      for (q <- slowest) {
        sb ++= s"**$q** (${fmt(wall(runs, c.name, q), "%.2f")} s):\n\n"
        doctorLines.getOrElse((c.name, q), Nil).foreach(l => sb ++= s"- $l\n")
        sb ++= "\n"
      }
    }

  private def drawChart(
      dir: Path,
      prefix: String,
      runs: Seq[QueryRun],
      configs: Seq[Config]): String = {
    val chart = new CategoryChartBuilder().width(1100).height(480)
      .title("TPC-H query time, KAE / Spark's lz4 shuffle (median)")
      .xAxisTitle("query").yAxisTitle("ratio (lower is better)").build()
    val queries = queriesIn(runs)
    for (c <- configs if c.name != Baseline) {
      val ys = queries.map(q => wall(runs, c.name, q) / wall(runs, Baseline, q))
      chart.addSeries(c.name, queries.asJava, ys.map(Double.box).asJava)
    }
    val file = s"$prefix-time-ratio.png"
    BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString, BitmapFormat.PNG)
    file
  }
}
