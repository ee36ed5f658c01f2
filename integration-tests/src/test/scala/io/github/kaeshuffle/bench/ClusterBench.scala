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

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.it.{NetnsCluster, Submit}

/**
 * Workloads on Spark on YARN across three test hosts in network namespaces ([[NetnsCluster]]),
 * at each link rate given, the configurations alternating within each repetition (their order
 * rotated from one repetition to the next): per run the workload's time inside the application,
 * the bytes delivered over the links (the whole application, its start included) and the
 * machine's CPU seconds (all hosts share its cores).
 *
 * usage: ClusterBench <out dir> <rates, e.g. 250mbit,1gbit,10gbit> <workloads> <size> <reps>
 *   <configs: spark-lz4,spark-zstd,kae-auto,kae-lz4>
 */
object ClusterBench {
  case class Run(
      rate: String,
      rep: Int,
      config: String,
      workload: String,
      seconds: Double,
      linkBytes: Long,
      cpuSeconds: Double)

  val Configs: Seq[Config] =
    Harness.AllConfigs.filter(c => Set("spark-lz4", "spark-zstd")(c.name)) ++
      Seq(Harness.kae("auto", "spark-lz4"), Harness.kae("lz4", "spark-lz4"))

  def main(args: Array[String]): Unit = {
    require(
      args.length == 6,
      "usage: ClusterBench <out> <rates> <workloads> <size> <reps> <configs>")
    NetnsCluster.unavailable.foreach(r => sys.error(s"no test hosts here: $r"))
    val out = Paths.get(args(0))
    val rates = args(1).split(',').toSeq
    val workloads = args(2).split(',').toSeq
    val size = args(3)
    val reps = args(4).toInt
    val configs = Harness.named(args(5), Configs)
    Files.createDirectories(out)
    val runs = for {
      rate <- rates
      run <- atRate(rate, workloads, size, reps, configs)
    } yield run
    ClusterBenchPage.write(out, runs, args)
  }

  private def atRate(
      rate: String,
      workloads: Seq[String],
      size: String,
      reps: Int,
      configs: Seq[Config]): Seq[Run] = {
    val cluster = new NetnsCluster(3, rate, Map.empty).start()
    try {
      for {
        rep <- 1 to reps
        w <- workloads
        c <- rotate(configs, rep)
      } yield once(cluster, rate, rep, c, w, size)
    } finally cluster.stop()
  }

  private def rotate[T](s: Seq[T], by: Int): Seq[T] = s.drop(by % s.size) ++ s.take(by % s.size)

  private def once(
      cluster: NetnsCluster,
      rate: String,
      rep: Int,
      c: Config,
      w: String,
      size: String): Run = {
    val conf = cluster.sparkConf("auto") - "spark.shuffle.kae.codec" - "spark.shuffle.manager" ++
      c.settings ++ (if (c.kae) Map.empty else Map("spark.shuffle.manager" -> "sort"))
    val bytes0 = cluster.linkBytes()
    val cpu0 = cpuSeconds()
    val report = cluster.submit(s"bench-$rate-$rep-${c.name}-$w", conf, Seq(w), size = size)
    val run = Run(
      rate,
      rep,
      c.name,
      w,
      report.seconds(w),
      cluster.linkBytes() - bytes0,
      cpuSeconds() - cpu0)
    println(f"[cluster-bench] $rate rep $rep ${c.name}%-10s $w%-14s ${run.seconds}%7.2f s " +
      f"${run.linkBytes / 1048576.0}%8.1f MiB on the links ${run.cpuSeconds}%7.1f CPU s")
    run
  }

  /** The machine's busy CPU seconds so far (/proc/stat: all but idle and iowait). */
  private def cpuSeconds(): Double = {
    val cpu = new String(Files.readAllBytes(Paths.get("/proc/stat")), StandardCharsets.US_ASCII)
      .linesIterator.next().split("\\s+").drop(1).map(_.toLong)
    (cpu.sum - cpu(3) - cpu(4)) / 100.0
  }
}
