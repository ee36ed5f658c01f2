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
package io.github.kaeshuffle.deploy

import org.apache.spark.{HashPartitioner, SparkContext}
import org.apache.spark.rdd.RDD

/**
 * A small keyed data set for the fault and shuffle-service tests: 4 map tasks of (key, value)
 * pairs whose keys collide across tasks, repartitioned to 8 reducers, and the per-key sums the
 * reduce side must produce.
 */
object Pairs {
  val MapTasks = 4
  val Reducers = 8

  def pairs(sc: SparkContext, perTask: Int = 20000): RDD[(String, Long)] =
    sc.parallelize(0 until MapTasks, MapTasks).flatMap { t =>
      (0 until perTask).iterator.map(j => pair(t, j, perTask))
    }

  def expectedSums(perTask: Int = 20000): Map[String, Long] =
    (0 until MapTasks).flatMap(t => (0 until perTask).map(j => pair(t, j, perTask)))
      .groupBy(_._1).map { case (k, kvs) => k -> kvs.map(_._2).sum }

  private def pair(t: Int, j: Int, perTask: Int): (String, Long) =
    (s"key-${(t * 7919 + j * 31) % 5000}", (t * perTask + j).toLong)

  /** A plain repartition: KAE's block writer with Kryo. */
  def partitioned(sc: SparkContext): RDD[(String, Long)] =
    pairs(sc).partitionBy(new HashPartitioner(Reducers))

  /** Sums per key on the reduce side. */
  def sumsOf(shuffled: RDD[(String, Long)]): Map[String, Long] =
    shuffled.mapPartitions { it =>
      val m = scala.collection.mutable.HashMap.empty[String, Long]
      it.foreach { case (k, v) => m(k) = m.getOrElse(k, 0L) + v }
      m.iterator
    }.collect().toMap
}
