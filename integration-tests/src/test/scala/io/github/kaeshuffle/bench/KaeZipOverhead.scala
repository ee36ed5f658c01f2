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

import java.nio.file.{Files, Paths}

import scala.collection.mutable

import java.nio.ByteBuffer

import io.github.kaeshuffle.bench.KaeZipModelBench.{Config, KaeKaezip, Main, Run}
import io.github.kaeshuffle.codec.{Codecs, KaeZipModel => Model}
import io.github.kaeshuffle.format.{BlockDecoder, BlockEncoder}
import io.github.kaeshuffle.workloads.Workloads

/**
 * Where KAE's codec time outside the model's calls ("ours" on the results page) goes: the same
 * `kae-kaezip` job under variants that each take one suspect away, alternating within each
 * repetition, on the KAEzip cost model at 50 us and 2 contexts (simulated KAEzip cost model, not
 * hardware). The suspects: the incompressibility probe (work counted as codec time; off for KAEzip
 * by default since this measurement, so `probe-on` turns it on), and the CPU
 * the 2-core machine shares between 2 task threads, their decompress-ahead threads and the JVM
 * (preemption inside a timed call). A repetition's trend shows warm-up. Then the same blocks'
 * codec calls without Spark, on one thread with the model at 0 us: what our layer costs per call
 * when nothing else runs.
 *
 * Arguments: the page whose notes hold its section (the KAEzip model's README), size, repetitions,
 * workloads (comma list).
 * Run: `mvn -B -pl integration-tests -am -Pbench-kaezip-overhead verify`.
 */
object KaeZipOverhead {

  val Variants: Seq[Config] = Seq(
    KaeKaezip,
    KaeKaezip.copy(
      name = "probe-on",
      settings = KaeKaezip.settings + ("spark.shuffle.kae.writer.probeIncompressible" -> "true")),
    KaeKaezip.copy(
      name = "one-thread",
      settings = KaeKaezip.settings + ("spark.shuffle.kae.reader.prefetch" -> "false"),
      master = "local[1]")
  )

  /** Codec calls that went into the model, both directions. */
  def modelCalls(r: Run): Long = r.both("calls")

  /** KAE's codec time outside the model's calls, in microseconds per call into the model. */
  def oursPerCallUs(r: Run): Double = r.outsideModelNanos / 1e3 / math.max(1L, modelCalls(r))

  /**
   * Our layer's cost per call with nothing else running: `blocks` blocks of 256 KiB of text-like
   * bytes through a BlockEncoder and a BlockDecoder over the model at 0 us, one thread, warm.
   * Returns (compress, decompress) microseconds per call outside the model's calls.
   */
  def direct(blocks: Int, probe: Boolean): (Double, Double) = {
    Model.configure(0, 0, 2, 0)
    val raw = ByteBuffer.allocateDirect(256 * 1024)
    val rnd = new java.util.Random(7)
    while (raw.hasRemaining)
      raw.put(s"${rnd.nextInt(100000)} ${rnd.nextInt(1000)}\n".getBytes.take(raw.remaining()))
    raw.flip()
    val codec = Codecs.exact(Model.options())
    val encoder = new BlockEncoder(codec, probe)
    val decoder = new BlockDecoder(codec)
    val frame = ByteBuffer.allocateDirect(encoder.maxFrameLength(raw.remaining()))
    val back = ByteBuffer.allocateDirect(raw.capacity())
    def wall(dir: Int) = Model.counter(Model.CALL_WALL_NANOS, dir)
    def roundTrips(): Unit = for (_ <- 0 until blocks) {
      frame.clear(); encoder.encode(raw.duplicate(), frame); back.clear()
      decoder.decode(frame.flip(), 0, raw.remaining(), back)
    }
    try {
      roundTrips() // warm-up, not counted
      val (e0, d0) = (encoder.stats.codecNanos, decoder.stats.codecNanos)
      val (c0, u0) = (wall(Model.COMPRESS), wall(Model.DECOMPRESS))
      roundTrips()
      val ours = (encoder.stats.codecNanos - e0 - (wall(Model.COMPRESS) - c0)) / 1e3 / blocks
      val oursDec = (decoder.stats.codecNanos - d0 - (wall(Model.DECOMPRESS) - u0)) / 1e3 / blocks
      (ours, oursDec)
    } finally {
      encoder.close()
      decoder.close()
      Model.defaults()
    }
  }

