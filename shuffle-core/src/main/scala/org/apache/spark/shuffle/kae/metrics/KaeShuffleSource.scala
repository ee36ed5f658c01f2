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
package metrics

import com.codahale.metrics.{Counter, MetricRegistry}

import org.apache.spark.SparkEnv
import org.apache.spark.internal.Logging
import org.apache.spark.metrics.source.Source

/**
 * KAE Shuffle's counts in Spark's metrics system (docs/metrics.md): one counter per count of
 * [[KaeShuffleMetrics.Names]], named without the `kae.shuffle.` prefix (`write.codecCalls`), so
 * Spark's sinks (its `PrometheusServlet`, JMX, Graphite, CSV) publish them under Spark's naming,
 * `<namespace>.<executor id>.<source name>.write.codecCalls`.
 *
 * Two sources, never the same counts twice under one name:
 *  - [[KaeShuffleSource.Tasks]] in every JVM that runs tasks: what this JVM's tasks did, added as
 *    each task reports to its shuffle's accumulator (successful or not: the work was done);
 *  - [[KaeShuffleSource.Application]] on the driver: the application's totals, the successful
 *    tasks' accumulator updates as Spark merges them into the shuffles' accumulators.
 */
private[spark] final class KaeShuffleSource(override val sourceName: String) extends Source {
  override val metricRegistry: MetricRegistry = new MetricRegistry

  private val counters: Map[String, Counter] = KaeShuffleMetrics.Names
    .map(n => n -> metricRegistry.counter(n.stripPrefix(KaeShuffleMetrics.Prefix))).toMap

  def add(c: ShuffleCounts): Unit =
    c.foreach((name, v) => counters(name).inc(v))

  /** The count of a metric named in [[KaeShuffleMetrics]]. */
  def apply(name: String): Long = counters(name).getCount
}

private[spark] object KaeShuffleSource extends Logging {

  /** The source of a JVM's tasks. */
  val Tasks = "KaeShuffle"

  /** The driver's source of the application's totals. */
  val Application = "KaeShuffleApplication"

  /**
   * Registers `source` with this JVM's metrics system. Called when the first shuffle needs it,
   * because Spark names sources by the application and executor ids, which are not known yet
   * where the shuffle manager is made (on the driver, before the scheduler gives the app its id).
   */
  def register(source: KaeShuffleSource): Unit = Option(SparkEnv.get) match {
    case Some(env) => env.metricsSystem.registerSource(source)
    case None =>
      logWarning(s"No SparkEnv: the ${source.sourceName} metrics source is not published.")
  }
}
