package org.apache.spark.shuffle.kae

import org.apache.spark.{ShuffleDependency, SparkContext}

/** Lets the tests and benchmarks, outside Spark's packages, use what Spark keeps private. */
object KaeSparkAccess {
  def usesKaeShuffle(sc: SparkContext): Boolean =
    sc.env.shuffleManager.isInstanceOf[KaeShuffleManager]

  def shuffleManagerClass(sc: SparkContext): String = sc.env.shuffleManager.getClass.getName

  /** Ids of the executors the driver knows now. */
  def executorIds(sc: SparkContext): Seq[String] = sc.getExecutorIds()

  /** Runs only the map stage of a shuffle and waits for it. */
  def runMapStage(sc: SparkContext, dep: ShuffleDependency[_, _, _]): Unit =
    sc.submitMapStage(dep).get()

  /**
   * Forgets the local root dirs Spark cached for this JVM, so the next SparkContext (and the
   * local-cluster workers in this JVM) takes `spark.local.dir` from its own configuration.
   */
  def clearLocalRootDirs(): Unit = org.apache.spark.util.Utils.clearLocalRootDirs()

  /** Waits until every listener has seen every event posted so far. */
  def drainListeners(sc: SparkContext): Unit = sc.listenerBus.waitUntilEmpty()
}
