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

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.QuerySet
import org.knowm.xchart.{BitmapEncoder, CategoryChartBuilder}
import org.knowm.xchart.BitmapEncoder.BitmapFormat

import org.apache.spark.SparkConf
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * A query set (TPC-H, TPC-DS) in the harness (docs/benchmarks/README.md): its queries under each
 * configuration, the configurations alternating within each repetition (one session per
 * configuration and repetition, the queries in order), one warm-up round first. Spark's settings
 * are its defaults (200 shuffle partitions unless others are asked for, AQE on) on local[2]; every
 * query's rows are checked equal to the first configuration's. Writes `<Set>-sf<N>.csv`, `.md`
 * and a chart of per-query time ratios.
 *
 * Arguments: the set (`tpch` or `tpcds`), output dir, scale factor, repetitions, configurations
 * (comma list or `all`), the directory the generated tables are kept in (generated once per scale
 * factor), the queries (a comma list or `all`), the shuffle partition counts (comma list; each
 * a run and a page, `<Set>-sf<N>-p<count>` unless it is Spark's default 200) and how the
 * configurations alternate (`session` or `query`, [[Interleave]]).
 */
object QueryBench {

  /** Spark's default shuffle, and ours with the same codec (lz4) and with our default (auto). */
  val Configs: Seq[Config] = Harness.named("spark-lz4,kae-lz4,kae-auto", Harness.AllConfigs)

  private[bench] val Baseline = "spark-lz4"

  /** One query of one run. */
  case class QueryRun(
      config: String,
      rep: Int,
      query: String,
      wall: Double,
      cpu: Double,
      written: Long,
      read: Long,
      raw: Long,
      calls: Long,
      gcMs: Long,
      resultOk: Boolean)

  def main(args: Array[String]): Unit = {
    val set = QuerySet.named(args.lift(0).getOrElse("tpch"))
    val outDir = Paths.get(args.lift(1).getOrElse("docs/benchmarks"))
    val sf = args.lift(2).map(_.toDouble).getOrElse(1.0)
    val reps = args.lift(3).map(_.toInt).getOrElse(3)
    val all = Configs ++ (Harness.AllConfigs ++ Harness.ExtraConfigs)
      .filterNot(c => Configs.exists(_.name == c.name))
    val configs = args.lift(4).filter(_ != "all").map(Harness.named(_, all)).getOrElse(Configs)
    val dataRoot = Paths.get(args.lift(5).getOrElse(s"target/${set.pagePrefix.toLowerCase}"))
    // A subset (e.g. q1,q8,q19) to look at a few queries over more repetitions.
    val queries = args.lift(6).filter(_ != "all").map(_.split(',').toSet)
      .map(names => set.queryNames.filter(names)).getOrElse(set.queryNames)
    require(queries.nonEmpty, s"No ${set.title} query is named in ${args(6)}.")
    // Shuffle partition counts, each a run and a page of its own (Spark's default 200 first).
    val partitionCounts = args.lift(7).getOrElse("200").split(',').map(_.toInt).toSeq
    val interleave = Interleave.named(args.lift(8).getOrElse("session"))
    val data = Sessions.withSession(conf(set, Configs.head, SparkDefaultPartitions)) { spark =>
      set.generate(spark, sf, dataRoot)
    }
    Files.createDirectories(outDir)
    val verdicts = partitionCounts.flatMap { p =>
      val runs = runAll(set, configs, reps, p, data, queries, interleave)
      val differed = queries.filter(mismatched)
      val ties = TieCheck.run(set, configs, data, differed, c => conf(set, c, p))
      ties.foreach(v => println(v.describe))
      val prefix = s"${set.pagePrefix}-sf${QuerySet.scaleFactorName(sf)}" +
        (if (p == SparkDefaultPartitions) "" else s"-p$p")
      writeCsv(outDir.resolve(s"$prefix.csv"), runs)
      val page = new QueryBenchPage(set, runs, configs, doctorLines.toMap, ties, interleave)
      val chart = drawChart(set, outDir, prefix, page, configs)
      val md = page.markdown(sf, reps, p, chart, prefix, notes(outDir, prefix))
      Files.writeString(outDir.resolve(s"$prefix.md"), md)
      println(md)
      ties
    }
    if (verdicts.exists(!_.equal)) {
      System.err.println("Some query gave a different result: see above.")
      sys.exit(1)
    }
  }

  /** The queries whose rows differed from the first configuration's in any round. */
  private val mismatched = mutable.Set[String]()

  /** Spark's default `spark.sql.shuffle.partitions`. */
  private[bench] val SparkDefaultPartitions = 200

  /**
   * One warm-up round, then `reps` rounds; in each the configurations alternate as `interleave`
   * says, their order rotated from one round to the next ([[Rotation]]).
   */
  private def runAll(
      set: QuerySet,
      configs: Seq[Config],
      reps: Int,
      partitions: Int,
      data: Path,
      queries: Seq[String],
      interleave: Interleave): Seq[QueryRun] = {
    val runs = mutable.ArrayBuffer[QueryRun]()
    val reference = mutable.Map[String, Seq[String]]()
    doctorLines.clear()
    mismatched.clear()
    for (rep <- 0 to reps) {
      val order = Rotation.of(configs, rep)
      val sessions = interleave match {
        case Interleave.Session => order.map(c => (c, queries))
        case Interleave.Query => for (q <- queries; c <- order) yield (c, Seq(q))
      }
      val round = sessions.flatMap { case (c, qs) =>
        once(set, c, rep, partitions, data, qs, reference)
      }
      if (rep > 0) runs ++= round
      for (c <- order) {
        val rs = round.filter(_.config == c.name)
        println(
          f"$partitions%d partitions, rep $rep%d ${c.name}%-16s ${rs.map(_.wall).sum}%7.2f s " +
            f"${rs.map(_.written).sum / 1048576.0}%9.1f MiB" +
            (if (rs.forall(_.resultOk)) "" else "  RESULT DIFFERS"))
      }
    }
    runs.toSeq
  }

  /**
   * Spark's defaults for SQL on local[2], with `partitions` shuffle partitions, the set's and the
   * configuration's settings.
   */
  private def conf(set: QuerySet, c: Config, partitions: Int): SparkConf = {
    val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
      .set("spark.unsafe.exceptionOnMemoryLeak", "false")
    // The tests' small-data settings (8 partitions, tiny AQE sizes) are not what users run.
    conf.getAll.map(_._1).filter(k => k.startsWith("spark.sql.")).foreach(conf.remove)
    conf.set("spark.sql.shuffle.partitions", partitions.toString)
      .setAll(set.sessionSettings).setAll(c.settings)
  }

  /** Every query once in one session of `c`; results checked against the reference. */
  private def once(
      set: QuerySet,
      c: Config,
      rep: Int,
      partitions: Int,
      data: Path,
      queries: Seq[String],
      reference: mutable.Map[String, Seq[String]]): Seq[QueryRun] = {
    // Every session starts on a collected heap, not on the garbage of the one before.
    System.gc()
    Sessions.withSession(conf(set, c, partitions)) { spark =>
      val totals = new ShuffleTotals
      spark.sparkContext.addSparkListener(totals)
      val diagnoses = new java.util.concurrent.ConcurrentLinkedQueue[String]()
      if (c.kae) KaeSparkAccess.onDiagnoses(spark.sparkContext)(diagnoses.add(_))
      set.register(spark, data)
      // Untimed: the session's first job pays for starting its executor side, whatever the shuffle.
      spark.sql(s"SELECT count(*) FROM ${set.warmUpTable}").collect()
      queries.map { q =>
        KaeSparkAccess.drainListeners(spark.sparkContext)
        diagnoses.clear()
        val before = snapshot(totals)
        val t0 = System.nanoTime()
        val cpu0 = ProcessCpu.seconds()
        val rows = set.run(spark, q)
        val wall = (System.nanoTime() - t0) / 1e9
        val cpu = ProcessCpu.seconds() - cpu0
        KaeSparkAccess.drainListeners(spark.sparkContext)
        val d = snapshot(totals).zip(before).map { case (a, b) => a - b }
        val ok = reference.getOrElseUpdate(q, rows) == rows
        if (!ok) {
          System.err.println(s"RESULT MISMATCH: $q under ${c.name}")
          mismatched += q
        }
        if (rep > 0) doctorLines((c.name, q)) = diagnoses.asScala.toSeq
        QueryRun(c.name, rep, q, wall, cpu, d(0), d(1), d(2), d(3), d(4), ok)
      }
    }
  }

  /** The shuffle doctor's lines for each (configuration, query), from the last repetition. */
  private val doctorLines = mutable.Map[(String, String), Seq[String]]()

  private def snapshot(t: ShuffleTotals): Seq[Long] = Seq(
    t.bytesWritten.get,
    t.bytesRead.get,
    t.kaeTotal("write.rawBytes"),
    t.kaeTotal("write.codecCalls"),
    t.gcMillis.get)

  private def writeCsv(path: Path, runs: Seq[QueryRun]): Unit = {
    val header = "config,rep,query,wall,cpu,written,read,raw,calls,gcMs,resultOk"
    val lines = runs.map(r =>
      Seq(
        r.config,
        r.rep,
        r.query,
        r.wall,
        r.cpu,
        r.written,
        r.read,
        r.raw,
        r.calls,
        r.gcMs,
        r.resultOk)
        .mkString(","))
    Files.write(path, (header +: lines).asJava)
  }

  private def notes(dir: Path, prefix: String): Option[String] =
    PageNotes.of(dir.resolve(s"$prefix.md"))

  /** The chart of each configuration's ratio to Spark's lz4; None without both to compare. */
  private def drawChart(
      set: QuerySet,
      dir: Path,
      prefix: String,
      page: QueryBenchPage,
      configs: Seq[Config]): Option[String] = {
    val compared = configs.filter(_.name != Baseline)
    if (compared.isEmpty || !configs.exists(_.name == Baseline)) None
    else {
      // TPC-DS's 103 queries need the width to keep their names readable.
      val width = math.max(1100, 28 * page.queries.size)
      val chart = new CategoryChartBuilder().width(width).height(480)
        .title(s"${set.title} query time, KAE / Spark's lz4 shuffle (median)")
        .xAxisTitle("query").yAxisTitle("ratio (lower is better)").build()
      for (c <- compared) {
        val ys = page.queries.map(q => page.wall(c.name, q) / page.wall(Baseline, q))
        chart.addSeries(c.name, page.queries.asJava, ys.map(Double.box).asJava)
      }
      val file = s"$prefix-time-ratio.png"
      BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString, BitmapFormat.PNG)
      Some(file)
    }
  }
}
