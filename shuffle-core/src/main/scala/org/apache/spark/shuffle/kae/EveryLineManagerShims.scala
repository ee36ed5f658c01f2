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

import java.lang.invoke.{MethodHandles, MethodType}
import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.{ShuffleDependency, SparkConf, SparkContext, SparkEnv, TaskContext}
import org.apache.spark.internal.Logging
import org.apache.spark.shuffle.IndexShuffleBlockResolver
import org.apache.spark.shuffle.sort.SortShuffleManager
import org.apache.spark.util.collection.OpenHashSet

/** [[ManagerShims]] for every line we build (3.5 to 4.3). */
private[spark] object EveryLineManagerShims extends ManagerShims with Logging {

  /**
   * Spark's resolver sharing our map of map task ids, so that shuffle blocks migrated to this
   * executor when another is decommissioned are deleted with the shuffle (SPARK-46957). That
   * constructor exists from Spark 3.5.2; on 3.5.0 and 3.5.1 the resolver keeps its own map, as
   * Spark's own sort shuffle does there, and migrated blocks stay until the executor ends. The
   * choice is made on the constructor itself, not on a version string.
   */
  override def blockResolver(
      conf: SparkConf,
      mapTaskIds: ConcurrentHashMap[Int, OpenHashSet[Long]]): IndexShuffleBlockResolver = {
    // Built against 3.5.7 or later, `new IndexShuffleBlockResolver(conf, null)` would still call
    // the three-argument constructor (the third has a default), so both go through reflection.
    val constructors = classOf[IndexShuffleBlockResolver].getConstructors
    def withArity(n: Int) = constructors.find(_.getParameterCount == n)
    val resolver = withArity(3) match {
      case Some(c) => c.newInstance(conf, null, mapTaskIds)
      case None =>
        logWarning(
          s"KAE Shuffle: Spark ${org.apache.spark.SPARK_VERSION}'s IndexShuffleBlockResolver " +
            "cannot share the map of map task ids (from 3.5.2): shuffle blocks migrated to this " +
            "executor by decommissioning are deleted when it ends, not with their shuffle, as " +
            "with Spark's own shuffle on this version")
        withArity(2).get.newInstance(conf, null)
    }
    resolver.asInstanceOf[IndexShuffleBlockResolver]
  }

  override def blocksToRead(
      dep: ShuffleDependency[_, _, _],
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int): BlocksToRead = {
    val tracker = SparkEnv.get.mapOutputTracker
    if (dep.isShuffleMergeFinalizedMarked) {
      val merged = tracker.getPushBasedShuffleMapSizesByExecutorId(
        dep.shuffleId,
        startMapIndex,
        endMapIndex,
        startPartition,
        endPartition)
      BlocksToRead(merged.iter, merged.enableBatchFetch)
    } else {
      val blocks = tracker.getMapSizesByExecutorId(
        dep.shuffleId,
        startMapIndex,
        endMapIndex,
        startPartition,
        endPartition)
      BlocksToRead(blocks, batchFetchAllowed = true)
    }
  }

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

  // Spark 4.0 creates the executor's shuffle manager later, after the user's jars, through this
  // method; Spark 3.5 passes the manager to SparkEnv's constructor. Looked up by its own
  // signature: listing SparkEnv's methods loads every type they name, and Spark 4.3's
  // distribution lacks the protobuf classes its UDF worker methods name.
  override def executorsLoadJarsFirst: Boolean =
    try {
      MethodHandles.publicLookup().findVirtual(
        classOf[SparkEnv],
        "initializeShuffleManager",
        MethodType.methodType(Void.TYPE))
      true
    } catch { case _: NoSuchMethodException => false }
}
