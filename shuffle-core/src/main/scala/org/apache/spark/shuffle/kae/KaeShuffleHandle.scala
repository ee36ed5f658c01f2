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

import org.apache.spark.ShuffleDependency
import org.apache.spark.shuffle.BaseShuffleHandle
import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics

/**
 * A shuffle that KAE Shuffle writes and reads. Shuffles it does not serve get the handles of
 * Spark's sort shuffle, and are written and read by it.
 *
 * @param metrics the shuffle's accumulator; null when no SparkContext was active to register
 *     them (then nothing is counted)
 * @param blockWriter true for the fast writer ([[KaeBlockShuffleWriter]]: relocatable
 *     serializer, no map-side combine), false for [[KaeSortShuffleWriter]]
 */
private[spark] class KaeShuffleHandle[K, V, C](
    shuffleId: Int,
    dependency: ShuffleDependency[K, V, C],
    val metrics: KaeShuffleMetrics,
    val blockWriter: Boolean)
  extends BaseShuffleHandle(shuffleId, dependency)
