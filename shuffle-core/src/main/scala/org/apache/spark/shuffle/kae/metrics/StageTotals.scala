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

/**
 * The sums of one stage attempt's successful tasks.
 *
 * @param runNanos the tasks' run time (Spark's executorRunTime)
 * @param readBytes shuffle bytes fetched (Spark's shuffle read metrics)
 * @param writeBytes shuffle bytes written (Spark's shuffle write metrics)
 * @param kae KAE Shuffle's counts by full name (`kae.shuffle.*`)
 */
private[spark] case class StageTotals(
    stageId: Int,
    attempt: Int,
    name: String,
    tasks: Int,
    runNanos: Long,
    readBytes: Long,
    writeBytes: Long,
    kae: Map[String, Long]) {

  def +(o: StageTotals): StageTotals = copy(
    tasks = tasks + o.tasks,
    runNanos = runNanos + o.runNanos,
    readBytes = readBytes + o.readBytes,
    writeBytes = writeBytes + o.writeBytes,
    kae = StageTotals.sum(kae, o.kae)
  )
}

private[spark] object StageTotals {

  /** Counts by name added up; a name absent on one side counts 0 there. */
  def sum(a: Map[String, Long], b: Map[String, Long]): Map[String, Long] =
    (a.keySet ++ b.keySet).map(k => k -> (a.getOrElse(k, 0L) + b.getOrElse(k, 0L))).toMap
}
