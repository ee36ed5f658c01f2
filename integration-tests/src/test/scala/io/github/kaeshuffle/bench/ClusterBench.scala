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
import java.nio.file.{Files, Path, Paths}

import scala.collection.mutable

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.it.{NetnsCluster, NodeShape, Sessions, Submit}
import io.github.kaeshuffle.workloads.QuerySet

/**
 * Workloads on Spark on YARN across three test hosts in network namespaces ([[NetnsCluster]]),
 * at each link rate given, the configurations alternating within each repetition (their order
 * rotated from one repetition to the next): per run the workload's time inside the application,
 * the bytes delivered over the links (the whole application, its start included) and the
 * machine's CPU seconds (all hosts share its cores); each rate's fresh cluster first runs an
 * untimed tiny `sort` per configuration. The workloads `tpch` and `tpcds` are those
 * benchmarks' queries at the scale factor given (their time the sum of the queries'), the others
 * are WorkloadApp's at the size given; `<workload>@<rate>` runs it at that rate only. A node
 * shape's preset name in place of a rate (`kunpeng-study`, `x86-study`) gives every host the
 * shape's link for one core and each NodeManager's host the shape's disk and memory, whose bytes
 * read and written each run records. Every run's results are checked equal to the first
 * configuration's, query by query; queries whose rows differed get a second look on the cluster
 * (without their final LIMIT, rows sorted, as [[TieCheck]] does in one JVM). A run replaces the
 * cells (rate and workload) it measured on the page in the output directory and keeps the
 * others, each with the commit and date it ran on.
 *
 * usage: ClusterBench <out dir> <rates, e.g. 250mbit,1gbit,10gbit,kunpeng-study> <workloads>
 *   <size> <reps> <configs: spark-lz4,spark-zstd,kae-auto,kae-lz4, or those of
 *   Harness.IoConfigs> <scale factor> <TPC-H data> <TPC-DS data>
 */
object ClusterBench {

  /**
   * One run; `differed` names the queries (or the workload) whose results were not the first's,
   * `disk` what the shaped hosts' disks read and wrote (a node shape's runs only).
   */
  case class Run(
      rate: String,
      rep: Int,
      config: String,
      workload: String,
      seconds: Double,
      linkBytes: Long,
      cpuSeconds: Double,
      differed: Seq[String] = Nil,
      commit: String = "",
      date: String = "",
      disk: Option[BlockIo] = None)

  /** A second look at a rate's workload: the queries' verdicts. */
  case class Ties(rate: String, workload: String, verdicts: Seq[TieCheck.Verdict]) {

    /** Whether a run of this rate and workload differed only in queries found equal here. */
    def explains(r: Run): Boolean =
      r.rate == rate && r.workload == workload &&
        r.differed.forall(q => verdicts.exists(v => QuerySet.fileName(v.query) == q && v.equal))
  }

  val Configs: Seq[Config] =
    Harness.named("spark-lz4,spark-zstd,kae-auto,kae-lz4", Harness.AllConfigs)

  def main(args: Array[String]): Unit = {
    require(
      args.length == 9,
      "usage: ClusterBench <out> <rates> <workloads> <size> <reps> <configs> <sf> <tpch data> " +
        "<tpcds data>")
    NetnsCluster.unavailable.foreach(r => sys.error(s"no test hosts here: $r"))
    val out = Paths.get(args(0))
    val rates = args(1).split(',').toSeq
    val workloads = args(2).split(',').toSeq
    val size = args(3)
    val reps = args(4).toInt
    val configs = Harness.named(args(5), Configs ++ Harness.IoConfigs)
    val atRates = workloads.map(_.split('@')).map(w => w(0) -> w.lift(1))
    val dataRoots = Map("tpch" -> Paths.get(args(7)), "tpcds" -> Paths.get(args(8)))
    val sql = atRates.map(_._1).distinct.filter(dataRoots.contains).map { name =>
      name -> sqlWorkload(QuerySet.named(name), args(6).toDouble, dataRoots(name))
    }.toMap
    Files.createDirectories(out)
    val measured = for {
      rate <- rates
      here = atRates.filter(_._2.forall(_ == rate)).map(w => Workload(w._1, sql.get(w._1), size))
    } yield atRate(rate, here, reps, configs)
    val (runs, ties) = (measured.flatMap(_._1), measured.flatMap(_._2))
    val date = java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString
    val dated = runs.map(_.copy(commit = Harness.commit, date = date))
    ClusterBenchPage.write(out, dated, ties, args)
    val unexplained = runs.filter(_.differed.nonEmpty).filterNot(r => ties.exists(_.explains(r)))
    if (unexplained.nonEmpty) sys.error("Some run gave other results than the first: above.")
  }

