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

import org.scalatest.funsuite.AnyFunSuite

class KaeShuffleSmokeSuite extends AnyFunSuite {
  test("reduceByKey and sortByKey through KAE Shuffle give Spark's results") {
    val expected = LocalSpark.withSpark(LocalSpark.conf(kae = false)) { sc =>
      val rdd = sc.parallelize(1 to 200000, 8).map(i => (i % 1000, i.toLong))
      (
        rdd.reduceByKey(_ + _).collect().sorted.toSeq,
        rdd.map { case (k, v) => (v, k) }.sortByKey().take(50).toSeq)
    }
    val actual = LocalSpark.withSpark(LocalSpark.conf()) { sc =>
      assert(sc.env.shuffleManager.isInstanceOf[KaeShuffleManager])
      val rdd = sc.parallelize(1 to 200000, 8).map(i => (i % 1000, i.toLong))
      (
        rdd.reduceByKey(_ + _).collect().sorted.toSeq,
        rdd.map { case (k, v) => (v, k) }.sortByKey().take(50).toSeq)
    }
    assert(actual == expected)
  }
}
