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
import java.util.concurrent.atomic.AtomicLong

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.{CodecKind, CodecOptions}
import io.github.kaeshuffle.codec.kaezip.KaeZipPreflight
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.knowm.xchart.{CategoryChart, CategoryChartBuilder}

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * The benchmark harness (docs/benchmarks/README.md): every workload under every configuration,
 * configurations alternating within each repetition (A B C ... A B C), one warm-up round first;
 * medians with min-max, ratios of KAE Shuffle to Spark's shuffle with the same codec family, a
 * CSV of every run, a markdown page and PNG charts.
 *
 * Arguments: command, output dir, size, repetitions, workloads (comma list or `all`), configs
 * (or `all`). Commands: `run` (the benchmark), `render` (the page and charts of a size again from
 * its CSV), `growth` (the small-vs-medium page from both CSVs).
 */
object Harness {

  /** A configuration: its name, its codec family's baseline, and its settings. */
  case class Config(name: String, kae: Boolean, baseline: String, settings: Map[String, String])

  private[bench] def kae(codec: String, baseline: String) = Config(
    s"kae-$codec",
    kae = true,
    baseline,
    Map(
      "spark.shuffle.manager" -> "org.apache.spark.shuffle.kae.KaeShuffleManager",
      "spark.shuffle.kae.codec" -> codec))

  /** The configurations a comma-separated list names, in its order, from `all`. */
  def named(names: String, all: Seq[Config]): Seq[Config] =
    names.split(',').toSeq.map(n =>
      all.find(_.name == n).getOrElse(throw new IllegalArgumentException(
        s"Unknown configuration $n: ${all.map(_.name).mkString(", ")}")))

  /**
   * Spark settings a benchmark adds to every configuration's (`-Dbench.settings`): `key=value,...`
   * (values without commas), or `none`; keys are Spark's.
   */
  def extraSettings(arg: String): Seq[(String, String)] =
    if (arg == "none" || arg.trim.isEmpty) Nil
    else
      arg.split(',').toSeq.map { kv =>
        kv.split("=", 2) match {
          case Array(k, v) if k.startsWith("spark.") && v.nonEmpty => k -> v
          case _ =>
            throw new IllegalArgumentException(
              s"bench.settings: '$kv' is not spark.<key>=<value> (give key=value,... or none).")
        }
      }

  val AllConfigs: Seq[Config] = Seq(
    Config("spark-lz4", kae = false, "spark-lz4", Map("spark.io.compression.codec" -> "lz4")),
    Config(
      "spark-zstd",
      kae = false,
      "spark-zstd",
      Map("spark.io.compression.codec" -> "zstd", "spark.io.compression.zstd.level" -> "1")),
    Config(
      "spark-snappy",
      kae = false,
      "spark-snappy",
      Map("spark.io.compression.codec" -> "snappy")),
    Config(
      "spark-deflate-stream",
      kae = false,
      "spark-deflate-stream",
      Map("spark.io.compression.codec" -> classOf[CountingDeflateCodec].getName)),
    kae("libdeflate", "spark-deflate-stream"),
    kae("zlib", "spark-deflate-stream"),
    kae("java", "spark-deflate-stream"),
    kae("lz4", "spark-lz4"),
    kae("zstd", "spark-zstd"),
    // Our default: lz4 moving to stronger codecs where the disk bounds the map tasks.
    kae("auto", "spark-lz4")
  ) ++
    (if (KaeZipPreflight.logOnce(CodecOptions.builder().codec(CodecKind.KAEZIP).build())
         .hardwareInUse()) Seq(kae("kaezip", "spark-deflate-stream"))
     else Nil)

  /** A configuration like `base` with one setting changed, measured against `base`. */
  private def variant(base: Config, name: String, setting: (String, String)): Config =
    base.copy(name = name, baseline = base.name, settings = base.settings + setting)

