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
package io.github.kaeshuffle.it

import java.util.concurrent.ConcurrentHashMap

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted}
import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * What the metrics tests compare every published count with: KAE Shuffle's accumulators, totalled
 * over the application's completed stages. Created before the jobs run, it listens from then on.
 */
final class KaeCountTotals(spark: SparkSession) {
  private val accumulators = new ConcurrentHashMap[Long, Map[String, Long]]()
  spark.sparkContext.addSparkListener(new SparkListener {
    override def onStageCompleted(e: SparkListenerStageCompleted): Unit =
      accumulators.putAll(KaeSparkAccess.kaeAccumulators(e.stageInfo).asJava)
  })

  /** The metrics tests' jobs: an RDD sort and a skewed SQL aggregation, tiny. */
  def runWorkloads(): Unit =
    for (w <- Seq("sort", "groupby-skew-sql")) {
      WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)
    }

  /** Each count's total over the stages completed so far (0 for a count never seen). */
  def totals(): Map[String, Long] = {
    KaeSparkAccess.drainListeners(spark.sparkContext)
    accumulators.values.asScala
      .foldLeft(Map.empty[String, Long])(KaeSparkAccess.sumCounts)
      .withDefaultValue(0L)
  }
}
