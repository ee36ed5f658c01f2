package org.apache.spark.shuffle.kae

import org.apache.spark.SparkContext

/** Lets tests outside Spark's packages look at what Spark keeps private[spark]. */
object KaeTestAccess {
  def usesKaeShuffle(sc: SparkContext): Boolean =
    sc.env.shuffleManager.isInstanceOf[KaeShuffleManager]
}
