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
import org.apache.spark.shuffle.checksum.RowBasedChecksum
import org.apache.spark.storage.BlockManager
import org.apache.spark.util.collection.ExternalSorter

/**
 * [[WriterShims]] for Spark 4.1 to 4.3 (built with the profiles spark-4.1, spark-4.2, spark-4.3):
 * row-based checksums on the dependency, the sorter's extra checksum argument, the four-argument
 * `MapStatus.apply`.
 */
private[spark] object LineWriterShims extends WriterShims {

  override def rowChecksums(dep: ShuffleDependency[_, _, _]): RowChecksums = {
    val checksums: Array[RowBasedChecksum] = dep.rowBasedChecksums
    if (checksums.isEmpty) RowChecksums.None
    else new RowChecksums {
      override def enabled: Boolean = true
      override def update(partition: Int, key: Any, value: Any): Unit =
        checksums(partition).update(key, value)
      override def aggregated: Long = RowBasedChecksum.getAggregatedChecksumValue(checksums)
    }
  }

  override def mapSorter[K, V, C](
      context: TaskContext,
      dep: ShuffleDependency[K, V, C]): ExternalSorter[K, V, _] = {
    if (dep.mapSideCombine) {
      new ExternalSorter[K, V, C](
        context,
        dep.aggregator,
        Some(dep.partitioner),
        dep.keyOrdering,
        dep.serializer,
        dep.rowBasedChecksums)
    } else {
      // As in Spark's sort shuffle: no aggregation and no ordering on the map side; a sortByKey
      // sorts on the reduce side.
      new ExternalSorter[K, V, V](
        context,
        None,
        Some(dep.partitioner),
        None,
        dep.serializer,
        dep.rowBasedChecksums)
    }
  }

  override def sorterChecksum(sorter: ExternalSorter[_, _, _]): Long =
    sorter.getAggregatedChecksumValue

  override def mapStatus(
      blockManager: BlockManager,
      partitionLengths: Array[Long],
      mapId: Long,
      rowChecksum: Long): MapStatus =
    MapStatus(blockManager.shuffleServerId, partitionLengths, mapId, rowChecksum)

  override def newSpillFile(blockManager: BlockManager): Path =
    blockManager.diskBlockManager.createTempShuffleBlock()._2.toPath
}
