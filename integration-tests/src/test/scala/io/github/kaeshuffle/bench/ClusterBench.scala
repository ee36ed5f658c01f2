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

import java.io.File
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.collection.mutable

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.it.{NetnsCluster, Sessions, Submit}
import io.github.kaeshuffle.workloads

/**
 * Workloads on Spark on YARN across three test hosts in network namespaces ([[NetnsCluster]]),
 * at each link rate given, the configurations alternating within each repetition (their order
 * rotated from one repetition to the next): per run the workload's time inside the application,
 * the bytes delivered over the links (the whole application, its start included) and the
 * machine's CPU seconds (all hosts share its cores). The workload `tpch` is TPC-H's 22 queries at
 * the scale factor given (its time the sum of the queries'), the others are WorkloadApp's at the
 * size given; `<workload>@<rate>` runs it at that rate only. Every run's results are checked equal
 * to the first configuration's. A run replaces the cells (rate and workload) it measured on the
 * page in the output directory and keeps the others, each with the commit and date it ran on.
 *
 * usage: ClusterBench <out dir> <rates, e.g. 250mbit,1gbit,10gbit> <workloads> <size> <reps>
 *   <configs: spark-lz4,spark-zstd,kae-auto,kae-lz4> <TPC-H scale factor> <TPC-H data dir>
 */
object ClusterBench {
  case class Run(
      rate: String,
      rep: Int,
      config: String,
      workload: String,
      seconds: Double,
      linkBytes: Long,
      cpuSeconds: Double,
      resultOk: Boolean,
      commit: String = "",
      date: String = "")

  val Configs: Seq[Config] =
    Harness.AllConfigs.filter(c => Set("spark-lz4", "spark-zstd")(c.name)) ++
      Seq(Harness.kae("auto", "spark-lz4"), Harness.kae("lz4", "spark-lz4"))

  def main(args: Array[String]): Unit = {
    require(
      args.length == 8,
      "usage: ClusterBench <out> <rates> <workloads> <size> <reps> <configs> <sf> <tpch data>")
    NetnsCluster.unavailable.foreach(r => sys.error(s"no test hosts here: $r"))
    val out = Paths.get(args(0))
    val rates = args(1).split(',').toSeq
    val workloads = args(2).split(',').toSeq
    val size = args(3)
    val reps = args(4).toInt
    val configs = Harness.named(args(5), Configs)
    val atRates = workloads.map(_.split('@')).map(w => w(0) -> w.lift(1))
    val sqlDir =
      if (atRates.exists(_._1 == Tpch)) Some(tpchDir(args(6).toDouble, Paths.get(args(7))))
      else None
    Files.createDirectories(out)
    val runs = for {
      rate <- rates
      here = atRates.filter(_._2.forall(_ == rate)).map(w => Workload(w._1, sqlDir, size))
      run <- atRate(rate, here, reps, configs)
    } yield run
    val measured = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString
    ClusterBenchPage.write(out, runs.map(_.copy(commit = Harness.commit, date = measured)), args)
    if (runs.exists(!_.resultOk)) sys.error("Some run gave other results than the first: above.")
  }

  private val Tpch = "tpch"

  /** What a run submits: TPC-H's queries through SqlApp, or a workload of WorkloadApp. */
  private case class Workload(name: String, sqlDir: Option[Path], size: String) {
    def mainClass: String = if (name == Tpch) Submit.SqlApp else Submit.WorkloadApp
    def args: Seq[String] = if (name == Tpch) Seq(sqlDir.get.toString) else Seq(name)

    def seconds(r: Submit.Report): Double =
      if (name == Tpch) r.seconds.values.sum else r.seconds(name)

    /** The report's result lines (row counts and hashes), in order. */
    def results(r: Submit.Report): Seq[String] =
      r.lines.filter(l => l.startsWith("query ") || l.startsWith("workload "))
  }

  /** TPC-H's tables (generated once per scale factor under `root`) and queries for SqlApp. */
  private def tpchDir(sf: Double, root: Path): Path = {
    val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
    val tables = Sessions.withSession(conf)(spark => workloads.Tpch.generate(spark, sf, root))
    workloads.Tpch.writeSqlDir(
      tables,
      root.resolve(s"sql-sf${workloads.QuerySet.scaleFactorName(sf)}"))
  }

  private def atRate(
      rate: String,
      workloads: Seq[Workload],
      reps: Int,
      configs: Seq[Config]): Seq[Run] = {
    val cluster = new NetnsCluster(3, rate, Map.empty, executorMb = 1024).start()
    val expected = mutable.Map[String, Seq[String]]()
    try {
      for {
        rep <- 1 to reps
        w <- workloads
        c <- rotate(configs, rep)
      } yield once(cluster, rate, rep, c, w, expected)
    } finally cluster.stop()
  }

  private def rotate[T](s: Seq[T], by: Int): Seq[T] = s.drop(by % s.size) ++ s.take(by % s.size)

  private def once(
      cluster: NetnsCluster,
      rate: String,
      rep: Int,
      c: Config,
      w: Workload,
      expected: mutable.Map[String, Seq[String]]): Run = {
    val conf = benchConf(cluster) ++ c.settings ++
      (if (c.kae) Map.empty else Map("spark.shuffle.manager" -> "sort"))
    val bytes0 = cluster.linkBytes()
    val cpu0 = cpuSeconds()
    val report = cluster.submit(
      s"bench-$rate-$rep-${c.name}-${w.name}",
      conf,
      w.args,
      mainClass = w.mainClass,
      size = w.size,
      timeoutSeconds = 3600)
    val results = w.results(report)
    val run = Run(
      rate,
      rep,
      c.name,
      w.name,
      w.seconds(report),
      cluster.linkBytes() - bytes0,
      cpuSeconds() - cpu0,
      results.nonEmpty && expected.getOrElseUpdate(w.name, results) == results
    )
    println(f"[cluster-bench] $rate rep $rep ${c.name}%-10s ${w.name}%-14s ${run.seconds}%7.2f s " +
      f"${run.linkBytes / 1048576.0}%8.1f MiB on the links ${run.cpuSeconds}%7.1f CPU s" +
      (if (run.resultOk) "" else "  RESULT DIFFERS"))
    run
  }

  /**
   * The cluster's application settings as a user's, with Spark's default shuffle partitions (200)
   * and a driver with room for TPC-H's broadcast tables.
   */
  private def benchConf(cluster: NetnsCluster): Map[String, String] =
    cluster.sparkConf("auto") - "spark.shuffle.kae.codec" - "spark.shuffle.manager" -
      "spark.sql.shuffle.partitions" + ("spark.driver.memory" -> "1536m")

  /** The machine's busy CPU seconds so far (/proc/stat: all but idle and iowait). */
  private def cpuSeconds(): Double = {
    val cpu = new String(Files.readAllBytes(Paths.get("/proc/stat")), StandardCharsets.US_ASCII)
      .linesIterator.next().split("\\s+").drop(1).map(_.toLong)
    (cpu.sum - cpu(3) - cpu(4)) / 100.0
  }
}
