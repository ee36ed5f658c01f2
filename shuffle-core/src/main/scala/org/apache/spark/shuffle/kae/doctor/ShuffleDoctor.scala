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
 * The shuffle doctor (docs/tuning.md): reads the link times KAE Shuffle measures in every task and
 * says, per stage, which link of the chain bounds it and what a faster codec or disk could save.
 *
 * The model: a task's thread does its links one after the other (a map task produces a record
 * upstream, serializes it into a block buffer; each full block goes to the codec; the output goes
 * to disk. A reduce task waits for fetched blocks, reads decoded bytes, deserializes records,
 * and computes). So the task's time is the sum of its links, and making one link k times faster
 * saves at most (1 - 1/k) of that link's share (Amdahl). Decompressing ahead runs on another
 * thread: only the time the task's thread waits for it, or decodes inline, is on its path.
 */
private[spark] object ShuffleDoctor {
  val Serialization = "serialization"
  val Compress = "compress"
  val DiskWrite = "disk write"
  val Fetch = "fetch"
  val Decompress = "decompress"
  val Deserialization = "deserialization"
  val Other = "compute and other"

  /** Every link in the order they are shown (map links, reduce links, the rest). */
  val Links: Seq[String] =
    Seq(Fetch, Decompress, Deserialization, Serialization, Compress, DiskWrite, Other)

  /**
   * Whether a stage's totals carry link times (the doctor was on in its tasks). The codec's time
   * and the fetcher's waits are counted with the doctor off too (auto prices them), so they do not
   * tell.
   */
  def measured(t: StageTotals): Boolean = {
    import KaeShuffleMetrics._
    Seq(WriteSerializeNanos, WriteDiskNanos, ReadDecodeNanos, ReadDeserializeNanos).exists(
      t.kae.getOrElse(_, 0L) > 0)
  }

  /** The diagnosis of one stage, if its tasks measured link times. */
  def diagnose(
      t: StageTotals,
      rates: Option[ReferenceRates],
      engine: EngineModel = EngineModel.KaeZip): Option[Diagnosis] = {
    import KaeShuffleMetrics._
    if (!measured(t)) return None
    val k = t.kae.withDefaultValue(0L)
    val wrote = k(WriteRawBytes) > 0 || k(WriteCodecCalls) > 0
    val read = k(ReadRawBytes) > 0 || k(ReadFetchNanos) > 0
    val links = Seq(
      Link(Fetch, k(ReadFetchNanos), t.readBytes),
      Link(Decompress, k(ReadDecodeNanos), k(ReadRawBytes)),
      Link(Deserialization, k(ReadDeserializeNanos), k(ReadRawBytes)),
      Link(Serialization, k(WriteSerializeNanos), k(WriteRawBytes)),
      Link(Compress, k(WriteCodecNanos), k(WriteRawBytes)),
      Link(DiskWrite, k(WriteDiskNanos), t.writeBytes)
    )
      .filter(l => if (Set(Fetch, Decompress, Deserialization)(l.name)) read else wrote)
    val measuredNanos = links.map(_.nanos).sum
    Some(Diagnosis(
      t,
      links,
      math.max(0L, t.runNanos - measuredNanos),
      rates,
      k(ReadCodecNanos),
      engine))
  }

  private[kae] def mbPerSec(bytes: Long, nanos: Long): String =
    if (nanos <= 0 || bytes <= 0) "-"
    else "%.1f MB/s".formatLocal(Locale.ROOT, bytes * 1e3 / nanos)

  private[kae] def pct(v: Double): String = "%.0f%%".formatLocal(Locale.ROOT, v * 100)

  private[kae] def seconds(nanos: Long): String =
    "%.2f s".formatLocal(Locale.ROOT, nanos / 1e9)
}

/** One link: the task threads' time in it, summed over a stage's tasks, and the bytes it moved. */
private[spark] case class Link(name: String, nanos: Long, bytes: Long)
