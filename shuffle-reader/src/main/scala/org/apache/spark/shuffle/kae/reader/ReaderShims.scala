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
package reader

import java.io.{File, InputStream}

import org.apache.spark.TaskContext
import org.apache.spark.network.buffer.ManagedBuffer
import org.apache.spark.shuffle.ShuffleReadMetricsReporter
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId}

/**
 * The reduce side's use of Spark internals whose shape varies between Spark lines, in one place.
 * The reader also uses internals that are the same on every line we build for
 * (`CompletionIterator`, `BlockManager.blockManagerId`, ...); docs/design.md lists them all, with
 * reasons. One implementation serves every line today ([[EveryLineReaderShims]]).
 */
private[spark] trait ReaderShims {

  /**
   * Spark's `ShuffleBlockFetcherIterator` over `blocks`, with Spark's fetch settings read from the
   * executor's SparkConf, each fetched stream passed through `wrap`. A completion iterator: it
   * merges the read metrics into the task's when done.
   */
  def fetcher(
      context: TaskContext,
      blockManager: BlockManager,
      blocks: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
      wrap: (BlockId, InputStream) => InputStream,
      metrics: ShuffleReadMetricsReporter,
      batchFetch: Boolean): Iterator[(BlockId, InputStream)]

  /**
   * A block's bytes when its file is on this host and Spark knows where: written by this executor,
   * or by another executor on this host whose local dirs the fetcher has cached. None otherwise.
   */
  def localBlockData(
      blockManager: BlockManager,
      blockId: BlockId,
      address: BlockManagerId): Option[ManagedBuffer]

  /** A local dir of this executor, for files the reader makes (a mapped decode window). */
  def localDir(blockManager: BlockManager): File

  /** Whether the old fetch protocol or IO encryption rules out fetching ranges in one batch. */
  def batchFetchAllowed: Boolean
}

private[spark] object ReaderShims {

  /** The implementation for the Spark line this jar is built for. */
  val current: ReaderShims = EveryLineReaderShims
}
