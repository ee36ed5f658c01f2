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
package writer

import io.github.kaeshuffle.format.BlockStats
import io.github.kaeshuffle.writer.{LadderEncoders, WriterSettings}

import org.apache.spark.TaskContext
import org.apache.spark.shuffle.ShuffleWriteMetricsReporter
import org.apache.spark.shuffle.api.ShuffleExecutorComponents
import org.apache.spark.util.AccumulatorV2

/**
 * What either map-side writer is given besides its shuffle: which map output it writes, for which
 * task, where Spark's metrics and files go, how to write, and where its statistics go.
 *
 * @param encoders the executor's encoders: a task borrows one of the codec its shuffle's policy
 *     chooses and gives it back, with its disk time, when it stops
 * @param sqlDataSize Spark SQL's data-size metric when the shuffle's serializer is SQL's row
 *     serializer: its rows are then written without the serializer's streams ([[SqlRowWriter]])
 * @param doctor measure the shuffle doctor's serialization and disk links (in [[WriteReport]])
 * @param onStats receives the block statistics and the writer's times once the output is written
 *     (or failed)
 */
private[spark] case class MapTask(
    mapId: Long,
    context: TaskContext,
    writeMetrics: ShuffleWriteMetricsReporter,
    executorComponents: ShuffleExecutorComponents,
    settings: WriterSettings,
    encoders: LadderEncoders,
    sqlDataSize: Option[AccumulatorV2[Long, Long]],
    doctor: Boolean,
    onStats: (BlockStats, WriteReport) => Unit)