  /** A query set's workload: the set and SqlApp's directory of its tables and queries. */
  private case class SqlWorkload(set: QuerySet, tables: Path, dir: Path)

  /** What a run submits: a query set's queries through SqlApp, or a workload of WorkloadApp. */
  private case class Workload(name: String, sql: Option[SqlWorkload], size: String) {
    def mainClass: String = if (sql.isDefined) Submit.SqlApp else Submit.WorkloadApp
    def args: Seq[String] = sql.map(s => Seq(s.dir.toString)).getOrElse(Seq(name))
    def settings: Map[String, String] = sql.map(_.set.sessionSettings).getOrElse(Map.empty)

    def seconds(r: Submit.Report): Double =
      if (sql.isDefined) r.seconds.values.sum else r.seconds(name)

    /** The report's results (row counts and hashes) by query or workload name. */
    def results(r: Submit.Report): Seq[(String, Seq[String])] =
      r.named("query") ++ r.named("workload")
  }

  /** A set's tables (generated once per scale factor under `root`) and queries for SqlApp. */
  private def sqlWorkload(set: QuerySet, sf: Double, root: Path): SqlWorkload = {
    val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
    val tables = Sessions.withSession(conf)(spark => set.generate(spark, sf, root))
    val dir = root.resolve(s"sql-sf${QuerySet.scaleFactorName(sf)}")
    SqlWorkload(set, tables, set.writeSqlDir(tables, dir))
  }

  private def atRate(
      rate: String,
      workloads: Seq[Workload],
      reps: Int,
      configs: Seq[Config]): (Seq[Run], Seq[Ties]) = {
    // A shape's name as the rate: its link for the one core of each host's executor, its disk.
    val shape = NodeShape.preset(rate)
    val link = shape.map(_.linkRate(1)).getOrElse(rate)
    val cluster = new NetnsCluster(3, link, Map.empty, executorMb = 1024, shape = shape).start()
    val expected = mutable.Map[String, Seq[(String, Seq[String])]]()
    try {
      configs.foreach(c => warmUp(cluster, rate, c))
      val runs = for {
        rep <- 1 to reps
        w <- workloads
        c <- Rotation.of(configs, rep)
      } yield once(cluster, rate, rep, c, w, expected)
      val ties = for {
        w <- workloads if w.sql.isDefined
        differed = runs.filter(_.workload == w.name).flatMap(_.differed).distinct
        if differed.nonEmpty
      } yield Ties(rate, w.name, secondLook(cluster, rate, w, configs, differed))
      ties.flatMap(_.verdicts).foreach(v => println(s"[cluster-bench] $rate ${v.describe}"))
      (runs, ties)
    } finally cluster.stop()
  }

  /**
   * An untimed tiny application per configuration on the fresh cluster: the first application
   * pays its start (the NodeManagers' JIT, the first localizations), which would otherwise fall
   * on whichever configuration the rotation puts first.
   */
  private def warmUp(cluster: NetnsCluster, rate: String, c: Config): Unit = {
    val w = Workload("sort", None, "tiny")
    cluster.submit(s"warm-up-$rate-${c.name}", conf(cluster, c, w), w.args, size = w.size)
  }

