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
package metrics

import org.apache.spark.SparkContext
import org.apache.spark.scheduler.AccumulableInfo
import org.apache.spark.util.AccumulatorV2

/**
 * The counts of one shuffle ([[KaeShuffleMetrics.Names]]: bytes, codec calls, link times), as
 * **one** accumulator named `kae.shuffle`, registered on the driver when the shuffle is registered
 * and shipped to tasks inside the shuffle handle. One, not one per count: every task deserializes
 * the accumulators of the handles it uses, sends all of them back with its result, and the driver
 * merges and keeps each named one per task for the UI; with one per count that cost a measurable
 * share of a job's time and of its heap after GC at tens of thousands of partitions
 * (docs/benchmarks/Partitions.md). The Spark UI shows
 * the value on each stage's page as `write.rawBytes=..., write.codecCalls=...` (non-zero counts);
 * [[KaeStageSummaryListener]] reads it back (also from an event log) into one driver log line per
 * stage. Not thread-safe, as Spark's own accumulators: a task adds from its own thread.
 */
private[spark] final class KaeShuffleMetrics extends AccumulatorV2[ShuffleCounts, ShuffleCounts] {
  import KaeShuffleMetrics._

  private val counts = new Array[Long](Names.size)

  override def isZero: Boolean = counts.forall(_ == 0L)

  override def copy(): KaeShuffleMetrics = {
    val c = new KaeShuffleMetrics
    System.arraycopy(counts, 0, c.counts, 0, counts.length)
    c
  }

  override def reset(): Unit = java.util.Arrays.fill(counts, 0L)

  override def add(v: ShuffleCounts): Unit = v.addTo(counts)

  override def merge(other: AccumulatorV2[ShuffleCounts, ShuffleCounts]): Unit = other match {
    case o: KaeShuffleMetrics => counts.indices.foreach(i => counts(i) += o.counts(i))
    case _ => throw new UnsupportedOperationException(
        s"Cannot merge ${getClass.getName} with ${other.getClass.getName}")
  }

  /** A snapshot of the non-zero counts: the driver keeps one per task while tasks go on adding. */
  override def value: ShuffleCounts = ShuffleCounts.ofDense(counts)

  /** This accumulator's count of a metric named in the companion. */
  def apply(name: String): Long = counts(placeOf(name))

  /**
   * What Spark keeps of this accumulator for a task (`update` defined) or a stage. A task's keeps
   * its update only, not the accumulator's running total at the time: the driver holds every
   * task's for as long as its stage runs. And a task's is flagged internal, as Spark flags its own
   * task metrics: Spark's UI store then keeps no text of it per task (at 20,000 partitions that
   * text was a fifth of what the driver kept per finished task beyond Spark's own shuffle), while
   * listeners and the event log still get it whole (our tab and the driver's stage line sum it).
   * The stage's info stays as it was: its page shows the running total.
   */
  override private[spark] def toInfo(update: Option[Any], value: Option[Any]): AccumulableInfo =
    if (update.isEmpty) super.toInfo(None, value)
    else super.toInfo(update, None).copy(internal = true)

}

