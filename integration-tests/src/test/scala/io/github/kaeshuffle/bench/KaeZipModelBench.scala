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

import io.github.kaeshuffle.codec.{KaeZipModel => Model}
import io.github.kaeshuffle.it.Sessions
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.knowm.xchart.{CategoryChartBuilder, XYChartBuilder}
import org.knowm.xchart.internal.chartpart.Chart

import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * The published KAEzip-in-Spark study reproduced side by side on the KAEzip cost model
 * (libkaezipmodel.so; simulated KAEzip cost model, not hardware): the study's design (Spark's own
 * shuffle with a codec stream that sends every serializer write to "KAEzip",
 * [[KaeZipStreamCodec]]), KAE Shuffle with `codec=kaezip` on the same model, and software
 * configurations for reference, alternating within each repetition; then a sweep over the model's
 * per-request latency and contexts per process. Everything runs in one local[2] JVM, so the
 * model's counters (read through JNI before and after each job) are the job's.
 *
 * Arguments: output dir, size, repetitions, workloads (comma list), sweep workloads, sweep
 * repetitions (after the main runs' warm-up, so none of their own).
 * Run: `mvn -B -pl integration-tests -am -Pbench-kaezip verify`.
 */
object KaeZipModelBench {

  /** The model's latency per request (us) and hardware contexts per direction. */
  case class Scenario(requestUs: Int, contexts: Int) {
    def name: String = s"${requestUs}us/${contexts}ctx"
  }

  /** A configuration of the comparison; all run on `local[2]` unless a profile run says else. */
  case class Config(
      name: String,
      kae: Boolean,
      model: Boolean,
      settings: Map[String, String],
      master: String = "local[2]")

  private val ModelLib = Model.path()

  val Study = Config(
    "study-kaezip-stream",
    kae = false,
    model = true,
    Map("spark.io.compression.codec" -> classOf[KaeZipStreamCodec].getName))
  val KaeKaezip = Config(
    "kae-kaezip",
    kae = true,
    model = true,
    Map(
      "spark.shuffle.manager" -> "org.apache.spark.shuffle.kae.KaeShuffleManager",
      "spark.shuffle.kae.codec" -> "kaezip",
      "spark.shuffle.kae.kaezip.libraryPath" -> ModelLib,
      "spark.shuffle.kae.kaezip.skipHardwareCheck" -> "true"
    )
  )
  val KaeZlib = Config(
    "kae-zlib",
    kae = true,
    model = false,
    Map(
      "spark.shuffle.manager" -> "org.apache.spark.shuffle.kae.KaeShuffleManager",
      "spark.shuffle.kae.codec" -> "zlib"))
  val SparkLz4 =
    Config("spark-lz4", kae = false, model = false, Map("spark.io.compression.codec" -> "lz4"))
  val Configs: Seq[Config] = Seq(SparkLz4, Study, KaeKaezip, KaeZlib)

  val Main = Scenario(50, 2)
  val Sweep: Seq[Scenario] =
    Seq(Scenario(0, 2), Scenario(10, 2), Scenario(200, 2), Scenario(50, 1), Scenario(50, 4))

  /** The model's counters, per direction, in kaezip_model.c's order. */
  private val Counters = Seq(
    "sessions",
    "requests",
    "calls",
    "waits",
    "bytesIn",
    "bytesOut",
    "waitNanos",
    "deviceNanos",
    "softwareCpuNanos",
    "overshootNanos",
    "softwareWallNanos",
    "callWallNanos"
  )

  case class Run(
      scenario: Scenario,
      config: String,
      workload: String,
      rep: Int,
      wall: Double,
      written: Long,
      raw: Long,
      codecNanos: Long,
      model: Map[String, Long],
      kae: Map[String, Long]) {
    def m(name: String): Long = model.getOrElse(name, 0L)
    def both(name: String): Long = m(s"compress.$name") + m(s"decompress.$name")

    /** Raw bytes: KAE's serialized bytes, or what the study's stream gave the model. */
    def rawBytes: Long = if (raw > 0) raw else m("compress.bytesIn")

    def requestsPerMib: Double = m("compress.requests") / (rawBytes / 1048576.0)

    def bytesPerRequest: Double = rawBytes.toDouble / math.max(1L, m("compress.requests"))

    /** The device floor: every request's latency and bytes, and every session's set-up. */
    def floorNanos: Long = both("deviceNanos") + both("sessions") * ModelSetupUs * 1000L

    /**
     * The model's artifacts as a caller's clock sees them: the wall time of its calls beyond what
     * the device charged (latency, throughput) and the waits for a hardware context. That is its
     * own zlib work, the descheduling meanwhile on this 2-core machine and its sleeps' late
     * wake-ups.
     */
    def artifactNanos: Long =
      math.max(0L, both("callWallNanos") - both("deviceNanos") - both("waitNanos"))

    /** KAE's codec time outside the model's calls: our own layer's part of the codec link. */
    def outsideModelNanos: Long = codecNanos - both("callWallNanos")

    /** KAE's codec time with the model's artifacts taken out. */
    def projectedCodecNanos: Long = codecNanos - artifactNanos

    /** Wall time with the model's artifacts taken out, spread over the 2 task threads. */
    def projectedWall: Double = wall - artifactNanos / 1e9 / 2
  }

  private val ModelSetupUs = 100L

  def main(args: Array[String]): Unit = {
    val out = Paths.get(args.lift(0).getOrElse("docs/benchmarks/kaezip-model"))
    val size = Workloads.Size.of(args.lift(1).getOrElse("xsmall"))
    val reps = args.lift(2).map(_.toInt).getOrElse(3)
    val workloads = args.lift(3).getOrElse("lda-edges,sort,sql-join,wordcount").split(',').toSeq
    val sweepWorkloads = args.lift(4).getOrElse("lda-edges,sort").split(',').toSeq
    val sweepReps = args.lift(5).map(_.toInt).getOrElse(1)
    Files.createDirectories(out)
    val runs = mutable.ArrayBuffer[Run]()
    val reference = mutable.Map[String, WorkloadJobs.Digest]()
    def runOne(s: Scenario, c: Config, w: String, rep: Int): Unit = {
      val (r, digest) = once(s, c, w, size, rep)
      reference.get(w) match {
        case Some(d) if !d.sameAs(digest) =>
          throw new IllegalStateException(s"RESULT MISMATCH: $w under ${c.name}: $digest vs $d")
        case None => reference(w) = digest
        case _ =>
      }
      if (rep > 0) runs += r
      println(f"${s.name}%-11s rep $rep $w%-10s ${c.name}%-20s ${r.wall}%7.2f s " +
        f"${r.written / 1048576.0}%7.1f MiB requests ${r.m("compress.requests")}%9d/" +
        f"${r.m("decompress.requests")}%-9d sessions ${r.m("compress.sessions")}/" +
        f"${r.m("decompress.sessions")}")
    }
    for (rep <- 0 to reps; w <- workloads; c <- Configs) runOne(Main, c, w, rep)
    for (rep <- 1 to sweepReps; s <- Sweep; w <- sweepWorkloads; c <- Seq(Study, KaeKaezip)) {
      runOne(s, c, w, rep)
    }
    writeCsv(out.resolve("runs.csv"), runs.toSeq, size)
    val charts = Charts.draw(out, runs.toSeq, workloads, sweepWorkloads)
    Files.writeString(
      out.resolve("README.md"),
      Page.render(runs.toSeq, workloads, size, reps, sweepReps, charts, notes(out)))
    println(Files.readString(out.resolve("README.md")))
  }

  private def notes(dir: Path): Option[String] = PageNotes.of(dir.resolve("README.md"))

  private[bench] def once(
      s: Scenario,
      c: Config,
      w: String,
      size: Workloads.Size,
      rep: Int): (Run, WorkloadJobs.Digest) = {
    Model.configure(s.requestUs, ModelSetupUs, s.contexts, 0)
    val conf = Sessions.conf(None, Sessions.Kryo, c.master)
      .set("spark.unsafe.exceptionOnMemoryLeak", "false")
      .setAll(c.settings)
    Sessions.withSession(conf) { spark =>
      val totals = new ShuffleTotals
      spark.sparkContext.addSparkListener(totals)
      val before = counters()
      val t0 = System.nanoTime()
      val digest = WorkloadJobs.run(w, spark, size, 4)
      val wall = (System.nanoTime() - t0) / 1e9
      KaeSparkAccess.drainListeners(spark.sparkContext)
      val after = counters()
      val model = after.map { case (k, v) => k -> (v - before(k)) }
      val kaeNames = Seq(
        "write.rawBytes",
        "write.codecNanos",
        "read.codecNanos",
        "write.hardwareRequests",
        "read.hardwareRequests",
        "write.sessionsOpened",
        "read.sessionsOpened",
        "write.overflowBlocks",
        "read.overflowBlocks",
        "write.smallSoftwareBlocks",
        "write.codecCalls"
      )
      val kae = kaeNames.map(n => n -> totals.kaeTotal(n)).toMap
      (
        Run(
          s,
          c.name,
          w,
          rep,
          wall,
          totals.bytesWritten.get,
          kae("write.rawBytes"),
          kae("write.codecNanos") + kae("read.codecNanos"),
          model,
          kae),
        digest)
    }
  }

  /** The model's counters now, "compress.<name>" and "decompress.<name>", in this JVM. */
  private[bench] def counters(): Map[String, Long] = (for {
    (dir, d) <- Seq("compress" -> Model.COMPRESS, "decompress" -> Model.DECOMPRESS)
    (name, i) <- Counters.zipWithIndex
  } yield s"$dir.$name" -> Model.counter(i, d)).toMap

  private def writeCsv(path: Path, runs: Seq[Run], size: Workloads.Size): Unit = {
    val modelCols = for (d <- Seq("compress", "decompress"); n <- Counters) yield s"$d.$n"
    val kaeCols = runs.flatMap(_.kae.keys).distinct.sorted
    val sb = new StringBuilder("size,scenario,workload,config,rep,wall_s,written_bytes," +
      "raw_bytes,kae_codec_nanos," + (modelCols.map("model." + _) ++ kaeCols.map("kae." + _))
        .mkString(",") + "\n")
    for (r <- runs) {
      sb ++= (Seq(
        size.name.toLowerCase(Locale.ROOT),
        r.scenario.name,
        r.workload,
        r.config,
        r.rep.toString,
        r.wall.toString,
        r.written.toString,
        r.raw.toString,
        r.codecNanos.toString
      ) ++ modelCols.map(r.m(_).toString) ++
        kaeCols.map(k => r.kae.getOrElse(k, 0L).toString)).mkString(",") + "\n"
    }
    Files.writeString(path, sb.toString)
  }

  def median(v: Seq[Double]): Double = Harness.median(v)

  def med(runs: Seq[Run], s: Scenario, c: String, w: String)(f: Run => Double): Double =
    median(runs.filter(r => r.scenario == s && r.config == c && r.workload == w).map(f))

  /** The charts of the results page. */
  private object Charts {
    def draw(dir: Path, runs: Seq[Run], workloads: Seq[String], sweep: Seq[String]): Seq[String] = {
      def bars(title: String, y: String, configs: Seq[Config])(
          f: (Config, String) => Double): Chart[_, _] = {
        val c = new CategoryChartBuilder().width(1000).height(480).title(title)
          .xAxisTitle("workload").yAxisTitle(y).build()
        for (cfg <- configs) {
          val ys = workloads.map(w => f(cfg, w)).map(v => if (v.isNaN) 0.0 else v)
          c.addSeries(cfg.name, workloads.asJava, ys.map(Double.box).asJava)
        }
        c
      }
      val label = " (simulated KAEzip cost model, not hardware; 50 us, 2 contexts)"
      val time = bars("Job time, s" + label, "seconds", Configs) { (c, w) =>
        med(runs, Main, c.name, w)(_.wall)
      }
      val written = bars("Shuffle bytes written, MiB" + label, "MiB", Configs) { (c, w) =>
        med(runs, Main, c.name, w)(_.written / 1048576.0)
      }
      def log10(v: Double) = math.log10(math.max(1.0, v))
      val requests = bars(
        "Compress requests per MiB, log10" + label,
        "log10(requests per MiB)",
        Seq(Study, KaeKaezip)) { (c, w) => log10(med(runs, Main, c.name, w)(_.requestsPerMib)) }
      val perRequest = bars(
        "Raw bytes per compress request, log10" + label,
        "log10(bytes per request)",
        Seq(Study, KaeKaezip)) { (c, w) => log10(med(runs, Main, c.name, w)(_.bytesPerRequest)) }
      val sweeps = for (w <- sweep) yield {
        val chart = new XYChartBuilder().width(1000).height(480)
          .title(s"$w: job time vs modelled latency per request, 2 contexts (simulated KAEzip " +
            "cost model, not hardware)").xAxisTitle("latency per request, us")
          .yAxisTitle("seconds").build()
        val latencies = (Sweep :+ Main).filter(_.contexts == 2).map(_.requestUs).sorted
        for (c <- Seq(Study, KaeKaezip)) {
          val ys = latencies.map(l => med(runs, Scenario(l, 2), c.name, w)(_.wall))
          chart.addSeries(
            c.name,
            latencies.map(l => Double.box(l.toDouble)).asJava,
            ys.map(Double.box).asJava)
        }
        chart
      }
      ChartGrid.save(dir, "model.png", 2, Seq(time, written, requests, perRequest) ++ sweeps).toSeq
    }
  }
}
