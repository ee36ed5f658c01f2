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
package org.apache.spark.shuffle.kae.suites

import io.github.kaeshuffle.testing.NamedMatrixTests

import org.apache.spark.SparkConf
import org.apache.spark.sql.execution.adaptive.AdaptiveQueryExecSuite

/**
 * Spark SQL's `AdaptiveQueryExecSuite` (adaptive execution: coalesced and skew-split partitions,
 * local shuffle reads, stage re-planning, all read through the shuffle manager's partition
 * ranges) with KaeShuffleManager. The gate runs the tests that read through those ranges (by
 * their names: skew, coalescing, local shuffle reads, repartitioning) but the three slowest skew
 * joins (10-20 s each; the other skew tests split the same way), about a quarter of the suite's
 * time; the matrix every test.
 */
class KaeAdaptiveQueryExecSuite
  extends AdaptiveQueryExecSuite with KaeShuffleInUse with NamedMatrixTests {

  override protected def inGate(testName: String): Boolean = excluded.contains(testName) ||
    !Seq("SPARK-33832", "SPARK-37328", "SPARK-37652").exists(testName.startsWith) &&
    "(?i)skew|coalesc|local shuffle|rebalance|partition".r.findFirstIn(testName).isDefined

  override protected def sparkConf: SparkConf =
    super.sparkConf.set("spark.shuffle.manager", KaeShuffleInUse.Manager)

  /**
   * Tests whose plans hang on the byte sizes of Spark's default codec (lz4): their thresholds
   * are a few hundred bytes, set against lz4's sizes of their map outputs (one comments
   * "block size: [88, 97, 97]"). The same five fail with Spark's own shuffle and
   * `spark.io.compression.codec=zstd` (docs/reliability.md). A def: the superclass registers
   * its tests, asking this, before this class's fields exist.
   */
  override protected def excluded: Seq[String] = Seq(
    "SPARK-29544: adaptive skew join with different join types",
    "metrics of the shuffle read",
    "SPARK-35264: Support AQE side shuffled hash join formula",
    "SPARK-35725: Support optimize skewed partitions in RebalancePartitions",
    "SPARK-37357: Add small partition factor for rebalance partitions"
  )
}
