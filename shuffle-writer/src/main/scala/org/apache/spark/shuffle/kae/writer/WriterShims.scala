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
 * The map side's use of Spark internals whose shape varies between Spark lines, in one place: the
 * writers also use internals that are the same on every line we build for; docs/design.md lists
 * them all, with reasons. One implementation per group of Spark lines (`LineWriterShims` in
 * `src/main/spark-<line>`, chosen by the build profile).
 */
private[spark] trait WriterShims {

  /** Spark's row-based checksums of the shuffle's records, or [[RowChecksums.None]]. */
  def rowChecksums(dep: ShuffleDependency[_, _, _]): RowChecksums

  /**
   * Spark's `ExternalSorter` for a map task, as Spark's sort shuffle makes it: combining when the
   * shuffle combines on the map side (and ordering then), else neither. Its row-based checksum is
   * [[sorterChecksum]].
   */
  def mapSorter[K, V, C](
      context: TaskContext,
      dep: ShuffleDependency[K, V, C]): ExternalSorter[K, V, _]

  /** The aggregated row-based checksum of the records a map sorter took. */
  def sorterChecksum(sorter: ExternalSorter[_, _, _]): Long

  /** The map status a map task reports for its committed output. */
  def mapStatus(
      blockManager: BlockManager,
      partitionLengths: Array[Long],
      mapId: Long,
      rowChecksum: Long): MapStatus

  /** A new file in the executor's local dirs for a spill. */
  def newSpillFile(blockManager: BlockManager): Path
}

private[spark] object WriterShims {

  /** The implementation for the Spark line this jar is built for. */
  val current: WriterShims = LineWriterShims
}

/**
 * Row-based checksums of a map task's records, per partition (Spark 4.1+ compares them across
 * attempts to detect nondeterministic stages); [[RowChecksums.None]] where the line has none.
 */
private[spark] trait RowChecksums {
  def enabled: Boolean

  def update(partition: Int, key: Any, value: Any): Unit

  /** The value the map status carries. */
  def aggregated: Long
}

private[spark] object RowChecksums {
  object None extends RowChecksums {
    override def enabled: Boolean = false
    override def update(partition: Int, key: Any, value: Any): Unit = ()
    override def aggregated: Long = 0L
  }
}