  /**
   * Configurations run only when named, each against the configuration it varies: without the
   * shuffle doctor's clocks (what measuring costs), without the incompressibility probe (what it
   * saves and costs), with one serialization stream for all partitions, with the block writer
   * spilling its frames early, and with IO encryption (Spark's own encrypted shuffle, and ours
   * measured against it).
   */
  val ExtraConfigs: Seq[Config] = {
    val libdeflate = kae("libdeflate", "spark-deflate-stream")
    val lz4 = kae("lz4", "spark-lz4")
    val encrypted = "spark.io.encryption.enabled" -> "true"
    val sparkEncrypted = Config(
      "spark-lz4-encrypted",
      kae = false,
      "spark-lz4-encrypted",
      Map("spark.io.compression.codec" -> "lz4", encrypted))
    Seq(
      sparkEncrypted,
      lz4.copy(
        name = "kae-lz4-encrypted",
        baseline = sparkEncrypted.name,
        settings = lz4.settings + encrypted),
      variant(libdeflate, "kae-libdeflate-nodoctor", "spark.shuffle.kae.doctor.enabled" -> "false"),
      variant(
        libdeflate,
        "kae-libdeflate-noprobe",
        "spark.shuffle.kae.writer.probeIncompressible" -> "false"),
      variant(lz4, "kae-lz4-onestream", "spark.shuffle.kae.writer.partitionStreams" -> "0"),
      variant(lz4, "kae-lz4-spill64m", "spark.shuffle.kae.writer.maxMemory" -> "64m")
    )
  }

  /** Our IO codec's class, as `spark.io.compression.codec` names it. */
  val IoCodecClass = "org.apache.spark.shuffle.kae.KaeIoCodec"

  private val IoCodec = "spark.io.compression.codec" -> IoCodecClass

  /** Whether `c` names our IO codec, which Spark makes before any task: our jar must be there. */
  def usesIoCodec(c: Config): Boolean = c.settings.get(IoCodec._1).contains(IoCodec._2)

  /**
   * Our `KaeIoCodec` for Spark's IO outside the shuffle (broadcasts, cached blocks): under Spark's
   * shuffle (`spark-kaeio`), and under ours with `auto` (its IO streams on auto's first step) and
   * with zstd level 1 for both (`kae-zstd-io`, against Spark's zstd for everything).
   */
  val IoConfigs: Seq[Config] = {
    val auto = kae("auto", "spark-lz4")
    val zstd = kae("zstd", "spark-zstd")
    Seq(
      Config("spark-kaeio", kae = false, "spark-lz4", Map(IoCodec)),
      auto.copy(name = "kae-auto-io", settings = auto.settings + IoCodec),
      zstd.copy(name = "kae-zstd-io", settings = zstd.settings + IoCodec)
    )
  }

  /**
   * One run. `stages`: "stageId:seconds" for every completed stage, `;`-separated; `peakHeap`: the
   * JVM's heap in use, sampled every 50 ms (in local mode the driver JVM is the executor).
   */
  case class Run(
      config: String,
      workload: String,
      rep: Int,
      wall: Double,
      written: Long,
      read: Long,
      raw: Long,
      calls: Long,
      codecMs: Double,
      gcMs: Long,
      peakMem: Long,
      resultOk: Boolean,
      stages: String = "",
      peakHeap: Long = 0L,
      cpuMs: Long = 0L,
      io: ProcessIo = ProcessIo.Zero)

  def main(args: Array[String]): Unit = {
    val outDir = Paths.get(args.lift(1).getOrElse("docs/benchmarks"))
    val size = Workloads.Size.of(args.lift(2).getOrElse("small"))
    val sizeName = size.name.toLowerCase(Locale.ROOT)
    val reps = args.lift(3).map(_.toInt).getOrElse(3)
    args.headOption.getOrElse("run") match {
      case "render" =>
        render(outDir.resolve(s"Harness-$sizeName.csv"), reps)
        return
      case "growth" =>
        Growth.write(outDir)
        return
      case "run" | "doctor" =>
      case other =>
        throw new IllegalArgumentException(
          s"Unknown command $other: run, render, growth or doctor.")
    }
    val workloads = args.lift(4).filter(_ != "all").map(_.split(',').toSeq)
      .getOrElse(WorkloadJobs.Names)
    // Named configurations run in the order named (to measure order effects, name them in
    // reverse too).
    val configs = args.lift(5).filter(_ != "all").map(named(_, AllConfigs ++ ExtraConfigs))
      .getOrElse(AllConfigs)
    if (args.head == "doctor") {
      org.apache.spark.shuffle.kae.DoctorRuns.write(outDir, size, workloads, configs)
      return
    }
    val runs = mutable.ArrayBuffer[Run]()
    val reference = mutable.Map[String, WorkloadJobs.Digest]()
    for (rep <- 0 to reps; w <- workloads; c <- configs) {
      val (run, digest) = once(c, w, size, rep)
      val ok = reference.get(w) match {
        case Some(d) => d.sameAs(digest)
        case None =>
          reference(w) = digest
          true
      }
      val r = run.copy(resultOk = ok)
      if (!ok)
        System.err.println(s"RESULT MISMATCH: $w under ${c.name}: $digest vs ${reference(w)}")
      if (rep > 0) runs += r
      println(f"rep $rep%d $w%-17s ${c.name}%-21s ${r.wall}%6.2f s ${mib(r.written)}%9s MiB" +
        (if (ok) "" else "  RESULT DIFFERS"))
    }
    Files.createDirectories(outDir)
    val prefix = s"Harness-$sizeName"
    writeCsv(outDir.resolve(s"$prefix.csv"), runs.toSeq, sizeName)
    val charts = drawCharts(outDir, prefix, runs.toSeq, workloads, configs)
    val md =
      summary(runs.toSeq, workloads, configs, sizeName, reps, charts, notes(outDir, sizeName))
    Files.writeString(outDir.resolve(s"$prefix.md"), md)
    println(md)
    if (Seq("small", "medium").forall(s => Files.exists(outDir.resolve(s"Harness-$s.csv")))) {
      Growth.write(outDir)
    }
    if (runs.exists(!_.resultOk)) {
      System.err.println("Some configuration gave a different result: see above.")
      sys.exit(1)
    }
  }

