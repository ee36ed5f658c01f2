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

import io.github.kaeshuffle.bench.KaeZipModelBench.{Config, Run, Scenario}
import io.github.kaeshuffle.codec.{KaeZipModel => Model}
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import org.knowm.xchart.{CategoryChartBuilder, XYChartBuilder}

/**
 * What the engine's per-request bytes do to the study's design and to ours, on the KAEzip cost
 * model (simulated, not hardware), and which block size suits the engine:
 *  1. bytes: the study's codec stream (one request per serializer write) and KAE Shuffle's one
 *     request per block, each with the hardware's bytes (every request its own block, no history)
 *     and with zlib's own bytes, next to KAE's software zlib; bytes do not depend on time, so
 *     these runs charge no latency;
 *  2. block size: `kaezip` with blocks of 64 KiB to 1 MiB (the engine's request limit) at the
 *     model's default costs, alternating within each repetition, medians of the repetitions.
 * Every run's result is checked against the first run of its workload.
 *
 * Arguments: output dir, size, repetitions, workloads (comma list).
 * Run: `mvn -B -pl integration-tests -am -Pbench-kaezip-inflation verify`.
 */
object KaeZipInflationBench {

  /** The study's published figures: 250 MB of shuffle data written as 489 MB, 7.2 B per call. */
  val PublishedRatio: Double = 489.0 / 250.0
  val PublishedBytesPerCall = 7.2

  /** A configuration of the bytes comparison: a benchmark config and the model's bytes. */
  case class Bytes(label: String, config: Config, zlibBytes: Boolean)

  val ByteConfigs: Seq[Bytes] = Seq(
    Bytes("study stream, hardware bytes", KaeZipModelBench.Study, zlibBytes = false),
    Bytes("study stream, zlib's bytes", KaeZipModelBench.Study, zlibBytes = true),
    Bytes("kae-kaezip, hardware bytes", KaeZipModelBench.KaeKaezip, zlibBytes = false),
    Bytes("kae-kaezip, zlib's bytes", KaeZipModelBench.KaeKaezip, zlibBytes = true),
    Bytes("kae-zlib (software)", KaeZipModelBench.KaeZlib, zlibBytes = false)
  )

  val BlockSizes: Seq[String] = Seq("64k", "128k", "256k", "512k", "1m")

  def blockConfig(size: String): Config = KaeZipModelBench.KaeKaezip.copy(
    name = s"kae-kaezip-$size",
    settings = KaeZipModelBench.KaeKaezip.settings + ("spark.shuffle.kae.blockSize" -> size))

  /** Charged nothing per request: bytes only. */
  private val NoLatency = Scenario(0, 2)

  def main(args: Array[String]): Unit = {
    val out = Paths.get(args.lift(0).getOrElse("docs/benchmarks/kaezip-model"))
    val size = Workloads.Size.of(args.lift(1).getOrElse("xsmall"))
    val reps = args.lift(2).map(_.toInt).getOrElse(3)
    val workloads = args.lift(3).getOrElse("lda-edges,sort").split(',').toSeq
    Files.createDirectories(out)
    val reference = mutable.Map[String, WorkloadJobs.Digest]()
    def run(s: Scenario, c: Config, w: String, rep: Int, zlibBytes: Boolean): Run = {
      Model.zlibBytes(zlibBytes)
      val (r, digest) =
        try KaeZipModelBench.once(s, c, w, size, rep)
        finally Model.zlibBytes(false)
      if (!reference.getOrElseUpdate(w, digest).sameAs(digest)) {
        throw new IllegalStateException(s"RESULT MISMATCH: $w under ${c.name}")
      }
      println(f"rep $rep $w%-10s ${c.name}%-22s zlibBytes=$zlibBytes%-5s ${r.wall}%7.2f s " +
        f"${r.written / 1048576.0}%8.2f MiB requests ${r.m("compress.requests")}%9d")
      r
    }
    val bytes =
      for (w <- workloads; b <- ByteConfigs) yield (w, b) ->
        run(NoLatency, b.config, w, 1, b.zlibBytes)
    val blocks = mutable.ArrayBuffer[Run]()
    for (rep <- 0 to reps; w <- workloads; bs <- BlockSizes) {
      val r = run(KaeZipModelBench.Main, blockConfig(bs), w, rep, zlibBytes = false)
      if (rep > 0) blocks += r
    }
    val page = InflationPage(bytes.toMap, blocks.toSeq, workloads, size, reps)
    page.drawCharts(out)
    Files.writeString(out.resolve("inflation.md"), page.render(notes(out)))
    println(Files.readString(out.resolve("inflation.md")))
  }

