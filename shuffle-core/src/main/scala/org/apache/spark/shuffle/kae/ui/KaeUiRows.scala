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
package ui

import com.fasterxml.jackson.annotation.JsonIgnore

import org.apache.spark.shuffle.kae.metrics.{ShuffleCounts, StageTotals}
import org.apache.spark.status.KVUtils.KVIndexParam
import org.apache.spark.util.kvstore.KVIndex

// What the UI tab reads from Spark's application store: written by KaeUiListener, live or while
// the History Server replays an event log. The History Server may keep its store on disk as JSON,
// so the rows are plain values; counts are kept as ShuffleCounts' text (Jackson reads a
// Map[String, Long]'s small values back as Integers).

/** The application's choices ([[KaeShuffleStarted]]). */
private[spark] class KaeApplicationRow(val started: KaeShuffleStarted) {
  @JsonIgnore @KVIndex
  def id: String = classOf[KaeApplicationRow].getName
}

/** A shuffle that fell back to Spark's sort shuffle. */
private[spark] class KaeFallbackRow(@KVIndexParam val shuffleId: Int, val reason: String)

/**
 * One completed stage attempt that wrote or read a KAE shuffle: the sums of its successful tasks
 * ([[StageTotals]]) and the jobs it ran in.
 */
private[spark] class KaeStageRow(
    val stageId: Int,
    val attempt: Int,
    val name: String,
    val jobIds: Seq[Int],
    val tasks: Int,
    val runNanos: Long,
    val readBytes: Long,
    val writeBytes: Long,
    val counts: String) {

  @JsonIgnore @KVIndex
  def id: Array[Int] = Array(stageId, attempt)

  @JsonIgnore
  def totals: StageTotals = StageTotals(
    stageId,
    attempt,
    name,
    tasks,
    runNanos,
    readBytes,
    writeBytes,
    ShuffleCounts.parse(counts).map(_.counts).getOrElse(Map.empty))
}

private[spark] object KaeStageRow {
  def apply(t: StageTotals, jobIds: Seq[Int]): KaeStageRow = new KaeStageRow(
    t.stageId,
    t.attempt,
    t.name,
    jobIds,
    t.tasks,
    t.runNanos,
    t.readBytes,
    t.writeBytes,
    ShuffleCounts(t.kae).toString)
}
