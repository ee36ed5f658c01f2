package org.apache.spark.shuffle.kae

import org.apache.spark.ShuffleDependency
import org.apache.spark.shuffle.BaseShuffleHandle

/**
 * A shuffle that KAE Shuffle writes and reads. Shuffles it does not serve get the handles of
 * Spark's sort shuffle, and are written and read by it.
 *
 * @param metrics the shuffle's accumulators; null when no SparkContext was active to register
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