  private def notes(dir: Path): Option[String] = PageNotes.of(dir.resolve("inflation.md"))
}

/** The inflation page: its tables and charts. */
private case class InflationPage(
    bytes: Map[(String, KaeZipInflationBench.Bytes), Run],
    blocks: Seq[Run],
    workloads: Seq[String],
    size: Workloads.Size,
    reps: Int) {
  import KaeZipInflationBench._

  private def mib(b: Long): String = f"${b / 1048576.0}%.2f"

  /** Raw bytes the configuration compressed: the study's stream input, or KAE's records. */
  private def raw(r: Run): Long = r.rawBytes

  private def ratio(r: Run): Double = r.written.toDouble / raw(r)

  private def blockRuns(w: String, bs: String): Seq[Run] =
    blocks.filter(r => r.workload == w && r.config == blockConfig(bs).name)

  private def med(w: String, bs: String)(f: Run => Double): Double =
    Harness.median(blockRuns(w, bs).map(f))

  def render(notes: Option[String]): String = {
    val sb = new StringBuilder
    sb ++= "# The engine's per-request bytes, and the block size for `kaezip`\n\n"
    sb ++= "**Every figure on this page is from the simulated KAEzip cost model, not hardware** " +
      "(`native-codec/src/test/native/kaezip_model.c`; [docs/native-codec.md](../../native-codec.md" +
      "#the-kaezip-cost-model-tests-and-benchmarks-only) says which public fact each behaviour comes from). Produced by " +
      "`mvn -B -pl integration-tests -am -Pbench-kaezip-inflation verify` (class " +
      s"`io.github.kaeshuffle.bench.KaeZipInflationBench`): size `${size.name.toLowerCase}`, " +
      "`local[2]`, Kryo, 4 input slices.\n\n"
    sb ++= MachineInfo.describe()
    sb ++= s"- Commit: ${Harness.commit}\n\n"
    notes.foreach(n => sb ++= PageNotes.block(n))
    renderBytes(sb)
    renderBlocks(sb)
    sb ++= "![inflation.png](inflation.png)\n"
    sb.toString
  }

  private def renderBytes(sb: StringBuilder): Unit = {
    sb ++= "## Bytes written: the study's design against one request per block\n\n"
    sb ++= "One run each (bytes do not depend on time; no latency charged). *raw* is what the " +
      "configuration compressed: the serializer's writes into the study's stream, KAE's " +
      "serialized records; *written* the shuffle files' bytes; *x raw* written / raw; " +
      "*B/req* raw bytes per compress request. The published study: " +
      f"$PublishedBytesPerCall%.1f B per call on LDA, 250 MB written as 489 MB " +
      f"(**$PublishedRatio%.2fx**).\n\n"
    sb ++= "| workload | configuration | raw MiB | written MiB | x raw | requests | B/req |\n"
    sb ++= "|---|---|---:|---:|---:|---:|---:|\n"
    for (w <- workloads; b <- ByteConfigs) {
      val r = bytes((w, b))
      val req = r.m("compress.requests")
      val perReq = if (req > 0) f"${raw(r).toDouble / req}%.1f" else "-"
      sb ++= f"| $w | ${b.label} | ${mib(raw(r))} | ${mib(r.written)} | ${ratio(r)}%.3f | " +
        f"${if (b.config.model) req.toString else "-"} | $perReq |\n"
    }
    sb ++= "\n| workload | study: hardware / zlib's bytes | published | KAE kaezip: hardware / " +
      "zlib's bytes | KAE kaezip / KAE zlib |\n|---|---:|---:|---:|---:|\n"
    for (w <- workloads) {
      def written(i: Int) = bytes((w, ByteConfigs(i))).written.toDouble
      sb ++= f"| $w | ${written(0) / written(1)}%.3fx | $PublishedRatio%.2fx | " +
        f"${written(2) / written(3)}%.3fx | ${written(2) / written(4)}%.3fx |\n"
    }
    sb ++= "\n"
  }

  private def renderBlocks(sb: StringBuilder): Unit = {
    sb ++= s"## Block size on the engine (50 us per request, 2 contexts; medians of $reps)\n\n"
    sb ++= "Configurations alternate within each repetition after one warm-up round. *time* job " +
      "wall time (min-max); *model CPU out* without the model's own zlib work, spread over the " +
      "2 task threads (see [README.md](README.md)); *floor* the device's time for every request " +
      "and session, both directions; *codec* KAE's codec time, both directions, with the model's " +
      "own work out (what the engine and our layer cost); *vs 256k* the model-CPU-out job time " +
      "against 256 KiB.\n\n"
    sb ++= "| workload | block | time s | model CPU out s | vs 256k | written MiB | req/MiB | " +
      "floor ms | codec ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n"
    for (w <- workloads; bs <- BlockSizes) {
      val runs = blockRuns(w, bs)
      val walls = runs.map(_.wall)
      val base = med(w, "256k")(_.projectedWall)
      sb ++= f"| $w | $bs | ${med(w, bs)(_.wall)}%.2f (${walls.min}%.2f-${walls.max}%.2f) | " +
        f"${med(w, bs)(_.projectedWall)}%.2f | ${med(w, bs)(_.projectedWall) / base}%.2fx | " +
        f"${med(w, bs)(_.written / 1048576.0)}%.2f | ${med(w, bs)(_.requestsPerMib)}%.2f | " +
        f"${med(w, bs)(_.floorNanos / 1e6)}%.1f | ${med(w, bs)(_.projectedCodecNanos / 1e6)}%.1f |\n"
    }
    sb ++= "\n"
  }

  def drawCharts(dir: Path): Unit = {
    val label = " (simulated KAEzip cost model, not hardware)"
    val bars = new CategoryChartBuilder().width(1000).height(480)
      .title(f"Shuffle bytes written / raw bytes$label; published study: $PublishedRatio%.2fx")
      .xAxisTitle("workload").yAxisTitle("written / raw").build()
    for (b <- ByteConfigs) {
      val ys = workloads.map(w => Double.box(ratio(bytes((w, b)))))
      bars.addSeries(b.label, workloads.asJava, ys.asJava)
    }
    bars.addSeries(
      "published study (LDA)",
      workloads.asJava,
      workloads.map(w => Double.box(if (w == "lda-edges") PublishedRatio else 0.0)).asJava)
    val lines = new XYChartBuilder().width(1000).height(480)
      .title(s"kaezip: job time (model CPU out) by block size, 50 us, 2 contexts$label")
      .xAxisTitle("block size, KiB").yAxisTitle("seconds").build()
    val kib = Seq(64.0, 128.0, 256.0, 512.0, 1024.0)
    for (w <- workloads) {
      val ys = BlockSizes.map(bs => Double.box(med(w, bs)(_.projectedWall)))
      lines.addSeries(w, kib.map(Double.box).asJava, ys.asJava)
    }
    ChartGrid.save(dir, "inflation.png", 1, Seq(bars, lines))
  }
}
