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

import java.nio.file.Path

import org.apache.spark.{ShuffleDependency, TaskContext}
import org.apache.spark.scheduler.MapStatus
import org.apache.spark.storage.BlockManager
import org.apache.spark.util.collection.ExternalSorter

/**
 * [[WriterShims]] for Spark 3.5 and 4.0 (built with the profiles spark-3.5, spark-3.5-scala-2.12
 * and spark-4.0): these lines have no row-based checksums (Spark compares none across attempts,
 * so there is nothing to keep), a sorter without a checksum argument, and the three-argument
 * `MapStatus.apply`.
 */
private[spark] object LineWriterShims extends WriterShims {

  override def rowChecksums(dep: ShuffleDependency[_, _, _]): RowChecksums = RowChecksums.None

  override def mapSorter[K, V, C](
      context: TaskContext,
      dep: ShuffleDependency[K, V, C]): ExternalSorter[K, V, _] = {
    if (dep.mapSideCombine) {
      new ExternalSorter[K, V, C](
        context,
        dep.aggregator,
        Some(dep.partitioner),
        dep.keyOrdering,
        dep.serializer)
    } else {
      // As in Spark's sort shuffle: no aggregation and no ordering on the map side; a sortByKey
      // sorts on the reduce side.
      new ExternalSorter[K, V, V](context, None, Some(dep.partitioner), None, dep.serializer)
    }
  }

  override def sorterChecksum(sorter: ExternalSorter[_, _, _]): Long = 0L

  override def mapStatus(
      blockManager: BlockManager,
      partitionLengths: Array[Long],
      mapId: Long,
      rowChecksum: Long): MapStatus =
    MapStatus(blockManager.shuffleServerId, partitionLengths, mapId)

  override def newSpillFile(blockManager: BlockManager): Path =
    blockManager.diskBlockManager.createTempShuffleBlock()._2.toPath
}
