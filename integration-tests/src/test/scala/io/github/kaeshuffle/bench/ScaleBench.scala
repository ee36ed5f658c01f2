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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.Harness.Config
import io.github.kaeshuffle.codec.KaeZipModel
import io.github.kaeshuffle.it.{NodeShape, Sessions, ShapedHost, Submit}
import io.github.kaeshuffle.workloads.{MllibJobs, ScaleJobs}

import org.apache.spark.network.util.JavaUtils
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * The study's workloads at its sizes on the study's node shapes (docs/benchmarks/scale): for each
 * shape (`host`: this machine as it is; a [[NodeShape]] preset or explicit figures), each
 * `workload@size` and each repetition, every configuration in turn (the order rotated from one
 * repetition to the next), each run a `spark-submit` of [[io.github.kaeshuffle.deploy.ScaleApp]]
 * in `local-cluster[2,1,2048]`: two executors of 1 core and 2 GB, as the study's. On a shape the
 * application's JVMs run in its memory cgroup and Spark's local dirs are on its disk. Per run:
 * the workload's time, the machine's CPU seconds, the peak RSS of the application's JVMs, where
 * their CPU went ([[ThreadCpu]]), bytes spilled, bytes the local disk read and wrote, the
 * shuffle's bytes. Results are checked against
 * the first configuration's: digests equal, MLlib's values within [[Tolerance]].
 *
 * usage: ScaleBench <out dir> <shapes> <workload@size,...> <reps> <configs> <work dir>
 */
object ScaleBench {

  /** MLlib's floating results may differ with the shuffle's merge order, by this much (relative). */
  val Tolerance = 1e-6

  val Master = "local-cluster[2,1,2048]"
  val Cores = 2

  /** The driver's heap and what the JVMs beside the executors take: outside the shape's slots. */
  val OtherBytes: Long = 2L << 30

  private val kaezip = {
    val base = Harness.kae("kaezip", "spark-lz4")
    base.copy(settings = base.settings ++ Map(
      "spark.shuffle.kae.kaezip.libraryPath" -> KaeZipModel.path(),
      "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true"))
  }

  /**
   * Spark's lz4 and zstd, ours by default, with lz4 and with zstd level 1 pinned (auto's choice
   * before it followed the bound), and `kaezip` on the cost model; for Spark's IO outside the
   * shuffle, our `KaeIoCodec` under Spark's shuffle (`spark-kaeio`) and under ours (`kae-auto-io`,
   * and `kae-zstd-io` with zstd level 1 for both, against `spark-zstd`). Our configurations ship
   * the jar with `spark.jars` (docs/yarn.md's first way) but for `kae-auto-installed`, whose jar
   * is on the class paths as if installed on every node (its second way): nothing fetched or
   * resolved per application.
   */
  lazy val Configs: Seq[Config] = {
    val auto = Harness.kae("auto", "spark-lz4")
    val spark = Harness.AllConfigs.filter(c => Set("spark-lz4", "spark-zstd")(c.name))
    // Spark's lz4 under a second name: the spread of a configuration against itself, the
    // yardstick for a small job's ratios.
    val again = spark.filter(_.name == "spark-lz4").map(_.copy(name = "spark-lz4-again"))
    spark ++ again ++
      Seq(
        auto,
        auto.copy(name = "kae-auto-installed", settings = auto.settings ++ Submit.onClassPath()),
        Harness.kae("lz4", "spark-lz4"),
        Harness.kae("zstd", "spark-lz4"),
        kaezip
      ) ++
      Harness.IoConfigs
  }

  /** What a run asks for: a workload at an input size in bytes. */
  case class Item(workload: String, bytes: Long) {
    def label: String = s"$workload@${ScalePage.size(bytes)}"
  }

  case class Run(
      shape: String,
      workload: String,
      bytes: Long,
      config: String,
      rep: Int,
      seconds: Double,
      cpuSeconds: Double,
      peakRss: Long,
      spilled: Long,
      diskRead: Long,
      diskWritten: Long,
      shuffleWritten: Long,
      resultOk: Boolean,
      commit: String,
      date: String,
      cpuSplit: CpuSplit = CpuSplit.Unknown)

