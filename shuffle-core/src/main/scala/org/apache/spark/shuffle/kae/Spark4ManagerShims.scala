package org.apache.spark.shuffle.kae

import java.util.concurrent.ConcurrentHashMap

import org.apache.spark.{SparkConf, SparkEnv, TaskContext}
import org.apache.spark.shuffle.IndexShuffleBlockResolver
import org.apache.spark.shuffle.sort.SortShuffleManager
import org.apache.spark.storage.{BlockId, BlockManagerId}
import org.apache.spark.util.collection.OpenHashSet

/** [[ManagerShims]] for Spark 4.x (the resolver's three-argument constructor exists from 3.5.2). */
private[spark] object Spark4ManagerShims extends ManagerShims {

  override def blockResolver(conf: SparkConf,
      mapTaskIds: ConcurrentHashMap[Int, OpenHashSet[Long]]): IndexShuffleBlockResolver =
    new IndexShuffleBlockResolver(conf, null, mapTaskIds)

  override def blocksToRead(shuffleId: Int, startMapIndex: Int, endMapIndex: Int,
      startPartition: Int, endPartition: Int)
      : Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])] =
    SparkEnv.get.mapOutputTracker.getMapSizesByExecutorId(
      shuffleId, startMapIndex, endMapIndex, startPartition, endPartition)

  override def canUseBatchFetch(startPartition: Int, endPartition: Int, context: TaskContext)
      : Boolean = SortShuffleManager.canUseBatchFetch(startPartition, endPartition, context)
}
