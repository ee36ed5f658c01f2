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

import scala.util.Try

import io.github.kaeshuffle.format.BlockStats

/**
 * A shuffle's counts by full name (`kae.shuffle.write.rawBytes`, ...): the value of a
 * [[KaeShuffleMetrics]] accumulator, a task's update or a total. Absent names count 0.
 *
 * Its text is what the Spark UI and the event log show: the non-zero counts, without the common
 * prefix, as `write.rawBytes=1048576, write.codecCalls=4`; [[ShuffleCounts.parse]] reads it back.
 */
private[spark] final case class ShuffleCounts(counts: Map[String, Long]) {
  def apply(name: String): Long = counts.getOrElse(name, 0L)

  override def toString: String = KaeShuffleMetrics.Names
    .filter(apply(_) != 0L)
    .map(n => n.stripPrefix(KaeShuffleMetrics.Prefix) + "=" + apply(n))
    .mkString(", ")
}

private[spark] object ShuffleCounts {
  import KaeShuffleMetrics._

  /** A map task's counts: its encoder's statistics and its writer's times. */
  def ofWrite(s: BlockStats, times: WriteTimes): ShuffleCounts = ShuffleCounts(Map(
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
    WriteSerializeNanos -> times.serializeNanos,
    WriteDiskNanos -> times.diskNanos
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
    ReadInPlaceBytes -> sources.inPlaceBytes,
    ReadCopiedBytes -> sources.copiedBytes,
    ReadFetchNanos -> sources.fetchNanos,
    ReadDecodeNanos -> sources.decodeNanos,
    ReadDeserializeNanos -> sources.deserializeNanos
  ))

  /** The counts in [[ShuffleCounts#toString]]'s text; None when it is not such a text. */
  def parse(text: String): Option[ShuffleCounts] = Try {
    val pairs = text.split(", ").toSeq.filter(_.nonEmpty).map { pair =>
      val Array(name, value) = pair.split("=", 2)
      (KaeShuffleMetrics.Prefix + name) -> value.toLong
    }
    ShuffleCounts(pairs.toMap)
  }.toOption
}