  def main(args: Array[String]): Unit = {
    require(
      args.length == 6,
      "usage: ScaleBench <out> <shapes> <workload@size,...> <reps> <configs> <work dir>")
    val out = Paths.get(args(0))
    val shapes =
      args(1).split(',').toSeq.map(s => if (s == "host") None else Some(NodeShape.parse(s)))
    val items = args(2).split(',').toSeq.map(parseItem)
    val reps = args(3).toInt
    val extra = Harness.extraSettings(sys.props.getOrElse("kae.bench.settings", "none"))
    val configs = Harness.named(args(4), Configs).map(c => c.copy(settings = c.settings ++ extra))
    val work = Paths.get(args(5))
    executorFlags.foreach(checkFlags)
    Files.createDirectories(Paths.get(System.getProperty("java.io.tmpdir")))
    if (shapes.exists(_.isDefined)) {
      NodeShape.prepare()
    }
    // The page after every run: a long run stopped halfway keeps what it measured.
    val done = scala.collection.mutable.ArrayBuffer[Run]()
    for (s <- shapes) onShape(s, items, reps, configs, work) { r =>
      done += r
      ScalePage.write(out, done.toSeq, args)
    }
    val runs = done.toSeq
    if (runs.exists(!_.resultOk)) sys.error("Some run gave other results than the first: above.")
  }

  /** `sort@3.2g`: a workload and its input size (k, m, g: thousands, millions, billions). */
  def parseItem(s: String): Item = s.split('@') match {
    case Array(w, size) => Item(w, NodeShape.amount(size, 1000))
    case _ => throw new IllegalArgumentException(s"'$s' is not workload@size, e.g. sort@320m")
  }

  private def onShape(
      shape: Option[NodeShape],
      items: Seq[Item],
      reps: Int,
      configs: Seq[Config],
      work: Path)(measured: Run => Unit): Unit = {
    Files.createDirectories(work)
    // Room for the largest input about three times over: shuffle files, spills, a map output's copy.
    val diskMib = math.max(2048L, items.map(_.bytes).max * 3 / (1L << 20))
    val host = shape.map(NodeShape.up(_, Cores, work, diskMib, OtherBytes))
    try {
      host.foreach(h => println(s"[scale-bench] ${h.shape}: ${h.check()}"))
      val name = shape.map(_.name).getOrElse("host")
      for {
        item <- items
        rep <- 1 to reps
        c <- Rotation.of(configs, rep)
      } measured(once(name, host, item, rep, c, work))
    } finally host.foreach(_.close())
  }

  private val expected = scala.collection.mutable.Map[(String, Item), Submit.Report]()

  private def once(
      shape: String,
      host: Option[ShapedHost],
      item: Item,
      rep: Int,
      c: Config,
      work: Path): Run = {
    val localDir = host.map(_.mount).getOrElse(work).resolve("spark-local")
    Files.createDirectories(localDir)
    val device = BlockIo.deviceOf(localDir)
    val io0 = BlockIo.now(device)
    val cpu0 = MachineCpu.seconds()
    val kernel0 = MachineCpu.kernelSeconds()
    val (report, peakRss, split) = submit(host, item, c, localDir, work)
    val io = BlockIo.now(device) - io0
    val cpu = MachineCpu.seconds() - cpu0
    val kernel = MachineCpu.kernelSeconds() - kernel0
    JavaUtils.deleteRecursively(localDir.toFile)
    val ok = sameResult(report, expected.getOrElseUpdate((shape, item), report), item.workload)
    val seconds = report.seconds(item.workload)
    println(f"[scale-bench] $shape%-14s ${item.label}%-16s rep $rep ${c.name}%-11s $seconds%8.2f s " +
      f"$cpu%8.1f CPU s ($kernel%.1f kernel) ${peakRss / 1048576.0}%7.0f MiB RSS ${io.writtenBytes / 1048576.0}%8.1f " +
      "MiB to disk" + (if (ok) "" else "  RESULT DIFFERS") + s"\n[scale-bench]   CPU s: $split")
    val shuffle = report.named("shuffle").headOption.map(_._1.toLong).getOrElse(0L)
    val spilled = report.named("spilled").headOption.map(_._2.head.toLong).getOrElse(0L)
    Run(
      shape,
      item.workload,
      item.bytes,
      c.name,
      rep,
      seconds,
      cpu,
      peakRss,
      spilled,
      io.readBytes,
      io.writtenBytes,
      shuffle,
      ok,
      Harness.commit,
      java.time.LocalDate.now.toString,
      split
    )
  }

  /** Equal digests, or MLlib's values within [[Tolerance]]. */
  private def sameResult(got: Submit.Report, first: Submit.Report, workload: String): Boolean = {
    val digests = got.named("workload") == first.named("workload")
    val values = (got.named("values"), first.named("values")) match {
      case (Seq((_, a)), Seq((_, b))) =>
        MllibJobs.close(a.map(_.toDouble), b.map(_.toDouble), Tolerance)
      case (a, b) => a.isEmpty && b.isEmpty
    }
    got.seconds.contains(workload) && digests && values
  }