  def main(args: Array[String]): Unit = {
    val out = Paths.get(args.lift(0).getOrElse("docs/benchmarks/kaezip-model/README.md"))
    val size = Workloads.Size.of(args.lift(1).getOrElse("xsmall"))
    val reps = args.lift(2).map(_.toInt).getOrElse(8)
    val workloads = args.lift(3).getOrElse("lda-edges,sort").split(',').toSeq
    val runs = mutable.ArrayBuffer[Run]()
    for (rep <- 0 to reps; w <- workloads; c <- Variants) {
      val (r, _) = KaeZipModelBench.once(Main, c, w, size, rep)
      println(
        f"rep $rep $w%-10s ${c.name}%-11s ${r.wall}%6.2f s codec ${r.codecNanos / 1e6}%7.1f ms " +
          f"model calls ${r.both("callWallNanos") / 1e6}%7.1f ms ours ${r.outsideModelNanos / 1e6}%6.1f ms " +
          f"(${oursPerCallUs(r)}%6.1f us per call)")
      if (rep > 0) runs += r
    }
    val page = new StringBuilder(header(size, reps))
    renderMedians(page, runs.toSeq, workloads)
    renderDirect(page)
    renderRuns(page, runs.toSeq)
    val text = if (Files.exists(out)) Files.readString(out) else ""
    Files.createDirectories(out.toAbsolutePath.getParent)
    Files.writeString(out, PageNotes.withSection(text, "KaeZipOverhead", page.toString))
    println(page)
  }

  private def header(size: Workloads.Size, reps: Int): String =
    "## Our codec layer's own time per call (simulated KAEzip cost model, not hardware)\n\n" +
      "Written by KaeZipOverhead (`mvn -B -pl integration-tests -am " +
      s"-Pbench-kaezip-overhead verify`), ${size.name.toLowerCase(java.util.Locale.ROOT)}, " +
      s"$reps repetitions after a warm-up, 50 us and 2 contexts. *ours*: KAE's codec time " +
      "outside the model's calls, per call into the model (both directions); every run at the " +
      "end.\n\n" + MachineInfo.describe() + s"- Commit: ${Harness.commit}\n\n"

  private def renderMedians(page: StringBuilder, runs: Seq[Run], workloads: Seq[String]): Unit = {
    page ++= "| workload | variant | median us per call | min | max |\n|---|---|---|---|---|\n"
    for (w <- workloads; c <- Variants) {
      val perCall = runs.filter(r => r.workload == w && r.config == c.name).map(oursPerCallUs)
      page ++= f"| $w | ${c.name} | ${Harness.median(perCall)}%.1f | ${perCall.min}%.1f | " +
        f"${perCall.max}%.1f |\n"
    }
  }

  private def renderDirect(page: StringBuilder): Unit = {
    page ++= "\nWithout Spark, one thread, 2,000 warm 256 KiB text blocks, model at 0 us:\n\n" +
      "| probe | us per compress call | us per decompress call |\n|---|---|---|\n"
    for (probe <- Seq(true, false)) {
      val (c, d) = direct(2000, probe)
      page ++= f"| $probe | $c%.1f | $d%.1f |\n"
    }
  }

  private def renderRuns(page: StringBuilder, runs: Seq[Run]): Unit = {
    page ++= "\n### Every run of the time per call\n\n| workload | variant | rep | wall s | KAE codec ms | " +
      "model calls' wall ms | model calls | ours ms |\n|---|---|---:|---:|---:|---:|---:|---:|\n"
    for (r <- runs) {
      page ++= f"| ${r.workload} | ${r.config} | ${r.rep} | ${r.wall}%.3f | " +
        f"${r.codecNanos / 1e6}%.1f | ${r.both("callWallNanos") / 1e6}%.1f | ${modelCalls(r)} | " +
        f"${r.outsideModelNanos / 1e6}%.1f |\n"
    }
  }
}
