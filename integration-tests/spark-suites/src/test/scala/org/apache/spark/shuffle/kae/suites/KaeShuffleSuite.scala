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

import org.apache.spark.ShuffleSuite
import org.apache.spark.internal.config.SHUFFLE_MANAGER

/**
 * Spark's own `ShuffleSuite` (its RDD shuffle conformance tests, local and local-cluster) with
 * KaeShuffleManager, set as Spark's `SortShuffleSuite` sets Spark's own manager.
 */
class KaeShuffleSuite extends ShuffleSuite with KaeShuffleInUse with NamedMatrixTests {

  /**
   * Each of these starts a local-cluster of its own (10-20 s): the gate keeps every local test
   * and two across executor JVMs (zero-sized blocks fetched, the checksum's diagnosis of disk
   * corruption); the matrix runs them all.
   */
  override protected def inGate(testName: String): Boolean = !Set(
    "zero sized blocks without kryo",
    "sorting on mutable pairs",
    "cogroup using mutable pairs",
    "subtract mutable pairs",
    "shuffle on mutable pairs",
    "shuffle serializer",
    "shuffle non-zero block size",
    "sort with Java non serializable class - Java",
    "sort with Java non serializable class - Kryo"
  ).contains(testName)

  override def beforeAll(): Unit = {
    super.beforeAll()
    conf.set(SHUFFLE_MANAGER, KaeShuffleInUse.Manager)
  }
}
