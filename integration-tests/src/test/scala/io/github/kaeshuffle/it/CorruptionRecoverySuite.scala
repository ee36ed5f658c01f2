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

import java.io.RandomAccessFile
import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{FetchFailed, HashPartitioner, SparkContext, SparkException}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.{KaeSparkAccess, ShuffleFiles}

/**
 * Bytes flipped in a committed `.data` file between two jobs: the second job's read detects it,
 * fails the fetch, Spark re-runs the map stage, and the result is still exactly right - with
 * segments read whole from their file or mapped and decompressed ahead, and as they stream in.
 */
class CorruptionRecoverySuite extends AnyFunSuite {
  private def data(sc: SparkContext): RDD[(Int, String)] =
    sc.parallelize(1 to 60000, 4).map(i => (i % 1000, s"value-$i"))
      .partitionBy(new HashPartitioner(4))

  private def answer(rdd: RDD[(Int, String)]): Seq[(Int, Long)] =
    rdd.mapValues(_.length.toLong).reduceByKey(_ + _).collect().sorted.toSeq

  private lazy val expected = Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { s =>
    answer(data(s.sparkContext))
  }

  /** Applies `damage` to every map output file of shuffle 0 with this suffix; returns the count. */
  private def corrupt(sc: SparkContext, suffix: String)(damage: RandomAccessFile => Unit): Int = {
    val files = ShuffleFiles.files(ShuffleFiles.localRoot(sc), s"shuffle_0_\\d+_0\\.$suffix")
    for (f <- files) {
      val raf = new RandomAccessFile(f.toFile, "rw")
      try damage(raf)
      finally raf.close()
    }
    files.size
  }

  /**
   * Runs the job, damages its committed files, runs it again: the result must be exactly right.
   * Returns the messages of the fetch failures the second run met.
   */
  private def damagedRun(suffix: String, readPath: Map[String, String] = Map.empty)(
      damage: RandomAccessFile => Unit): Seq[String] = {
    val exp = expected
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo).setAll(readPath)
    Sessions.withSession(conf) { spark =>
      val sc = spark.sparkContext
      val fetchFailures = new ConcurrentLinkedQueue[String]
      sc.addSparkListener(new SparkListener {
        override def onTaskEnd(e: SparkListenerTaskEnd): Unit = e.reason match {
          // A task whose map output was unregistered by another task's fetch failure fails too,
          // for want of a location (no block address): not a read of damaged data.
          case f: FetchFailed if f.bmAddress != null => fetchFailures.add(f.message)
          case _ =>
        }
      })
      val rdd = data(sc)
      rdd.count() // writes and commits the map outputs of shuffle 0
      assert(corrupt(sc, suffix)(damage) == 4, s"expected 4 .$suffix files")
      assert(answer(rdd) == exp) // reads the damaged outputs first
      KaeSparkAccess.drainListeners(sc)
      fetchFailures.asScala.toSeq
    }
  }

  // This job's segments are a few KB: by default each is read whole from its file.
  private val readPaths: Seq[(String, Map[String, String])] = Seq(
    "read whole" -> Map.empty,
    "mapped" -> Map("spark.shuffle.kae.reader.localReadLimit" -> "0"),
    "streamed" -> Map("spark.shuffle.kae.reader.prefetch" -> "false"))

  // The last third of each file is gone: the last partition's segment wholly (the file ends
  // before it starts), the one before it partly.
  for ((path, settings) <- readPaths) {
    test(s"a truncated .data file is detected and the map stage re-run ($path)") {
      assert(damagedRun("data", settings)(raf => raf.setLength(raf.length() * 2 / 3)).nonEmpty)
    }
  }

  test("an .index file with a wrong offset is detected and the map stage re-run") {
    // The end offset of reduce partition 1 (= start of partition 2) moves by 3 bytes: both
    // partitions' ranges are wrong.
    assert(damagedRun("index") { raf =>
      raf.seek(16)
      val end = raf.readLong()
      raf.seek(16)
      raf.writeLong(end + 3)
    }.nonEmpty)
  }

  test("a truncated .index file is detected and the map stage re-run") {
    assert(damagedRun("index")(raf => raf.setLength(raf.length() - 5)).nonEmpty)
  }

  test("a corrupted .checksum file does not change the result (it only serves diagnosis)") {
    // Spark reads the checksum file only to explain a corruption found in the data; the data is
    // intact here, so the job reads it without failures.
    assert(damagedRun("checksum.*")(raf => ShuffleFiles.invert(raf, 0, 1)).isEmpty)
  }

  // Where in a segment a byte is damaged decides which check finds it (the first frame's header
  // before the stream's first byte, the payload's decoder, the index's CRC); each must reach
  // Spark's checksum diagnosis, which names the cause. The last segment of each file is the last
  // partition's: its index is in the file's last 8 + 16 N + 32 bytes, its trailer the last 32.
  private val damagePoints: Seq[(String, Long => Long)] = Seq(
    "the first frame's header" -> (_ => 0L),
    "a frame's payload" -> (length => length / 2),
    "a segment's index" -> (length => length - 40),
    "a segment's trailer" -> (length => length - 1)
  )

  for ((path, settings) <- readPaths; (where, at) <- damagePoints) {
    test(s"a byte damaged in $where: a fetch failure with Spark's diagnosis ($path)") {
      val failures =
        damagedRun("data", settings)(raf => ShuffleFiles.invert(raf, at(raf.length()), 1))
      assert(failures.nonEmpty, "the corruption was not reported as a fetch failure")
      failures.foreach(m => assert(m.contains("corrupted due to DISK_ISSUE"), m))
    }
  }

  test("a reduce task that fails mid-read leaks no window memory") {
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo).set("spark.task.maxFailures", "1")
    Sessions.withSession(conf) { spark =>
      val rdd = data(spark.sparkContext)
      val e = intercept[SparkException] {
        rdd.mapPartitions { it =>
          it.take(100).foreach(identity)
          throw new IllegalStateException("boom")
        }.count()
      }
      // A leak would be reported instead of our exception (spark.unsafe.exceptionOnMemoryLeak).
      assert(e.getMessage.contains("boom"), e.getMessage)
      assert(!e.getMessage.contains("memory leak"), e.getMessage)
      assert(answer(rdd).nonEmpty, "the context still works")
    }
  }
}
