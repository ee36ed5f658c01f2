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

import org.apache.spark.{SparkEnv, TaskContext}
import org.apache.spark.internal.config
import org.apache.spark.network.buffer.ManagedBuffer
import org.apache.spark.shuffle.ShuffleReadMetricsReporter
import org.apache.spark.storage.{BlockId, BlockManager, BlockManagerId, ShuffleBlockFetcherIterator}

/**
 * [[ReaderShims]] for every line we build (3.5 to 4.3): the fetcher's 17-argument constructor is
 * the same on all of them. A line that differs gets its own file under `src/main/spark-<line>`, as
 * the writer's shims have.
 */
private[spark] object EveryLineReaderShims extends ReaderShims {

  override def fetcher(
      context: TaskContext,
      blockManager: BlockManager,
      blocks: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
      wrap: (BlockId, InputStream) => InputStream,
      metrics: ShuffleReadMetricsReporter,
      batchFetch: Boolean): Iterator[(BlockId, InputStream)] = {
    val conf = SparkEnv.get.conf
    new ShuffleBlockFetcherIterator(
      context,
      blockManager.blockStoreClient,
      blockManager,
      SparkEnv.get.mapOutputTracker,
      blocks,
      wrap,
      conf.get(config.REDUCER_MAX_SIZE_IN_FLIGHT) * 1024 * 1024,
      conf.get(config.REDUCER_MAX_REQS_IN_FLIGHT),
      conf.get(config.REDUCER_MAX_BLOCKS_IN_FLIGHT_PER_ADDRESS),
      conf.get(config.MAX_REMOTE_BLOCK_SIZE_FETCH_TO_MEM),
      conf.get(config.SHUFFLE_MAX_ATTEMPTS_ON_NETTY_OOM),
      conf.get(config.SHUFFLE_DETECT_CORRUPT),
      conf.get(config.SHUFFLE_DETECT_CORRUPT_MEMORY),
      conf.get(config.SHUFFLE_CHECKSUM_ENABLED),
      conf.get(config.SHUFFLE_CHECKSUM_ALGORITHM),
      metrics,
      batchFetch
    ).toCompletionIterator
  }

  override def localBlockData(
      blockManager: BlockManager,
      blockId: BlockId,
      address: BlockManagerId): Option[ManagedBuffer] = {
    val self = blockManager.blockManagerId
    if (address.executorId == self.executorId) {
      Some(blockManager.getLocalBlockData(blockId))
    } else if (address.host == self.host) {
      blockManager.hostLocalDirManager
        .flatMap(_.getCachedHostLocalDirsFor(address.executorId))
        .map(dirs => blockManager.getHostLocalShuffleData(blockId, dirs))
    } else {
      None
    }
  }

  override def localDir(blockManager: BlockManager): File =
    blockManager.diskBlockManager.localDirs.head

  override def batchFetchAllowed: Boolean = {
    val conf = SparkEnv.get.conf
    !conf.get(config.SHUFFLE_USE_OLD_FETCH_PROTOCOL) && !conf.get(config.IO_ENCRYPTION_ENABLED)
  }
}
