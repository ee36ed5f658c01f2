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

import java.nio.file.Files
import java.util.concurrent.atomic.AtomicLong

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{
  BarrierTaskContext,
  HashPartitioner,
  ShuffleDependency,
  SparkConf,
  SparkContext,
  SparkEnv
}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

class KaeShuffleManagerSuite extends AnyFunSuite {
  private def job(sc: SparkContext): (RDD[(Int, Long)], Seq[(Int, Long)]) = {
    val rdd = sc.parallelize(1 to 50000, 4).map(i => (i % 97, i.toLong))
      .partitionBy(new HashPartitioner(5))
    (rdd, rdd.reduceByKey(_ + _).collect().sorted.toSeq)
  }

  private def handleOf(rdd: RDD[_]) =
    rdd.dependencies.head.asInstanceOf[ShuffleDependency[_, _, _]].shuffleHandle

  /** Spark's own result; forced before a test opens its context (one context at a time). */
  private lazy val expected = LocalSpark.withSpark(LocalSpark.conf(kae = false))(job(_)._2)

  private def withKae[T](conf: SparkConf)(f: SparkContext => T): T = {
    expected
    LocalSpark.withSpark(conf)(f)
  }

  test("spark.shuffle.kae.enabled=false sends every shuffle to Spark's sort shuffle") {
    withKae(LocalSpark.conf().set(KaeShuffleConf.ENABLED.key, "false")) { sc =>
      val (rdd, result) = job(sc)
      assert(!handleOf(rdd).isInstanceOf[KaeShuffleHandle[_, _, _]])
      assert(result == expected)
    }
  }

  test("IO encryption: KAE Shuffle encrypts every frame, no plaintext on disk") {
    val conf = LocalSpark.conf().set("spark.io.encryption.enabled", "true")
    withKae(conf) { sc =>
      // Records whose text is known, to look for on disk; the job's own result checks the rest.
      val known = "KNOWN-PLAINTEXT-0123456789"
      val texts = sc.parallelize(1 to 20000, 4).map(i => (i % 50, s"$known-$i"))
        .partitionBy(new HashPartitioner(5))
      assert(handleOf(texts).isInstanceOf[KaeShuffleHandle[_, _, _]])
      assert(texts.count() == 20000)
      val files = ShuffleFiles.mapOutputs(sc, handleOf(texts).shuffleId)
      assert(files.size == 4)
      for (o <- files) {
        val bytes = o.bytes
        assert(bytes.sliding(4).exists(_.sameElements("KAEF".getBytes)), "no KAE frame")
        assert(!bytes.sliding(known.length).exists(_.sameElements(known.getBytes)), o.data)
      }
      val (rdd, result) = job(sc)
      assert(handleOf(rdd).isInstanceOf[KaeShuffleHandle[_, _, _]])
      assert(result == expected)
    }
  }

  test("push-based shuffle stays on: KAE shuffles may be pushed and their merges read") {
    // Spark allows push-based shuffle without YARN in its testing mode. The merge and its reading
    // are tested on YARN with our shuffle service (YarnShuffleServiceSuite).
    val conf = LocalSpark.conf()
      .set("spark.testing", "true")
      .set("spark.shuffle.push.enabled", "true")
    withKae(conf) { sc =>
      val (rdd, result) = job(sc)
      assert(handleOf(rdd).isInstanceOf[KaeShuffleHandle[_, _, _]])
      assert(rdd.dependencies.head.asInstanceOf[ShuffleDependency[_, _, _]].shuffleMergeAllowed)
      assert(sc.getConf.getBoolean("spark.shuffle.push.enabled", false))
      assert(result == expected)
    }
  }

