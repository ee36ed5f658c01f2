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

import org.apache.spark.shuffle.HostLocalShuffleReadingSuite

/**
 * Spark's `HostLocalShuffleReadingSuite` (executors on one host read each other's files from
 * disk, with and without an external shuffle service). Its SparkConf loads the system
 * properties, where this module's build sets spark.shuffle.manager to ours. The gate reads
 * host-local files without the external shuffle service (its own local-cluster each test).
 */
class KaeHostLocalShuffleReadingSuite
  extends HostLocalShuffleReadingSuite with KaeShuffleInUse with NamedMatrixTests {

  override protected def inGate(testName: String): Boolean =
    testName != "host local shuffle reading with external shuffle service enabled (SPARK-27651)"
}
