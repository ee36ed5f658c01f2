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

import java.util.Arrays

import scala.util.Try

import io.github.kaeshuffle.format.BlockStats

import org.apache.spark.scheduler.AccumulableInfo
import org.apache.spark.shuffle.kae.reader.ReadSources
import org.apache.spark.shuffle.kae.writer.WriteReport

/**
 * A shuffle's counts by full name (`kae.shuffle.write.rawBytes`, ...): the value of a
 * [[KaeShuffleMetrics]] accumulator, a task's update or a total. Absent names count 0.
 *
 * Its text is what the Spark UI and the event log show: the non-zero counts, without the common
 * prefix, as `write.rawBytes=1048576, write.codecCalls=4`; [[ShuffleCounts.parse]] reads it back.
 *
 * Held as its non-zero counts only, their places in [[KaeShuffleMetrics.Names]] and their values
 * in two arrays (about 150 bytes for a task's ten counts, against about 450 as a map of boxed
 * longs): the driver keeps every task's update in its heap while the task's stage runs (in the
 * task's `TaskInfo`), 20,000 tasks' worth in a stage of 20,000 tasks, and G1 marks its old
 * generation sooner the faster that grows (docs/benchmarks/Partitions.md).
 */
private[spark] final class ShuffleCounts private (
    private val places: Array[Byte],
    private val values: Array[Long]) {
  import KaeShuffleMetrics.{Names, Prefix}

  def apply(name: String): Long = {
    val place = KaeShuffleMetrics.placeOf(name)
    val at = places.indexOf(place.toByte)
    if (at < 0) 0L else values(at)
  }

  /** The non-zero counts by full name. */
  def counts: Map[String, Long] = places.indices.map(i => Names(places(i)) -> values(i)).toMap

  def isEmpty: Boolean = places.isEmpty

  /** Each non-zero count, by full name. */
  def foreach(f: (String, Long) => Unit): Unit =
    places.indices.foreach(i => f(Names(places(i)), values(i)))

  /** Adds these counts to `dense`, an array of every count in Names' order. */
  def addTo(dense: Array[Long]): Unit = places.indices.foreach(i => dense(places(i)) += values(i))

  override def equals(other: Any): Boolean = other match {
    case c: ShuffleCounts => Arrays.equals(places, c.places) && Arrays.equals(values, c.values)
    case _ => false
  }

  override def hashCode: Int = 31 * Arrays.hashCode(places) + Arrays.hashCode(values)

  override def toString: String =
    places.indices.map(i => Names(places(i)).stripPrefix(Prefix) + "=" + values(i)).mkString(", ")
}

private[spark] object ShuffleCounts {
  import KaeShuffleMetrics._

  val Empty: ShuffleCounts = new ShuffleCounts(Array.emptyByteArray, Array.emptyLongArray)

  /** Counts by full name; every name must be one of [[KaeShuffleMetrics.Names]]. */
  def apply(counts: Map[String, Long]): ShuffleCounts = {
    val dense = new Array[Long](Names.size)
    counts.foreach { case (name, v) => dense(placeOf(name)) += v }
    ofDense(dense)
  }

  /** The counts of `dense`, an array of every count in Names' order. */
  def ofDense(dense: Array[Long]): ShuffleCounts = {
    val n = dense.count(_ != 0L)
    if (n == 0) Empty
    else {
      val places = new Array[Byte](n)
      val values = new Array[Long](n)
      var at = 0
      for (place <- dense.indices if dense(place) != 0L) {
        places(at) = place.toByte
        values(at) = dense(place)
        at += 1
      }
      new ShuffleCounts(places, values)
    }
  }

  /**
   * The KAE Shuffle counts among a task's or a stage's accumulables, summed. Every listener asks
   * for every task's, so the sum goes into one array, not through maps of pairs.
   */
  def fromAccumulables(
      infos: Iterable[AccumulableInfo],
      pick: AccumulableInfo => Option[Any]): ShuffleCounts = {
    val dense = new Array[Long](Names.size)
    infos.foreach { a =>
      (a.name, pick(a)) match {
        case (Some(AccumulatorName), Some(c: ShuffleCounts)) => c.addTo(dense)
        // Replayed from an event log, accumulators other than Spark's own come back as text.
        case (Some(AccumulatorName), Some(v: String)) =>
          ShuffleCounts.parse(v).foreach(_.addTo(dense))
        // Event logs of earlier versions, which had one accumulator per count.
        case (Some(n), Some(v: String)) if isName(n) =>
          Try(v.toLong).foreach(c => dense(placeOf(n)) += c)
        case _ =>
      }
    }
    ShuffleCounts.ofDense(dense)
  }

  /** A map task's counts: its encoder's statistics and its writer's report. */
  def ofWrite(s: BlockStats, report: WriteReport): ShuffleCounts = ShuffleCounts(Map(
    WriteRawBytes -> s.rawBytes(),
    WriteStoredBytes -> s.storedBytes(),
    WriteCodecCalls -> s.codecCalls(),
    WriteCodecNanos -> s.codecNanos(),
    WriteStoredRawBlocks -> s.storedRawBlocks(),
    WriteProbedRawBlocks -> s.probedRawBlocks(),
    WriteSoftwareBlocks -> s.softwareBlocks(),
    WriteSmallSoftwareBlocks -> s.smallSoftwareBlocks(),
    WriteHardwareRequests -> s.hardwareRequests(),
    WriteOverflowBlocks -> s.overflowBlocks(),
    WriteSessions -> s.sessionsOpened(),
    WriteSessionWaitNanos -> s.sessionWaitNanos(),
    WriteSerializeNanos -> report.serializeNanos,
    WriteDiskNanos -> report.diskNanos,
    WriteParkedBytes -> report.parkedBytes,
    WriteStrongerRawBytes -> report.strongerRawBytes
  ))

  /** A reduce task's counts: its decoders' statistics and where its bytes came from. */
  def ofRead(s: BlockStats, sources: ReadSources): ShuffleCounts = ShuffleCounts(Map(
    ReadRawBytes -> s.rawBytes(),
    ReadCodecCalls -> s.codecCalls(),
    ReadCodecNanos -> s.codecNanos(),
    ReadSoftwareBlocks -> s.softwareBlocks(),
    ReadHardwareRequests -> s.hardwareRequests(),
    ReadOverflowBlocks -> s.overflowBlocks(),
    ReadSessions -> s.sessionsOpened(),
    ReadSessionWaitNanos -> s.sessionWaitNanos(),
    ReadWaitNanos -> sources.waitNanos,
    ReadMappedBytes -> sources.mappedBytes,
    ReadFileReadBytes -> sources.fileReadBytes,
    ReadInPlaceBytes -> sources.inPlaceBytes,
    ReadCopiedBytes -> sources.copiedBytes,
    ReadOtherHostBytes -> sources.otherHostBytes,
    ReadFetchNanos -> sources.fetchNanos,
    ReadDecodeNanos -> sources.decodeNanos,
    ReadDeserializeNanos -> sources.deserializeNanos
  ))

  /**
   * The counts in [[ShuffleCounts#toString]]'s text; None when it is not such a text. Names this
   * version does not count (an event log of another version's) are left out.
   */
  def parse(text: String): Option[ShuffleCounts] = Try {
    val pairs = text.split(", ").toSeq.filter(_.nonEmpty).map { pair =>
      val Array(name, value) = pair.split("=", 2)
      (Prefix + name) -> value.toLong
    }
    ShuffleCounts(pairs.filter(p => isName(p._1)).toMap)
  }.toOption
}