  /**
   * Submits one run inside the shape's cgroup; its report, the peak RSS of its JVMs and where
   * their CPU went.
   */
  private def submit(
      host: Option[ShapedHost],
      item: Item,
      c: Config,
      localDir: Path,
      work: Path): (Submit.Report, Long, CpuSplit) = {
    val dir = Files.createTempDirectory(work, "run-")
    val props = dir.resolve("spark.properties")
    Submit.writeProperties(props, settings(c, item, localDir), "KAE Shuffle scale benchmark")
    val report = dir.resolve("report.txt")
    val log = dir.resolve("spark-submit.log")
    val command = Seq(
      s"${Sessions.submitSparkHome}/bin/spark-submit",
      "--master",
      Master,
      "--properties-file",
      props.toString,
      "--class",
      "io.github.kaeshuffle.deploy.ScaleApp",
      Submit.appJar.getAbsolutePath,
      report.toString,
      item.workload,
      item.bytes.toString
    )
    val pb = new ProcessBuilder(host.map(_.inside(command)).getOrElse(command).asJava)
      .redirectErrorStream(true)
      .redirectOutput(log.toFile)
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1")
    pb.environment().put("SPARK_LOCAL_DIRS", localDir.toString)
    val process = pb.start()
    val rss = new PeakSampler(200, () => treeRss(process.toHandle))
    val cpu = new ThreadCpu(process.toHandle)
    val threads = new Periodic(500, "thread-cpu")(cpu.sample())
    val code =
      try Submit.awaitEnd(process, s"scale ${item.label} ${c.name}", log, 4 * 3600)
      finally {
        rss.stop()
        threads.stop()
      }
    (Submit.reportOf(item.label, Submit.Ended(code, report, log)), rss.peak, cpu.split)
  }

  private def settings(c: Config, item: Item, localDir: Path): Map[String, String] =
    withExecutorFlags(ScaleJobs.executorSettings(item.workload) ++ Map(
      "spark.local.dir" -> localDir.toString,
      "spark.driver.memory" -> "1g",
      "spark.executor.memory" -> "2g",
      "spark.ui.enabled" -> "false",
      "spark.kae.bench.executors" -> Cores.toString,
      "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
      // Only serialized caches (kmeans-ser, kmeans-docs) are compressed; the rest cache objects.
      "spark.rdd.compress" -> "true"
    ) ++
      c.settings ++
      // The IO codec is made before any task, so the driver and executors start with our jar.
      (if (Harness.usesIoCodec(c)) Submit.onClassPath()
       else if (c.kae && !installed(c)) Submit.withJars()
       else Map.empty))

  /** Whether `c` puts our jar on the class paths itself, as `Submit.onClassPath` does. */
  private def installed(c: Config): Boolean =
    Submit.onClassPath().forall { case (k, v) => c.settings.get(k).contains(v) }

  /**
   * `-Dkae.bench.executorFlags` (the profile's `bench.executorFlags`) added to the executors' JVM
   * options: a profiler for one run, e.g. `-XX:StartFlightRecording=filename=/tmp/jfr/` (a
   * directory: each executor writes its own recording).
   */
  private def withExecutorFlags(settings: Map[String, String]): Map[String, String] =
    executorFlags match {
      case Some(flags) =>
        val key = "spark.executor.extraJavaOptions"
        settings + (key -> (settings.get(key).toSeq :+ flags).mkString(" "))
      case None => settings
    }

  private def executorFlags: Option[String] =
    sys.props.get("kae.bench.executorFlags").map(_.trim).filter(_.nonEmpty)

  /**
   * Tries the executor flags once on this JVM's `java` before any run. A flag the JVM refuses
   * fails every executor at its start, and Spark's standalone worker starts new ones while the
   * application waits for them: a run then neither progresses nor fails (thousands of failed
   * executors in ten minutes, seen with an unknown `-Xlog` tag).
   */
  private def checkFlags(flags: String): Unit = {
    val java = Paths.get(System.getProperty("java.home"), "bin", "java").toString
    val command = (java +: KaeSparkAccess.splitJavaOptions(flags) :+ "-version").asJava
    val p = new ProcessBuilder(command).redirectErrorStream(true).start()
    val output = new String(p.getInputStream.readAllBytes(), StandardCharsets.UTF_8)
    require(p.waitFor() == 0, s"The executors' JVM refuses bench.executorFlags '$flags':\n$output")
  }

  /** The resident bytes of a process and every process under it (/proc/<pid>/status VmRSS). */
  private def treeRss(root: ProcessHandle): Long =
    (Iterator(root) ++ root.descendants().iterator().asScala).map { p =>
      val status = Paths.get(s"/proc/${p.pid}/status")
      try {
        new String(Files.readAllBytes(status), StandardCharsets.US_ASCII).linesIterator
          .find(_.startsWith("VmRSS:")).map(_.split("\\s+")(1).toLong * 1024).getOrElse(0L)
      } catch { case _: java.io.IOException => 0L } // ended between the listing and the read
    }.sum
}