  /**
   * Execution memory in use (on-heap, off-heap) sampled in the map tasks after their last record
   * (the raw block buffers held) and in the reduce tasks after their first (a decode window held).
   */
  private def memoryInUse(conf: SparkConf): (Seq[(Long, Long)], Seq[(Long, Long)]) =
    withKae(conf.set(KaeShuffleConf.BLOCK_SIZE.key, "16k")) { sc =>
      def inUse() = {
        val m = SparkEnv.get.memoryManager
        (m.onHeapExecutionMemoryUsed, m.offHeapExecutionMemoryUsed)
      }
      val atMapEnd = sc.collectionAccumulator[(Long, Long)]("map")
      val rdd = sc.parallelize(1 to 40000, 4).map { i =>
        if (i % 10000 == 0) atMapEnd.add(inUse()) // a map task's last record
        (i % 97, "v" * 100 + i)
      }.partitionBy(new HashPartitioner(5))
      val atReduce = rdd.mapPartitions { it =>
        it.next() // the first stream is being decoded ahead
        val sample = inUse()
        it.foreach(_ => ())
        Iterator(sample)
      }.collect().toSeq
      (atMapEnd.value.asScala.toSeq, atReduce)
    }

  test("direct memory is counted in Spark's off-heap pool when it has one, else on-heap") {
    val (mapOff, reduceOff) = memoryInUse(LocalSpark.conf()
      .set("spark.memory.offHeap.enabled", "true")
      .set("spark.memory.offHeap.size", "64m"))
    assert(mapOff.size == 4 && mapOff.forall(_._2 > 0), mapOff)
    assert(reduceOff.size == 5 && reduceOff.forall(_._2 > 0), reduceOff)
    val (mapOn, reduceOn) = memoryInUse(LocalSpark.conf())
    assert(mapOn.forall { case (on, off) => on > 0 && off == 0 }, mapOn)
    assert(reduceOn.forall { case (on, off) => on > 0 && off == 0 }, reduceOn)
  }

  test("a barrier stage writes a KAE shuffle, read with Spark's results") {
    // Barrier map tasks all start together and meet at the barrier before writing their output.
    withKae(LocalSpark.conf()) { sc =>
      val rdd = sc.parallelize(1 to 50000, 4).barrier().mapPartitions { it =>
        BarrierTaskContext.get().barrier()
        it.map(i => (i % 97, i.toLong))
      }.partitionBy(new HashPartitioner(5))
      assert(handleOf(rdd).isInstanceOf[KaeShuffleHandle[_, _, _]])
      assert(rdd.reduceByKey(_ + _).collect().sorted.toSeq == expected)
    }
  }

  test("unregistering a shuffle deletes its files") {
    withKae(LocalSpark.conf()) { sc =>
      val (rdd, result) = job(sc)
      assert(result == expected)
      val shuffleId = handleOf(rdd).shuffleId
      val files = ShuffleFiles.mapOutputs(sc, shuffleId).map(_.data)
      assert(files.size == 4 && files.forall(Files.exists(_)))
      assert(sc.env.shuffleManager.unregisterShuffle(shuffleId))
      assert(files.forall(f => !Files.exists(f)), "data files left behind")
    }
  }

  test("spark.shuffle.kae.writer.maxMemory makes the block writer spill") {
    // 100 raw buffers of 16 KiB do not fit in 1 MiB: partial blocks are sealed to disk.
    val spilled = new AtomicLong
    val conf = LocalSpark.conf().set(KaeShuffleConf.WRITER_MAX_MEMORY.key, "1m")
      .set(KaeShuffleConf.BLOCK_SIZE.key, "16k")
    val result = LocalSpark.withSpark(conf) { sc =>
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
          if (e.taskMetrics != null) spilled.addAndGet(e.taskMetrics.diskBytesSpilled)
      })
      val rdd = sc.parallelize(1 to 400000, 2).map(i => (i % 5000, s"value-$i-${i * 7919}"))
        .partitionBy(new HashPartitioner(100))
      val r = rdd.mapPartitions(it => Iterator(it.map(_._2.length.toLong).sum)).collect().sum
      sc.listenerBus.waitUntilEmpty()
      assert(handleOf(rdd).asInstanceOf[KaeShuffleHandle[_, _, _]].blockWriter)
      r
    }
    val plain = LocalSpark.withSpark(LocalSpark.conf(kae = false)) { sc =>
      sc.parallelize(1 to 400000, 2).map(i => (i % 5000, s"value-$i-${i * 7919}"))
        .partitionBy(new HashPartitioner(100))
        .mapPartitions(it => Iterator(it.map(_._2.length.toLong).sum)).collect().sum
    }
    assert(spilled.get > 0, "the writer must have spilled within 1 MiB")
    assert(result == plain)
  }
}