  /** The runs of a CSV this harness wrote. */
  def readCsv(csv: Path): Seq[Run] = {
    val lines = Files.readAllLines(csv).asScala.drop(1).filter(_.nonEmpty)
    lines.map(_.split(",", -1)).map { f =>
      Run(
        f(2),
        f(1),
        f(3).toInt,
        f(4).toDouble,
        f(5).toLong,
        f(6).toLong,
        f(7).toLong,
        f(8).toLong,
        if (f(9).isEmpty) Double.NaN else f(9).toDouble,
        f(10).toLong,
        f(11).toLong,
        f(12).toBoolean,
        f.lift(13).getOrElse(""),
        f.lift(14).filter(_.nonEmpty).map(_.toLong).getOrElse(0L),
        f.lift(15).filter(_.nonEmpty).map(_.toLong).getOrElse(0L),
        if (f.length > 20) {
          ProcessIo(f(16).toLong, f(17).toLong, f(18).toLong, f(19).toLong, f(20).toLong)
        } else ProcessIo.Zero
      )
    }.toSeq
  }

  /**
   * Re-renders the markdown page and charts from a CSV this harness wrote (presentation changes
   * need no new runs): `-Dbench.command=render -Dbench.size=<size> -Dbench.reps=<reps>`.
   */
  def render(csv: Path, reps: Int): Unit = {
    val size = Files.readAllLines(csv).get(1).split(",", -1)(0)
    val runs = readCsv(csv)
    val workloads = runs.map(_.workload).distinct
    val configs = (AllConfigs ++ ExtraConfigs).filter(c => runs.exists(_.config == c.name))
    val dir = csv.toAbsolutePath.getParent
    val charts = drawCharts(dir, s"Harness-$size", runs, workloads, configs)
    Files.writeString(
      dir.resolve(s"Harness-$size.md"),
      summary(runs, workloads, configs, size, reps, charts, notes(dir, size)))
  }