private[spark] object KaeShuffleMetrics {

  /** The accumulator's name; each count's name is this, a dot, and what it counts. */
  val AccumulatorName = "kae.shuffle"
  val Prefix = AccumulatorName + "."
  val WriteRawBytes = Prefix + "write.rawBytes"
  val WriteStoredBytes = Prefix + "write.storedBytes"
  val WriteCodecCalls = Prefix + "write.codecCalls"
  val WriteCodecNanos = Prefix + "write.codecNanos"
  val WriteStoredRawBlocks = Prefix + "write.storedRawBlocks"

  /** Of the blocks stored raw, those the incompressibility probe stored without a codec call. */
  val WriteProbedRawBlocks = Prefix + "write.probedRawBlocks"

  /** Blocks a hardware codec failed on, compressed in software instead (same format). */
  val WriteSoftwareBlocks = Prefix + "write.softwareBlocks"

  /** Blocks under `spark.shuffle.kae.kaezip.minBlockSize`, compressed in software by design. */
  val WriteSmallSoftwareBlocks = Prefix + "write.smallSoftwareBlocks"

  /** Blocks a hardware codec failed to decode, decoded in software instead. */
  val ReadSoftwareBlocks = Prefix + "read.softwareBlocks"
  val ReadRawBytes = Prefix + "read.rawBytes"

  // A hardware codec's work (KAEzip): requests submitted (one per started MiB of a call's input),
  // blocks done in software because every session was busy, sessions opened, time waiting for one.
  val WriteHardwareRequests = Prefix + "write.hardwareRequests"
  val WriteOverflowBlocks = Prefix + "write.overflowBlocks"
  val WriteSessions = Prefix + "write.sessionsOpened"
  val WriteSessionWaitNanos = Prefix + "write.sessionWaitNanos"
  val ReadHardwareRequests = Prefix + "read.hardwareRequests"
  val ReadOverflowBlocks = Prefix + "read.overflowBlocks"
  val ReadSessions = Prefix + "read.sessionsOpened"
  val ReadSessionWaitNanos = Prefix + "read.sessionWaitNanos"
  val ReadCodecCalls = Prefix + "read.codecCalls"
  val ReadCodecNanos = Prefix + "read.codecNanos"
  val ReadWaitNanos = Prefix + "read.waitNanos"
  val ReadMappedBytes = Prefix + "read.mappedBytes"
  val ReadFileReadBytes = Prefix + "read.fileReadBytes"
  val WriteParkedBytes = Prefix + "write.parkedBytes"
  val WriteStrongerRawBytes = Prefix + "write.strongerRawBytes"
  val ReadInPlaceBytes = Prefix + "read.inPlaceBytes"
  val ReadCopiedBytes = Prefix + "read.copiedBytes"
  val ReadOtherHostBytes = Prefix + "read.otherHostBytes"
  // The shuffle doctor's links (ShuffleDoctor), besides the codec times above.
  val WriteSerializeNanos = Prefix + "write.serializeNanos"
  val WriteDiskNanos = Prefix + "write.diskNanos"
  val ReadFetchNanos = Prefix + "read.fetchNanos"
  val ReadDecodeNanos = Prefix + "read.decodeNanos"
  val ReadDeserializeNanos = Prefix + "read.deserializeNanos"

  /** Every metric, in the order they are registered. */
  val Names: Seq[String] = Seq(
    WriteRawBytes,
    WriteStoredBytes,
    WriteCodecCalls,
    WriteCodecNanos,
    WriteStoredRawBlocks,
    WriteProbedRawBlocks,
    ReadRawBytes,
    ReadCodecCalls,
    ReadCodecNanos,
    ReadWaitNanos,
    ReadMappedBytes,
    ReadInPlaceBytes,
    ReadCopiedBytes,
    WriteSerializeNanos,
    WriteDiskNanos,
    ReadFetchNanos,
    ReadDecodeNanos,
    ReadDeserializeNanos,
    WriteSoftwareBlocks,
    ReadSoftwareBlocks,
    WriteSmallSoftwareBlocks,
    WriteHardwareRequests,
    WriteOverflowBlocks,
    WriteSessions,
    WriteSessionWaitNanos,
    ReadHardwareRequests,
    ReadOverflowBlocks,
    ReadSessions,
    ReadSessionWaitNanos,
    ReadFileReadBytes,
    WriteParkedBytes,
    WriteStrongerRawBytes,
    ReadOtherHostBytes
  )

  private val Places: Map[String, Int] = Names.zipWithIndex.toMap

  /** A count's place in Names. */
  def placeOf(name: String): Int = Places.getOrElse(
    name,
    throw new IllegalArgumentException(
      s"$name is not a KAE Shuffle count: ${Names.mkString(", ")}"))

  def isName(name: String): Boolean = Places.contains(name)

  def register(sc: SparkContext): KaeShuffleMetrics = {
    val m = new KaeShuffleMetrics
    sc.register(m, AccumulatorName)
    m
  }
}
