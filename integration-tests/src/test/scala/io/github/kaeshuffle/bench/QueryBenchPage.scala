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

import java.util.Locale

import io.github.kaeshuffle.bench.Harness.{median, Config}
import io.github.kaeshuffle.bench.QueryBench.{Baseline, Configs, QueryRun, SparkDefaultPartitions}
import io.github.kaeshuffle.workloads.QuerySet

/**
 * The results page of one query benchmark run: totals against Spark's lz4 shuffle, the shuffle
 * doctor on the slowest queries, and per query the times, their ratios and the doctor's bound of
 * the query's longest stage. `doctorLines` holds the doctor's lines per (configuration, query).
 */
class QueryBenchPage(
    set: QuerySet,
    runs: Seq[QueryRun],
    configs: Seq[Config],
    doctorLines: Map[(String, String), Seq[String]],
    ties: Seq[TieCheck.Verdict],
    interleave: Interleave) {

  /** The queries that ran, in the set's order. */
  val queries: Seq[String] = set.queryNames.filter(q => runs.exists(_.query == q))

  /** The median time of query `q` under configuration `c`. */
  def wall(c: String, q: String): Double =
    median(runs.filter(r => r.config == c && r.query == q).map(_.wall))

  def markdown(
      sf: Double,
      reps: Int,
      partitions: Int,
      chart: Option[String],
      prefix: String,
      notes: Option[String]): String = {
    val sb = new StringBuilder
    val sfText = QuerySet.scaleFactorName(sf).replace('_', '.')
    sb ++= s"# ${set.title} SF $sfText: KAE Shuffle vs Spark's shuffle\n\n"
    sb ++= s"Produced by `${command(sfText, reps, partitions)}` (class " +
      "`io.github.kaeshuffle.bench.QueryBench`): local[2], Kryo, Spark's SQL defaults but " +
      s"$partitions shuffle partitions (" +
      (if (partitions == SparkDefaultPartitions) "Spark's default" else "Spark's default is 200") +
      s"; AQE on), ${set.provenance}" +
      set.sessionSettings.map { case (k, v) => s", `$k=$v`" }.mkString +
      s"; ${alternation}; one warm-up round then $reps timed repetitions. Every query's rows are " +
      s"checked equal to the first configuration's (below, any that differed). Every query of every run: [$prefix.csv]" +
      s"($prefix.csv).\n\n"
    sb ++= MachineInfo.describe()
    sb ++= s"- Spark: ${org.apache.spark.SPARK_VERSION}, Scala " +
      s"${scala.util.Properties.versionNumberString}\n\n"
    totalsTable(sb)
    notes.foreach(n => sb ++= PageNotes.block(n))
    chart.foreach(c => sb ++= s"![$c]($c)\n\n")
    doctor(sb)
    perQuery(sb)
    sb.toString
  }

  private def alternation: String = interleave match {
    case Interleave.Session =>
      "the configurations alternate within each repetition (their order rotated from one " +
        "repetition to the next), one session each running the queries in order"
    case Interleave.Query =>
      "the configurations alternate query by query within each repetition (their order " +
        "rotated from one repetition to the next), each query in a session of its own after an " +
        "untimed warm-up query, so that a pair's two runs lie seconds apart"
  }

  private def command(sfText: String, reps: Int, partitions: Int): String = {
    val named =
      (if (configs == Configs) "" else s" -Dbench.configs=${configs.map(_.name).mkString(",")}") +
        (if (queries.size == set.queryNames.size) ""
         else s" -Dbench.queries=${queries.mkString(",")}") +
        (if (interleave == Interleave.Session) "" else s" -Dbench.interleave=${interleave.name}")
    s"mvn -B -pl integration-tests -am -Pbench-${set.pagePrefix.toLowerCase(Locale.ROOT)} " +
      s"verify -Dbench.sf=$sfText -Dbench.reps=$reps$named -Dbench.partitions=$partitions"
  }

  private def totalsTable(sb: StringBuilder): Unit = {
    sb ++= s"## Totals (the sum of the ${queries.size} query times)\n\n"
    sb ++= s"| config | total s, median (min-max) | vs $Baseline, median of paired ratios " +
      s"(min-max) | CPU s, median | CPU vs $Baseline, paired | written MiB | " +
      s"written vs $Baseline | codec calls/MiB | results |\n" +
      "|---|---:|---:|---:|---:|---:|---:|---:|---|\n"
    val baseWritten = written(Baseline)
    for (c <- configs) {
      val mine = runs.filter(_.config == c.name)
      val t = totals(c.name).values.toSeq
      val ratios = pairedRatio(c.name)
      val cpu = totals(c.name, _.cpu).values.toSeq
      val cpuRatios = pairedRatio(c.name, _.cpu)
      val bytes = written(c.name)
      val raw = mine.map(_.raw).sum.toDouble
      val calls = mine.map(_.calls).sum.toDouble
      sb ++= s"| ${c.name} | ${fmt(median(t), "%.1f")} (${range(t, "%.1f")}) | " +
        s"${fmt(median(ratios), "%.3f")}x (${range(ratios, "%.3f")}) | " +
        s"${fmt(median(cpu), "%.1f")} | ${fmt(median(cpuRatios), "%.3f")}x | " +
        s"${fmt(bytes / 1048576.0, "%.1f")} | ${fmt(bytes / baseWritten, "%.3f")}x | " +
        s"${if (calls > 0) fmt(calls / (raw / 1048576.0), "%.1f") else "-"} | " +
        s"${results(mine)} |\n"
    }
    sb ++= "\n"
    if (ties.nonEmpty) {
      sb ++= "Queries whose rows differed between runs (in any round, the warm-up's too), run " +
        "again without their final LIMIT under every configuration and sorted (`TieCheck`: an " +
        "ORDER BY with ties decides neither the order of tied rows nor which are cut):\n\n"
      ties.foreach(v => sb ++= s"- ${v.describe}\n")
      sb ++= "\n"
    }
  }

  /** "identical", or which differing queries the second look found equal without LIMIT. */
  private def results(mine: Seq[QueryRun]): String = {
    val differed = mine.filterNot(_.resultOk).map(_.query).distinct
    val explained = differed.filter(q => ties.exists(v => v.query == q && v.equal))
    if (differed.isEmpty) "identical"
    else if (explained == differed) s"identical but for ties (${differed.mkString(", ")})"
    else "DIFFER"
  }

  /** For each KAE configuration, the doctor's diagnosis of the stages of its 3 slowest queries. */
  private def doctor(sb: StringBuilder): Unit =
    for (c <- configs.filter(_.kae)) {
      val slowest = queries.sortBy(q => -wall(c.name, q)).take(3)
      sb ++= s"## The shuffle doctor on the slowest queries of ${c.name}\n\n"
      for (q <- slowest) {
        sb ++= s"**$q** (${fmt(wall(c.name, q), "%.2f")} s):\n\n"
        doctorLines.getOrElse((c.name, q), Nil).foreach(l => sb ++= s"- $l\n")
        sb ++= "\n"
      }
    }

  private def perQuery(sb: StringBuilder): Unit = {
    val others = configs.filter(_.name != Baseline)
    val diagnosed = configs.filter(_.kae).lastOption
    sb ++= s"## Per query (median seconds; ratio to $Baseline)\n\n"
    sb ++= "| query | " + configs.map(_.name + " s").mkString(" | ") + " | " +
      others.map(_.name + " ratio").mkString(" | ") + s" | $Baseline written MiB |" +
      diagnosed.map(c => s" ${c.name}: longest stage bound by |").getOrElse("") + "\n"
    sb ++= "|---|" + ("---:|" * (configs.size + others.size + 1)) +
      diagnosed.map(_ => "---|").getOrElse("") + "\n"
    for (q <- queries) {
      val baseMib = median(runs.filter(r => r.config == Baseline && r.query == q)
        .map(_.written / 1048576.0))
      sb ++= s"| $q | " + configs.map(c => fmt(wall(c.name, q), "%.2f")).mkString(" | ") +
        " | " + others.map(c => fmt(wall(c.name, q) / wall(Baseline, q), "%.2f")).mkString(" | ") +
        s" | ${fmt(baseMib, "%.1f")} |" +
        diagnosed.map(c => s" ${QueryBenchPage.bound(doctorLines.getOrElse((c.name, q), Nil))} |")
          .getOrElse("") + "\n"
    }
  }

  /** Per repetition, the sum over the queries of `c` of `f` (by default the time). */
  private def totals(c: String, f: QueryRun => Double = _.wall): Map[Int, Double] =
    runs.filter(_.config == c).groupBy(_.rep).map { case (rep, rs) => rep -> rs.map(f).sum }

  /** The median over repetitions of the shuffle bytes `c` wrote for the queries. */
  private def written(c: String): Double = median(totals(c, _.written.toDouble).values.toSeq)

  /** Per repetition, `c`'s total of `f` / the baseline's total in the same repetition. */
  private def pairedRatio(c: String, f: QueryRun => Double = _.wall): Seq[Double] = {
    val base = totals(Baseline, f)
    totals(c, f).toSeq.sortBy(_._1).flatMap { case (rep, t) => base.get(rep).map(t / _) }
  }

  private def fmt(v: Double, f: String) =
    if (v.isNaN || v.isInfinite) "-" else f.formatLocal(Locale.ROOT, v)

  private def range(v: Seq[Double], f: String) =
    if (v.isEmpty) "-" else s"${fmt(v.min, f)}-${fmt(v.max, f)}"
}

object QueryBenchPage {

  /** A doctor's line: the stage's kind, task time, bound and what a codec twice as fast saves. */
  private val Stage = ("""\((.+?), \d+ tasks, ([0-9.]+) s task time\): .* -> bound by ([^;]+); """ +
    """a codec twice as fast saves at most ([0-9]+%)""").r

  /**
   * The doctor's verdict on a query's longest stage (by task time), from its lines: the bound and
   * what a codec twice as fast would save, e.g. `compute and other (map, 1.52 s; codec x2: 5%)`.
   */
  def bound(lines: Seq[String]): String = {
    val stages = lines.flatMap(l =>
      Stage.findFirstMatchIn(l).map { m =>
        val verdict = s"${m.group(3)} (${m.group(1)}, ${m.group(2)} s; codec x2: ${m.group(4)})"
        (m.group(2).toDouble, verdict)
      })
    if (stages.isEmpty) "-" else stages.maxBy(_._1)._2
  }
}
