package org.apache.spark.shuffle.kae

import org.apache.spark.SparkContext

/** Lets the tests and benchmarks, outside Spark's packages, use what Spark keeps private. */
object KaeSparkAccess {
  def usesKaeShuffle(sc: SparkContext): Boolean =
    sc.env.shuffleManager.isInstanceOf[KaeShuffleManager]

  /** Waits until every listener has seen every event posted so far. */
  def drainListeners(sc: SparkContext): Unit = sc.listenerBus.waitUntilEmpty()
}
