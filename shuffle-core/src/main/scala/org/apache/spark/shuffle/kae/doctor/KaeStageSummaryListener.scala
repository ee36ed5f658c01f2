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

import org.apache.spark.internal.Logging
import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerStageCompleted,
  SparkListenerTaskEnd,
  StageInfo
}
import org.apache.spark.shuffle.kae.metrics.{KaeShuffleMetrics, StageAccumulation}

/**
 * Logs, per completed stage that wrote or read a KAE shuffle, one summary line (bytes, codec
 * calls) and the shuffle doctor's diagnosis ([[ShuffleDoctor]]), from the stage's successful
 * tasks ([[StageAccumulation]]).
 *
 * @param summaries log the summary line
 * @param doctor log the diagnosis
 * @param rates the codec's rates on this machine, asked for with the first diagnosis
 * @param out where lines go (the driver log by default); diagnoses also go to `onDiagnosis`
 * @param engine the hardware engine's costs, for stages a hardware codec served
 * @param modelled hardware requests come from a stand-in library (`kaezip.skipHardwareCheck`), so
 *   the summary calls them modelled: no engine made them
 */
private[spark] class KaeStageSummaryListener(
    summaries: Boolean = true,
    doctor: Boolean = true,
    rates: () => Option[ReferenceRates] = () => None,
    out: String => Unit = null,
    onDiagnosis: Diagnosis => Unit = _ => (),
    engine: EngineModel = EngineModel.KaeZip,
    modelled: Boolean = false) extends SparkListener with Logging {
  private val stages = new StageAccumulation
  private lazy val codecRates = rates()

  override def onTaskEnd(event: SparkListenerTaskEnd): Unit = stages.taskEnded(event)

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = {
    val info = event.stageInfo
    stages.stageCompleted(info).foreach { totals =>
      if (summaries) {
        KaeStageSummaryListener.summary(info, totals.kae, modelled).foreach(emit)
      }
      if (doctor) {
        ShuffleDoctor.diagnose(totals, codecRates, engine).foreach { d =>
          emit(d.line)
          onDiagnosis(d)
        }
      }
    }
  }

  private def emit(line: String): Unit = if (out != null) out(line) else logInfo(line)
}

private[spark] object KaeStageSummaryListener {
  import KaeShuffleMetrics._

  def summary(
      info: StageInfo,
      totals: Map[String, Long],
      modelled: Boolean = false): Option[String] = {
    val t = totals.withDefaultValue(0L)
    val parts = Seq(
      if (t(WriteCodecCalls) > 0 || t(WriteRawBytes) > 0) {
        Some(s"wrote ${mib(t(WriteRawBytes))} raw -> ${mib(t(WriteStoredBytes))} stored" +
          s" (ratio ${ratio(t(WriteRawBytes), t(WriteStoredBytes))}), ${t(WriteCodecCalls)}" +
          s" codec calls (${perCall(t(WriteRawBytes), t(WriteCodecCalls))} per call)," +
          s" codec ${millis(t(WriteCodecNanos))}, ${t(WriteStoredRawBlocks)} blocks stored raw" +
          (if (t(WriteParkedBytes) > 0) {
             s", ${mib(t(WriteParkedBytes))} raw parked on disk to bound the buffers"
           } else "") +
          (if (t(WriteStrongerRawBytes) > 0) {
             s", ${mib(t(WriteStrongerRawBytes))} raw (" +
               f"${100.0 * t(WriteStrongerRawBytes) / math.max(1L, t(WriteRawBytes))}%.0f%%) " +
               "with a stronger codec, auto's choice where the disk bounds the map tasks"
           } else "") +
          (if (t(WriteProbedRawBlocks) > 0) {
             s" (${t(WriteProbedRawBlocks)} judged incompressible, without a codec call)"
           } else "") + software(t(WriteSoftwareBlocks)) +
          (if (t(WriteSmallSoftwareBlocks) > 0) {
             s"; ${t(WriteSmallSoftwareBlocks)} blocks under the hardware's minimum size " +
               "compressed in software"
           } else "") + hardware(
            t(WriteRawBytes),
            t(WriteHardwareRequests),
            t(WriteSessions),
            t(WriteOverflowBlocks),
            t(WriteSessionWaitNanos),
            modelled))
      } else None,
      if (t(ReadCodecCalls) > 0 || t(ReadRawBytes) > 0) {
        Some(s"read ${mib(t(ReadRawBytes))} raw, ${t(ReadCodecCalls)} codec calls" +
          s" (${perCall(t(ReadRawBytes), t(ReadCodecCalls))} per call)," +
          s" codec ${millis(t(ReadCodecNanos))}, waited for the decompressor" +
          s" ${millis(t(ReadWaitNanos))}; segments mapped ${mib(t(ReadMappedBytes))}," +
          s" read from local files ${mib(t(ReadFileReadBytes))}," +
          s" fetched in place ${mib(t(ReadInPlaceBytes))}, fetched and copied" +
          s" ${mib(t(ReadCopiedBytes))}" + software(t(ReadSoftwareBlocks)) + hardware(
            t(ReadRawBytes),
            t(ReadHardwareRequests),
            t(ReadSessions),
            t(ReadOverflowBlocks),
            t(ReadSessionWaitNanos),
            modelled))
      } else None
    ).flatten
    if (parts.isEmpty) None
    else Some(s"KAE Shuffle stage ${info.stageId}.${info.attemptNumber()} " +
      s"(${info.numTasks} tasks): ${parts.mkString("; ")}")
  }

  /** A hardware codec's faults taken over by software, when there were any. */
  private def software(blocks: Long): String =
    if (blocks > 0) s"; $blocks blocks done in software after a hardware codec fault" else ""

  /** What a hardware codec did, when one served the stage. */
  private[kae] def hardware(
      raw: Long,
      requests: Long,
      sessions: Long,
      overflow: Long,
      waitNanos: Long,
      modelled: Boolean): String =
    if (requests + sessions + overflow == 0) ""
    else "; hardware" +
      (if (modelled) " (modelled: kaezip.skipHardwareCheck=true, a stand-in library)" else "") +
      s": $requests requests (${perCall(raw, requests)} per request)," +
      s" $sessions sessions opened, $overflow blocks in software because every session was busy" +
      s" (waited ${millis(waitNanos)})"

  private[kae] def mib(b: Long): String = "%.1f MiB".formatLocal(Locale.ROOT, b / 1048576.0)

  private[kae] def millis(nanos: Long): String = "%.0f ms".formatLocal(Locale.ROOT, nanos / 1e6)

  private[kae] def ratio(raw: Long, stored: Long): String =
    if (stored == 0) "-" else "%.2f".formatLocal(Locale.ROOT, raw.toDouble / stored)

  private[kae] def perCall(bytes: Long, calls: Long): String =
    if (calls == 0) "-" else "%.1f KiB".formatLocal(Locale.ROOT, bytes / 1024.0 / calls)
}
