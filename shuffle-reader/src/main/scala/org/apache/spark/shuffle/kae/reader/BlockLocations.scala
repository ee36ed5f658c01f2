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

import org.apache.spark.storage.{BlockId, BlockManagerId, ShuffleBlockBatchId, ShuffleBlockId}

/**
 * Where each block a reduce task fetches lives and its size as the map status gives it (Spark
 * stores sizes rounded: used only to choose between memory and streaming). A batch of contiguous
 * partitions is located and sized by the blocks it merges.
 */
private[kae] final class BlockLocations(
    blocks: Seq[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])]) {
  private val byId: Map[BlockId, (BlockManagerId, Long)] = blocks.flatMap { case (address, ids) =>
    ids.map { case (id, size, _) => id -> (address, size) }
  }.toMap

  def apply(id: BlockId): Option[(BlockManagerId, Long)] = id match {
    case ShuffleBlockBatchId(shuffle, map, start, end) =>
      val parts = (start until end).map(r => byId.get(ShuffleBlockId(shuffle, map, r)))
      if (parts.isEmpty || parts.exists(_.isEmpty)) None
      else Some((parts.head.get._1, parts.map(_.get._2).sum))
    case other => byId.get(other)
  }
}