  private def once(
      cluster: NetnsCluster,
      rate: String,
      rep: Int,
      c: Config,
      w: Workload,
      expected: mutable.Map[String, Seq[(String, Seq[String])]]): Run = {
    val bytes0 = cluster.linkBytes()
    val disk0 = diskIo(cluster)
    val cpu0 = MachineCpu.seconds()
    val report = cluster.submit(
      s"bench-$rate-$rep-${c.name}-${w.name}",
      conf(cluster, c, w),
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
      MachineCpu.seconds() - cpu0,
      differed(results, expected.getOrElseUpdate(w.name, results), w.name),
      disk = disk0.map(d => diskIo(cluster).get - d)
    )
    println(f"[cluster-bench] $rate rep $rep ${c.name}%-10s ${w.name}%-14s ${run.seconds}%7.2f s " +
      f"${run.linkBytes / 1048576.0}%8.1f MiB on the links ${run.cpuSeconds}%7.1f CPU s" +
      run.disk.fold("")(d => f" ${d.writtenBytes / 1048576.0}%.1f MiB to the disks") +
      (if (run.differed.isEmpty) "" else s"  RESULT DIFFERS: ${run.differed.mkString(", ")}"))
    run
  }

  /** What the shaped hosts' disks have read and written in all; None without a shape. */
  private def diskIo(cluster: NetnsCluster): Option[BlockIo] =
    if (cluster.shapedHosts.isEmpty) None
    else Some(cluster.shapedHosts.map(h => BlockIo.now(h.device)).reduce(_ + _))

  /** The names whose result lines are not the expected ones; the workload's if it gave none. */
  private def differed(
      got: Seq[(String, Seq[String])],
      expected: Seq[(String, Seq[String])],
      workload: String): Seq[String] =
    if (got.isEmpty) Seq(workload)
    else {
      val (g, e) = (got.toMap, expected.toMap)
      (e.keySet ++ g.keySet).toSeq.sorted.filter(k => g.get(k) != e.get(k))
    }

  /**
   * The queries that differed, run again on the cluster under every configuration without their
   * final LIMIT, compared by their sorted rows' digests.
   */
  private def secondLook(
      cluster: NetnsCluster,
      rate: String,
      w: Workload,
      configs: Seq[Config],
      differed: Seq[String]): Seq[TieCheck.Verdict] = {
    val sql = w.sql.get
    val queries = sql.set.queryNames.filter(q => differed.contains(QuerySet.fileName(q)))
    val dir = sql.set.writeSqlDir(
      sql.tables,
      Files.createTempDirectory(sql.dir.getParent, "ties-"),
      queries,
      QuerySet.withoutFinalLimit)
    val sorted = configs.map { c =>
      val report = cluster.submit(
        s"ties-$rate-${c.name}-${w.name}",
        conf(cluster, c, w),
        Seq(dir.toString),
        mainClass = Submit.SqlApp,
        timeoutSeconds = 3600)
      report.named("sorted").toMap
    }
    queries.map { q =>
      val all = sorted.map(_.get(QuerySet.fileName(q)))
      val rows = all.head.map(_.head.toInt).getOrElse(0)
      TieCheck.Verdict(q, rows, all.head.isDefined && all.forall(_ == all.head))
    }
  }

  private def conf(cluster: NetnsCluster, c: Config, w: Workload): Map[String, String] =
    benchConf(cluster) ++ w.settings ++ c.settings ++
      (if (c.kae) Map.empty else Map("spark.shuffle.manager" -> "sort")) ++
      // The IO codec is made before any task: the jar on the class paths, as docs/yarn.md shows
      // for 3.5 (spark.jars puts it in each container's working directory).
      (if (Harness.usesIoCodec(c)) Submit.onClassPath(executorPath = Submit.distJar.getName)
       else Map.empty)

  /**
   * The cluster's application settings as a user's, with Spark's default shuffle partitions (200)
   * and a driver with room for TPC-H's broadcast tables.
   */
  private def benchConf(cluster: NetnsCluster): Map[String, String] =
    cluster.sparkConf("auto") - "spark.shuffle.kae.codec" - "spark.shuffle.manager" -
      "spark.sql.shuffle.partitions" + ("spark.driver.memory" -> "1536m")
}
