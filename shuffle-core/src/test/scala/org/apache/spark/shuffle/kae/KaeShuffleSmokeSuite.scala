package org.apache.spark.shuffle.kae

import org.scalatest.funsuite.AnyFunSuite

class KaeShuffleSmokeSuite extends AnyFunSuite {
  test("reduceByKey and sortByKey through KAE Shuffle give Spark's results") {
    val expected = LocalSpark.withSpark(LocalSpark.conf(kae = false)) { sc =>
      val rdd = sc.parallelize(1 to 200000, 8).map(i => (i % 1000, i.toLong))
      (rdd.reduceByKey(_ + _).collect().sorted.toSeq,
        rdd.map { case (k, v) => (v, k) }.sortByKey().take(50).toSeq)
    }
    val actual = LocalSpark.withSpark(LocalSpark.conf()) { sc =>
      assert(sc.env.shuffleManager.isInstanceOf[KaeShuffleManager])
      val rdd = sc.parallelize(1 to 200000, 8).map(i => (i % 1000, i.toLong))
      (rdd.reduceByKey(_ + _).collect().sorted.toSeq,
        rdd.map { case (k, v) => (v, k) }.sortByKey().take(50).toSeq)
    }
    assert(actual == expected)
  }
}
