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

import org.apache.spark.{ShuffleDependency, SparkConf, TaskContext}
import org.apache.spark.shuffle.IndexShuffleBlockResolver
import org.apache.spark.storage.{BlockId, BlockManagerId}
import org.apache.spark.util.collection.OpenHashSet

/**
 * The manager's use of Spark internals whose shape varies between Spark lines, in one place.
 * One implementation serves every line today ([[EveryLineManagerShims]]); the inventory with
 * reasons is in docs/design.md.
 */
private[spark] trait ManagerShims {

  /**
   * Spark's resolver of `.data` + `.index` + checksum files, told which map outputs each shuffle
   * has (so it can clean them up and serve Spark's decommissioning).
   */
  def blockResolver(
      conf: SparkConf,
      mapTaskIds: ConcurrentHashMap[Int, OpenHashSet[Long]]): IndexShuffleBlockResolver

  /**
   * The blocks a reduce task reads, by executor, from the map output tracker: once the shuffle's
   * push-based merge is finalized, its merged blocks (and the original blocks of map outputs the
   * merge missed), as Spark's own reader asks for them.
   */
  def blocksToRead(
      dep: ShuffleDependency[_, _, _],
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int): BlocksToRead

  /**
   * How many tasks this JVM runs at once: the local master's threads on a driver that runs tasks,
   * else `spark.executor.cores`, else the processors the JVM sees.
   */
  def taskSlots(conf: SparkConf): Int

  /** Spark's rule for fetching a task's contiguous partitions as one batch per map output. */
  def canUseBatchFetch(startPartition: Int, endPartition: Int, context: TaskContext): Boolean

  /**
   * Whether executors load `spark.jars` before they create the shuffle manager (from Spark 4.0,
   * SPARK-45762; [[DeploymentCheck]]).
   */
  def executorsLoadJarsFirst: Boolean
}

/**
 * A reduce task's blocks by executor, and whether they may be fetched as batches (Spark allows it
 * for merged shuffles only when the merge covered no map output twice).
 */
private[spark] case class BlocksToRead(
    blocks: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
    batchFetchAllowed: Boolean)

private[spark] object ManagerShims {

  /** The implementation for the Spark line this jar is built for. */
  val current: ManagerShims = EveryLineManagerShims
}
