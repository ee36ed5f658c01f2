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

import org.apache.spark.{Aggregator, InterruptibleIterator, ShuffleDependency, TaskContext}
import org.apache.spark.util.collection.ExternalSorter

/**
 * What Spark's own reader does with the records once they are read: combine by key when the
 * shuffle has an aggregator, sort when it has a key ordering (Spark's `ExternalSorter`, which
 * spills under memory pressure), exactly as `BlockStoreShuffleReader` does.
 */
private[kae] object ReduceTail {

  def apply[K, C](
      dep: ShuffleDependency[K, _, C],
      context: TaskContext,
      records: InterruptibleIterator[(Any, Any)]): Iterator[Product2[K, C]] = {
    val result: Iterator[Product2[K, C]] = if (dep.keyOrdering.isDefined) {
      sorted(dep, context, records)
    } else if (dep.aggregator.isDefined) {
      if (dep.mapSideCombine) {
        dep.aggregator.get.combineCombinersByKey(records.asInstanceOf[Iterator[(K, C)]], context)
      } else {
        dep.aggregator.get.combineValuesByKey(records.asInstanceOf[Iterator[(K, Nothing)]], context)
      }
    } else {
      records.asInstanceOf[Iterator[(K, C)]]
    }
    result match {
      case _: InterruptibleIterator[Product2[K, C]] => result
      case _ => new InterruptibleIterator[Product2[K, C]](context, result)
    }
  }

  private def sorted[K, C](
      dep: ShuffleDependency[K, _, C],
      context: TaskContext,
      records: Iterator[(Any, Any)]): Iterator[Product2[K, C]] = {
    val ordering = Some(dep.keyOrdering.get)
    val sorter: ExternalSorter[K, _, C] = dep.aggregator match {
      case Some(agg) if dep.mapSideCombine =>
        new ExternalSorter[K, C, C](
          context,
          Option(new Aggregator[K, C, C](identity, agg.mergeCombiners, agg.mergeCombiners)),
          ordering = ordering,
          serializer = dep.serializer)
      case Some(_) =>
        new ExternalSorter[K, Nothing, C](
          context,
          dep.aggregator.asInstanceOf[Option[Aggregator[K, Nothing, C]]],
          ordering = ordering,
          serializer = dep.serializer)
      case None =>
        new ExternalSorter[K, C, C](context, ordering = ordering, serializer = dep.serializer)
    }
    sorter.insertAllAndUpdateMetrics(records.asInstanceOf[Iterator[(K, Nothing)]])
  }
}
