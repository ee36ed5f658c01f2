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
package org.apache.spark.shuffle.kae

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.doctor.{EngineModel, KaeStageSummaryListener, ShuffleDoctor}
import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, StageTotals}

/** The doctor's arithmetic on given totals; real stages are in integration-tests. */
class ShuffleDoctorSuite extends AnyFunSuite {
  import KaeShuffleMetrics._

  private val s = 1000000000L

  private def totals(run: Long, kae: (String, Long)*): StageTotals =
    StageTotals(3, 0, "map", 200, run, readBytes = 0L, writeBytes = 100L << 20, kae.toMap)

  test("a map stage: shares of the run time, the bound, what a faster codec or disk saves") {
    val t = totals(
      10 * s,
      WriteRawBytes -> (400L << 20),
      WriteCodecCalls -> 1600,
      WriteSerializeNanos -> 61 * s / 10,
      WriteCodecNanos -> 22 * s / 10,
      WriteDiskNanos -> 8 * s / 10)
    val d = ShuffleDoctor.diagnose(t, None).get
    assert(d.kind == "map")
    assert(d.bound.name == ShuffleDoctor.Serialization)
    assert(math.abs(d.codecTwiceAsFast - 0.11) < 1e-9)
    assert(math.abs(d.diskTwiceAsFast - 0.04) < 1e-9)
    assert(d.other == 9 * s / 10)
    assert(
      d.line.contains("stage 3.0 (map, 200 tasks, 10.00 s task time): serialization 61%, " +
        "compress 22%, compute and other 9%, disk write 8% -> bound by serialization; a codec " +
        "twice as fast saves at most 11%, a disk twice as fast at most 4%."),
      d.line
    )
    // 400 MiB raw in 2.2 s of codec; produced in 6.1 s of serialization + 0.9 s of compute.
    assert(d.line.contains("compress 190.7 MB/s"), d.line)
    assert(d.line.contains("records produced (compute and serialization) at 59.9 MB/s"), d.line)
  }

  test("a hardware codec's time against the engine's floor") {
    val t = totals(
      10 * s,
      WriteRawBytes -> 700000000L,
      WriteCodecCalls -> 2800,
      WriteSerializeNanos -> 5 * s,
      WriteCodecNanos -> 3 * s / 10,
      WriteHardwareRequests -> 2800,
      WriteSessions -> 4)
    // 2800 x 50 us + 700 MB at 7 GB/s + 4 x 100 us = 0.14 + 0.1 + 0.0004 s
    val engine = EngineModel(50000L, 100000L, 7000L, 8000L)
    assert(engine.floorNanos(true, 2800, 700000000L, 4) == 240400000L)
    val d = ShuffleDoctor.diagnose(t, None, engine).get
    assert(
      d.line.contains("engine model (50 us per request, 7.0 GB/s compress, 8.0 GB/s " +
        "decompress, 100 us per session): compress 2800 requests, floor 0.24 s, codec time " +
        "0.30 s (1.25x the floor)."),
      d.line
    )
    assert(
      !ShuffleDoctor.diagnose(totals(s, WriteSerializeNanos -> s), None).get.line
        .contains("engine model"),
      "software codecs: no engine text")
  }

  test("a reduce stage names the reduce links; decompressing ahead is reported apart") {
    val t = totals(
      4 * s,
      ReadRawBytes -> (100L << 20),
      ReadFetchNanos -> s / 10,
      ReadDecodeNanos -> 2 * s,
      ReadDeserializeNanos -> s,
      ReadCodecNanos -> 3 * s)
      .copy(readBytes = 30L << 20, writeBytes = 0L)
    val d = ShuffleDoctor.diagnose(t, None).get
    assert(d.kind == "reduce")
    assert(d.links.map(_.name) == Seq(
      ShuffleDoctor.Fetch,
      ShuffleDoctor.Decompress,
      ShuffleDoctor.Deserialization))
    assert(d.bound.name == ShuffleDoctor.Decompress)
    assert(math.abs(d.codecTwiceAsFast - 0.25) < 1e-9)
    assert(d.line.contains("decompressing ahead took 3.00 s on other threads"), d.line)
  }

  test("links measured above a short run time: shares are of their sum, never above 100%") {
    val t = totals(
      s / 1000,
      WriteRawBytes -> 1000,
      WriteSerializeNanos -> 3 * s / 1000,
      WriteCodecNanos -> s / 1000)
    val d = ShuffleDoctor.diagnose(t, None).get
    assert(d.other == 0 && d.total == 4 * s / 1000)
    assert(math.abs(d.share(ShuffleDoctor.Serialization) - 0.75) < 1e-9)
  }

  test("no link times (doctor off, or Spark's shuffle): no diagnosis") {
    assert(ShuffleDoctor.diagnose(totals(s, WriteRawBytes -> 1000, WriteCodecNanos -> 5), None)
      .isEmpty)
  }

  test("the stage summary calls a stand-in library's hardware requests modelled") {
    val real = KaeStageSummaryListener.hardware(4L << 20, 4, 1, 0, 0, modelled = false)
    val model = KaeStageSummaryListener.hardware(4L << 20, 4, 1, 0, 0, modelled = true)
    assert(real.startsWith("; hardware: 4 requests"), real)
    assert(model.startsWith("; hardware (modelled: kaezip.skipHardwareCheck=true"), model)
    assert(KaeStageSummaryListener.hardware(1L << 20, 0, 0, 0, 0, modelled = true).isEmpty)
  }
}
