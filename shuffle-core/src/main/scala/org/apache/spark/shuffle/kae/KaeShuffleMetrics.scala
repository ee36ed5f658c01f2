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

import io.github.kaeshuffle.format.BlockStats

import org.apache.spark.SparkContext
import org.apache.spark.util.LongAccumulator

/**
 * Accumulators of one shuffle, by name, registered on the driver when the shuffle is registered
 * and shipped to tasks inside the shuffle handle: the Spark UI shows them on each stage's page,
 * and [[KaeStageSummaryListener]] turns them into one driver log line per stage.
 */
private[spark] class KaeShuffleMetrics private (
    accumulators: Map[String, LongAccumulator]) extends Serializable {
  import KaeShuffleMetrics._

  /** The accumulator of a metric named in the companion (e.g. [[KaeShuffleMetrics.WriteRawBytes]]). */
  def apply(name: String): LongAccumulator = accumulators(name)

  def addWrite(s: BlockStats, times: WriteTimes): Unit = {
    add(WriteRawBytes, s.rawBytes())
    add(WriteStoredBytes, s.storedBytes())
    add(WriteCodecCalls, s.codecCalls())
    add(WriteCodecNanos, s.codecNanos())
    add(WriteStoredRawBlocks, s.storedRawBlocks())
    add(WriteProbedRawBlocks, s.probedRawBlocks())
    add(WriteSoftwareBlocks, s.softwareBlocks())
    add(WriteSmallSoftwareBlocks, s.smallSoftwareBlocks())
    addHardware(s, WriteHardwareRequests, WriteOverflowBlocks, WriteSessions, WriteSessionWaitNanos)
    add(WriteSerializeNanos, times.serializeNanos)
    add(WriteDiskNanos, times.diskNanos)
  }

  def addRead(s: BlockStats, sources: ReadSources): Unit = {
    add(ReadRawBytes, s.rawBytes())
    add(ReadCodecCalls, s.codecCalls())
    add(ReadCodecNanos, s.codecNanos())
    add(ReadSoftwareBlocks, s.softwareBlocks())
    addHardware(s, ReadHardwareRequests, ReadOverflowBlocks, ReadSessions, ReadSessionWaitNanos)
    add(ReadWaitNanos, sources.waitNanos)
    add(ReadMappedBytes, sources.mappedBytes)
    add(ReadInPlaceBytes, sources.inPlaceBytes)
    add(ReadCopiedBytes, sources.copiedBytes)
    add(ReadFetchNanos, sources.fetchNanos)
    add(ReadDecodeNanos, sources.decodeNanos)
    add(ReadDeserializeNanos, sources.deserializeNanos)
  }

  private def addHardware(
      s: BlockStats,
      requests: String,
      overflow: String,
      sessions: String,
      waitNanos: String): Unit = {
    add(requests, s.hardwareRequests())
    add(overflow, s.overflowBlocks())
    add(sessions, s.sessionsOpened())
    add(waitNanos, s.sessionWaitNanos())
  }

  private def add(name: String, value: Long): Unit = accumulators(name).add(value)
}

private[spark] object KaeShuffleMetrics {
  val Prefix = "kae.shuffle."
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
  val ReadInPlaceBytes = Prefix + "read.inPlaceBytes"
  val ReadCopiedBytes = Prefix + "read.copiedBytes"
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
    ReadSessionWaitNanos
  )

  def register(sc: SparkContext): KaeShuffleMetrics =
    new KaeShuffleMetrics(Names.map(n => n -> sc.longAccumulator(n)).toMap)
}