  private def once(
      c: Config,
      workload: String,
      size: Workloads.Size,
      rep: Int): (Run, WorkloadJobs.Digest) = {
    val conf = Sessions.conf(None, Sessions.Kryo, "local[2]")
      .set("spark.unsafe.exceptionOnMemoryLeak", "false")
      .setAll(c.settings)
    Sessions.withSession(conf) { spark =>
      val totals = new ShuffleTotals
      val gc = new AtomicLong
      val cpu = new AtomicLong
      val stages = new java.util.concurrent.ConcurrentSkipListMap[Integer, java.lang.Double]()
      spark.sparkContext.addSparkListener(totals)
      spark.sparkContext.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
          if (e.taskMetrics != null) {
            gc.addAndGet(e.taskMetrics.jvmGCTime)
            cpu.addAndGet(e.taskMetrics.executorCpuTime)
          }
        override def onStageCompleted(e: SparkListenerStageCompleted): Unit =
          for (s <- e.stageInfo.submissionTime; c <- e.stageInfo.completionTime) {
            stages.put(e.stageInfo.stageId, (c - s) / 1000.0)
          }
      })
      CountingDeflateCodec.reset()
      val heap = new PeakSampler(
        50,
        () => {
          val rt = Runtime.getRuntime
          rt.totalMemory() - rt.freeMemory()
        })
      val io0 = ProcessIo.now()
      val t0 = System.nanoTime()
      val digest =
        try WorkloadJobs.run(workload, spark, size, 4)
        finally heap.stop()
      val wall = (System.nanoTime() - t0) / 1e9
      val io = ProcessIo.now() - io0
      KaeSparkAccess.drainListeners(spark.sparkContext)
      val stageTimes = stages.asScala.map { case (id, sec) => s"$id:$sec" }.mkString(";")
      val (raw, calls, codecMs) = if (c.kae) {
        (
          totals.kaeTotal("write.rawBytes"),
          totals.kaeTotal("write.codecCalls"),
          (totals.kaeTotal("write.codecNanos") + totals.kaeTotal("read.codecNanos")) / 1e6)
      } else if (c.name == "spark-deflate-stream") {
        (CountingDeflateCodec.bytes.get, CountingDeflateCodec.calls.get, Double.NaN)
      } else {
        (0L, 0L, Double.NaN)
      }
      (
        Run(
          c.name,
          workload,
          rep,
          wall,
          totals.bytesWritten.get,
          totals.bytesRead.get,
          raw,
          calls,
          codecMs,
          gc.get,
          totals.peakExecutionMemory.get,
          resultOk = true,
          stageTimes,
          heap.peak,
          cpu.get / 1000000L,
          io
        ),
        digest)
    }
  }

  /** The code a page is measured on (`-dirty`: with uncommitted changes). */
  def commit: String =
    try scala.sys.process.Process(Seq("git", "describe", "--always", "--dirty")).!!.trim
    catch { case _: Exception => "unknown" }

  /** The repository's top directory (the working directory where git cannot tell). */
  def repositoryRoot: String =
    try scala.sys.process.Process(Seq("git", "rev-parse", "--show-toplevel")).!!.trim
    catch { case _: Exception => "." }

  /** The median; for an even count, the mean of the two middle values. */
  def median(v: Seq[Double]): Double = {
    val s = v.sorted
    if (s.isEmpty) Double.NaN
    else if (s.size % 2 == 1) s(s.size / 2)
    else (s(s.size / 2 - 1) + s(s.size / 2)) / 2
  }

  private def mib(b: Long): String = "%.1f".formatLocal(Locale.ROOT, b / 1048576.0)

  /** The median of an I/O counter in MiB; "-" for runs recorded before the counters were. */
  private def ioMib(v: Seq[Long]): String =
    if (v.forall(_ == 0L)) "-" else mib(median(v.map(_.toDouble)).toLong)

  private def writeCsv(path: Path, runs: Seq[Run], size: String): Unit = {
    val sb = new StringBuilder("size,workload,config,rep,wall_s,shuffle_written_bytes," +
      "shuffle_read_bytes,raw_bytes,codec_calls,codec_ms,gc_ms,peak_execution_memory," +
      "result_equal,stage_seconds,peak_heap_bytes,task_cpu_ms,io_rchar,io_wchar,io_read_bytes," +
      "io_write_bytes,io_cancelled_write_bytes\n")
    for (r <- runs) {
      sb ++= s"$size,${r.workload},${r.config},${r.rep},${r.wall},${r.written},${r.read}," +
        s"${r.raw},${r.calls},${if (r.codecMs.isNaN) "" else r.codecMs},${r.gcMs},${r.peakMem}," +
        s"${r.resultOk},${r.stages},${if (r.peakHeap > 0) r.peakHeap else ""}," +
        s"${if (r.cpuMs > 0) r.cpuMs else ""},${r.io.rchar},${r.io.wchar},${r.io.readBytes}," +
        s"${r.io.writeBytes},${r.io.cancelledBytes}\n"
    }
    Files.writeString(path, sb.toString)
  }

  def medianWall(runs: Seq[Run], w: String, c: String): Double =
    median(runs.filter(r => r.workload == w && r.config == c).map(_.wall))

  /** The hand-written analysis on a size's page (PageNotes), shown after the targets. */
  private def notes(dir: Path, size: String): Option[String] =
    PageNotes.of(dir.resolve(s"Harness-$size.md"))

  private def summary(
      runs: Seq[Run],
      workloads: Seq[String],
      configs: Seq[Config],
      size: String,
      reps: Int,
      charts: Seq[String],
      notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= s"# KAE Shuffle vs Spark's shuffle, size `$size`\n\n"
    val configNames = runs.map(_.config).distinct
    sb ++= "Produced by `mvn -B -pl integration-tests -am -Pbench verify" +
      (if (size != "small") s" -Dbench.size=$size" else "") +
      (if (reps != 3) s" -Dbench.reps=$reps" else "") +
      (if (configNames.toSet != AllConfigs.map(_.name).toSet) {
         s" -Dbench.configs=${configNames.mkString(",")}"
       } else "") + "` (class " +
      "`io.github.kaeshuffle.bench.Harness`): local[2], Kryo, 4 input slices, every " +
      s"configuration alternating within each repetition, one warm-up round then $reps timed " +
      "repetitions; medians with (min-max). Every run's result is checked equal to the first " +
      "configuration's. Every run: [" + s"Harness-$size.csv](Harness-$size.csv).\n\n"
    sb ++= MachineInfo.describe()
    sb ++= s"- Spark: ${org.apache.spark.SPARK_VERSION}, Scala ${scala.util.Properties.versionNumberString}\n\n"
    sb ++= targets(runs, size)
    notes.foreach(n => sb ++= PageNotes.block(n))
    sb ++= "Columns: *time* job wall time; *written* shuffle bytes on disk; *ratio* raw / " +
      "written; *write() MiB* what the JVM passed to write system calls during the job (shuffle " +
      "files, spills, anything else; `wchar` of /proc/self/io), *to disk MiB* what it sent to the " +
      "storage layer (`write_bytes`); *calls/MiB* and *bytes/call*: codec calls per MiB of raw data (KAE: one per " +
      "block; the deflate stream baseline: one per write the serializer makes into the codec " +
      "stream; not counted for Spark's lz4, zstd and snappy, whose raw size is also not " +
      "counted); *vs family*: KAE time / Spark's time with the same codec family (lz4, zstd, " +
      "deflate); *vs lz4*: time / Spark's default (lz4).\n\n"
    charts.foreach(c => sb ++= s"![$c]($c)\n\n")
    for (w <- workloads) {
      sb ++= s"## $w\n\n| config | time s | written MiB | ratio | calls/MiB | bytes/call | " +
        "codec ms | GC ms | write() MiB | to disk MiB | vs family | vs lz4 |\n" +
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
      for (c <- configs) {
        val rs = runs.filter(r => r.workload == w && r.config == c.name)
        if (rs.nonEmpty) {
          val t = rs.map(_.wall)
          val written = median(rs.map(_.written.toDouble)).toLong
          val raw = median(rs.map(_.raw.toDouble)).toLong
          val calls = median(rs.map(_.calls.toDouble)).toLong
          def num(v: Double, f: String) = if (v.isNaN || v.isInfinite) "-"
          else f.formatLocal(
            Locale.ROOT,
            v)
          sb ++= s"| ${c.name} | ${num(median(t), "%.2f")} (${num(t.min, "%.2f")}-" +
            s"${num(t.max, "%.2f")}) | ${mib(written)} | " +
            s"${if (raw > 0) num(raw.toDouble / written, "%.2f") else "-"} | " +
            s"${if (calls > 0) num(calls / (raw / 1048576.0), "%.1f") else "-"} | " +
            s"${if (calls > 0) num(raw.toDouble / calls, "%.0f") else "-"} | " +
            s"${num(median(rs.map(_.codecMs)), "%.0f")} | ${median(rs.map(_.gcMs.toDouble)).toLong} | " +
            s"${ioMib(rs.map(_.io.wchar))} | ${ioMib(rs.map(_.io.writeBytes))} | " +
            s"${if (c.kae) num(median(t) / medianWall(runs, w, c.baseline), "%.2f") else "-"} | " +
            s"${num(median(t) / medianWall(runs, w, "spark-lz4"), "%.2f")} |\n"
        }
      }
      sb ++= "\n"
    }
    sb.toString
  }

  /** The benchmark's targets, with what this run measured; reported, never asserted. */
  private def targets(runs: Seq[Run], size: String): String = {
    def ratio(w: String, c: String, base: String): Double =
      medianWall(runs, w, c) / medianWall(runs, w, base)
    def fmt(v: Double) = if (v.isNaN) "not run" else "%.2fx".formatLocal(Locale.ROOT, v)
    def measured(v: Double, f: String, what: String) =
      if (v.isNaN) "not run" else f.formatLocal(Locale.ROOT, v) + what
    // The targets were set for the default of the day (libdeflate); our default since is auto.
    val ours = if (runs.exists(_.config == "kae-auto")) "kae-auto" else "kae-libdeflate"
    val kaeRuns = runs.filter(r => r.config == ours && r.calls > 0)
    val callsPerMib = median(kaeRuns.map(r => r.calls / (r.raw / 1048576.0)))
    val incompressible = runs.filter(r => r.workload == "incompressible" && r.config == ours)
    val inflation = median(incompressible.map(r => r.written.toDouble / r.raw))
    val rows = Seq(
      (
        "codec calls per MiB of raw data",
        "<= 4",
        measured(callsPerMib, "%.1f", s" (median over workloads, $ours)")),
      (
        "lda-edges vs the deflate stream baseline",
        "<= 0.5x",
        fmt(ratio("lda-edges", ours, "spark-deflate-stream"))),
      (
        "lda-edges vs Spark with the same block codec (lz4)",
        "<= 0.85x",
        fmt(ratio("lda-edges", "kae-lz4", "spark-lz4"))),
      (
        "sort vs the deflate stream baseline",
        "<= 0.9x",
        fmt(ratio("sort", ours, "spark-deflate-stream"))),
      (
        "sql-join vs the deflate stream baseline",
        "<= 0.95x",
        fmt(ratio("sql-join", ours, "spark-deflate-stream"))),
      (
        "wordcount vs Spark's lz4",
        "no slower (<= 1.00x)",
        fmt(ratio("wordcount", ours, "spark-lz4"))),
      ("kmeans vs Spark's lz4", "no slower (<= 1.00x)", fmt(ratio("kmeans", ours, "spark-lz4"))),
      (
        "incompressible: bytes written / raw",
        "<= 1.001x",
        measured(
          inflation,
          "%.4fx",
          " (shuffle bytes, incl. frame headers and indexes, over serialized bytes)"))
    )
    val sb = new StringBuilder
    sb ++= s"## Targets (issue 9; set for `medium`, measured here at `$size`, ours with " +
      s"`$ours`)\n\n"
    sb ++= "| target | wanted | measured |\n|---|---|---|\n"
    rows.foreach { case (t, want, got) => sb ++= s"| $t | $want | $got |\n" }
    sb ++= "\n"
    sb.toString
  }

  private def drawCharts(
      dir: Path,
      prefix: String,
      runs: Seq[Run],
      workloads: Seq[String],
      configs: Seq[Config]): Seq[String] = {
    def chart(title: String, y: String): CategoryChart = {
      val c = new CategoryChartBuilder().width(1100).height(520).title(title)
        .xAxisTitle("workload").yAxisTitle(y).build()
      c.getStyler.setXAxisLabelRotation(20)
      c
    }
    val kaeConfigs = configs.filter(_.kae)
    val times = chart("Job time, KAE / Spark with the same codec family", "ratio (lower is better)")
    for (c <- kaeConfigs) {
      val ys = workloads.map(w => medianWall(runs, w, c.name) / medianWall(runs, w, c.baseline))
      times.addSeries(c.name, workloads.asJava, ys.map(Double.box).asJava)
    }
    // XChart's bar charts take no logarithmic axis: the bars are log10 of the value.
    val calls =
      chart("Raw bytes per codec call (log10: 1 = 10 B, 5 = 100 KB)", "log10(bytes per call)")
    for (c <- configs.filter(c => c.kae || c.name == "spark-deflate-stream")) {
      val ys = workloads.map { w =>
        val rs = runs.filter(r => r.workload == w && r.config == c.name && r.calls > 0)
        val v = median(rs.map(r => r.raw.toDouble / r.calls))
        if (v.isNaN) 0.0 else math.log10(math.max(1.0, v))
      }
      calls.addSeries(c.name, workloads.asJava, ys.map(Double.box).asJava)
    }
    val ratios = chart("Shuffle bytes written, MiB", "MiB")
    for (c <- configs) {
      val ys = workloads.map(w =>
        median(runs.filter(r => r.workload == w && r.config == c.name)
          .map(_.written / 1048576.0)))
      ratios.addSeries(c.name, workloads.asJava, ys.map(Double.box).asJava)
    }
    // A chart without series (a run of Spark's configurations only) is left out.
    ChartGrid.save(dir, s"$prefix.png", 1, Seq(times, calls, ratios)).toSeq
  }
}
