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

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.{SparkConf, SparkContext, SparkEnv, TaskContext}
import org.apache.spark.shuffle.IndexShuffleBlockResolver
import org.apache.spark.shuffle.sort.SortShuffleManager
import org.apache.spark.storage.{BlockId, BlockManagerId}
import org.apache.spark.util.collection.OpenHashSet

/**
 * [[ManagerShims]] for every line we build (3.5 to 4.3; the resolver's three-argument constructor
 * exists from 3.5.2, which [[SparkLine]] requires on the 3.5 line).
 */
private[spark] object LineManagerShims extends ManagerShims {

  override def blockResolver(
      conf: SparkConf,
      mapTaskIds: ConcurrentHashMap[Int, OpenHashSet[Long]]): IndexShuffleBlockResolver =
    new IndexShuffleBlockResolver(conf, null, mapTaskIds)

  override def blocksToRead(
      shuffleId: Int,
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int): Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])] =
    SparkEnv.get.mapOutputTracker.getMapSizesByExecutorId(
      shuffleId,
      startMapIndex,
      endMapIndex,
      startPartition,
      endPartition)

  override def taskSlots(conf: SparkConf): Int = {
    val local = SparkContext.numDriverCores(conf.get("spark.master", ""), conf)
    val isDriver = SparkEnv.get == null || SparkEnv.get.executorId == SparkContext.DRIVER_IDENTIFIER
    if (isDriver && local > 0) local
    else conf.getInt("spark.executor.cores", Runtime.getRuntime.availableProcessors())
  }

  override def canUseBatchFetch(
      startPartition: Int,
      endPartition: Int,
      context: TaskContext): Boolean =
    SortShuffleManager.canUseBatchFetch(startPartition, endPartition, context)
}
