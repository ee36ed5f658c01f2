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
package doctor

import java.util.Locale

import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, StageTotals}

/**
 * Which link bounds a stage and by how much.
 *
 * @param other the tasks' time outside the measured links: upstream computation (reading input,
 *     user functions), aggregation and sorting, the task's overhead
 * @param decompressorNanos time in the codec on decompress-ahead threads (off the tasks' path)
 */
private[spark] case class Diagnosis(
    totals: StageTotals,
    links: Seq[Link],
    other: Long,
    rates: Option[ReferenceRates],
    decompressorNanos: Long,
    engine: EngineModel = EngineModel.KaeZip) {
  import ShuffleDoctor._

  /** Every link with "compute and other" last. */
  def all: Seq[Link] = links :+ Link(Other, other, 0L)

  /** The whole the shares are of: the run time, or the measured links if they exceed it. */
  def total: Long = math.max(1L, math.max(totals.runNanos, links.map(_.nanos).sum))

  def share(name: String): Double = all.find(_.name == name).map(_.nanos.toDouble / total)
    .getOrElse(0.0)

  def bound: Link = all.maxBy(_.nanos)

  def kind: String = {
    val names = links.map(_.name).toSet
    (names(Fetch), names(Compress)) match {
      case (true, true) => "reduce and map"
      case (true, false) => "reduce"
      case _ => "map"
    }
  }

  /** The largest share a codec twice as fast could save: half its share on the tasks' path. */
  def codecTwiceAsFast: Double = (share(Compress) + share(Decompress)) / 2

  /** The largest share a disk twice as fast could save. */
  def diskTwiceAsFast: Double = share(DiskWrite) / 2

  /**
   * A hardware codec's time against its engine's floor, per direction it served: how much of the
   * codec link the engine itself explains.
   */
  def engineText: String = {
    import KaeShuffleMetrics._
    val k = totals.kae.withDefaultValue(0L)
    val parts = Seq(
      ("compress", true, WriteHardwareRequests, WriteRawBytes, WriteSessions, WriteCodecNanos),
      ("decompress", false, ReadHardwareRequests, ReadRawBytes, ReadSessions, ReadCodecNanos)
    ).filter { case (_, _, requests, _, _, _) => k(requests) > 0 }.map {
      case (what, compress, requests, raw, sessions, codec) =>
        val floor = engine.floorNanos(compress, k(requests), k(raw), k(sessions))
        s"$what ${k(requests)} requests, floor ${seconds(floor)}, codec time " +
          s"${seconds(k(codec))} (" + String.format(
            Locale.ROOT,
            "%.2f",
            Double.box(
              k(codec).toDouble / math.max(1L, floor))) + "x the floor)"
    }
    if (parts.isEmpty) ""
    else s"; engine model (${engine.describe}): ${parts.mkString(", ")}"
  }

  def line: String = {
    val t = totals
    val shares = all.filter(_.nanos > 0).sortBy(-_.nanos)
      .map(l => s"${l.name} ${pct(l.nanos.toDouble / total)}").mkString(", ")
    val b = bound
    val rateText = links.filter(l => l.bytes > 0 && l.nanos > 0)
      .map(l => s"${l.name} ${mbPerSec(l.bytes, l.nanos)}").mkString(", ")
    // The study's "data processing rate": records produced (computed and serialized) per second.
    // In a map stage only: elsewhere "other" also holds the reduce side's computing.
    val production = links.find(_.name == Serialization).filter(_.bytes > 0 && kind == "map")
      .map(s =>
        "; records produced (compute and serialization) at " +
          mbPerSec(s.bytes, s.nanos + other)).getOrElse("")
    val known = rates.map(r =>
      s" (${r.codec} on this machine: compress " +
        s"${mbPerSec(r.rawBytes, r.compressNanos)}, decompress " +
        s"${mbPerSec(r.rawBytes, r.decompressNanos)} on reference data, ratio " +
        s"${"%.1f".formatLocal(Locale.ROOT, r.rawBytes.toDouble / math.max(1L, r.storedBytes))})")
      .getOrElse("")
    val ahead = if (decompressorNanos > 0) {
      s"; decompressing ahead took ${seconds(decompressorNanos)} on other threads"
    } else ""
    s"KAE Shuffle doctor: stage ${t.stageId}.${t.attempt} (${kind}, ${t.tasks} tasks, " +
      s"${seconds(t.runNanos)} task time): $shares -> bound by ${b.name}; a codec twice as fast " +
      s"saves at most ${pct(codecTwiceAsFast)}, a disk twice as fast at most " +
      s"${pct(diskTwiceAsFast)}. Rates per task thread: $rateText$known$production$ahead$engineText."
  }
}
