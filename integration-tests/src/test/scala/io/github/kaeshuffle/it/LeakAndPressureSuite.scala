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

import java.lang.management.{BufferPoolMXBean, ManagementFactory}
import java.util.concurrent.atomic.AtomicLong

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.codec.DirectMemory
import io.github.kaeshuffle.bench.ShuffleTotals
import io.github.kaeshuffle.deploy.Pairs
import io.github.kaeshuffle.workloads.WorkloadJobs
import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.{HashPartitioner, SparkContext, Success}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * Memory over many tasks and under pressure: 1,000 tasks leave no task memory
 * (`spark.unsafe.exceptionOnMemoryLeak`), no mapped buffers and no direct memory behind; executors
 * with little execution memory spill (map and reduce side) instead of failing.
 */
class LeakAndPressureSuite extends AnyFunSuite {

  private def pool(name: String): BufferPoolMXBean =
    ManagementFactory.getPlatformMXBeans(classOf[BufferPoolMXBean]).asScala
      .find(_.getName == name).get

  /** This JVM's open file descriptors (Linux; 0 elsewhere). */
  private def openFiles(): Int =
    Option(new java.io.File("/proc/self/fd").list()).map(_.length).getOrElse(0)

  private def manyTasks(sc: SparkContext): Long =
    sc.parallelize(0 until 50000, 500).map(i => (i % 997, i.toLong))
      .partitionBy(new HashPartitioner(500))
      .mapPartitions(it => Iterator(it.map(_._2).sum)).collect().sum

  for (window <- Seq("direct", "mapped")) {
    test(s"1,000 tasks leak no task, direct or mapped memory ($window window)") {
      val conf = Sessions.conf(Some("auto"), Sessions.Kryo, "local[2]")
        .set("spark.shuffle.kae.reader.window", window)
        .set("spark.shuffle.kae.blockSize", "16k")
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val tasks = new AtomicLong
        sc.addSparkListener(new SparkListener {
          override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
            if (e.reason == Success) tasks.incrementAndGet()
        })
        val expected = (0 until 50000).map(_.toLong).sum
        assert(manyTasks(sc) == expected) // warms up pools, codecs and threads
        System.gc()
        val mapped = pool("mapped")
        val direct = pool("direct")
        val (mappedCount, directBytes) = (mapped.getCount, direct.getMemoryUsed)
        val ourMapped = DirectMemory.mappedBytes()
        val files = openFiles()
        tasks.set(0)
        assert(manyTasks(sc) == expected)
        KaeSparkAccess.drainListeners(sc)
        assert(tasks.get == 1000, s"${tasks.get} tasks")
        // Every segment map and decode window is released explicitly when its task ends.
        assert(
          mapped.getCount <= mappedCount,
          s"mapped buffers: ${mapped.getCount} after, $mappedCount before")
        assert(
          direct.getMemoryUsed <= directBytes + (1L << 20),
          s"direct memory: ${direct.getMemoryUsed} after, $directBytes before")
        // Large buffers are mapped from the kernel by the native library, outside those pools.
        assert(
          DirectMemory.mappedBytes() <= ourMapped,
          s"KAE Shuffle's mapped buffers: ${DirectMemory.mappedBytes()} bytes after, " +
            s"$ourMapped before")
        // Every fetched stream is closed when its task ends, read to its end or not (each of
        // the 500 reduce tasks reads about 100 streams: a leak shows as thousands of files).
        assert(openFiles() <= files + 100, s"open files: ${openFiles()} after, $files before")
      }
    }
  }

  /** Sorted within partitions by (key, value): a total order, so the digest is deterministic. */
  private def sorted(sc: SparkContext): RDD[((String, Long), Int)] =
    Pairs.pairs(sc, 150000).map(p => (p, 1))
      .repartitionAndSortWithinPartitions(new HashPartitioner(8))

  test("executors with little execution memory spill on both sides and give Spark's result") {
    val expected = Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
      WorkloadJobs.ordered(sorted(spark.sparkContext))
    }
    val spilled = new AtomicLong
    val actual = Sessions.withTestingMode {
      Sessions.withSession(Sessions.conf(Some("auto"), Sessions.Kryo, "local-cluster[2,1,1024]")
        .set("spark.executor.memory", "512m")
        .set("spark.memory.fraction", "0.02")
        .set("spark.shuffle.spill.initialMemoryThreshold", "65536")) { spark =>
        val sc = spark.sparkContext
        Sessions.addToTotal(sc, spilled)(_.diskBytesSpilled)
        val d = WorkloadJobs.ordered(sorted(sc))
        KaeSparkAccess.drainListeners(sc)
        d
      }
    }
    assert(actual.sameAs(expected), s"KAE $actual vs Spark $expected")
    assert(spilled.get > 0, "nothing was spilled: the pressure was not real")
  }

  /** 16 partitions of about 600 KB from each of two map tasks, every key and value kept. */
  private def wide(sc: SparkContext): Seq[(Int, Long, Long)] =
    sc.parallelize(0 until 400000, 2)
      .map(i => (i % 16, s"value-$i-" + "x" * (i % 23)))
      .partitionBy(new HashPartitioner(16))
      .mapPartitions { it =>
        val rows = it.toSeq
        Iterator((rows.head._1, rows.size.toLong, rows.map(_._2.hashCode.toLong).sum))
      }
      .collect().toSeq.sortBy(_._1)

  test("large buffers bounded at two blocks park raw bytes and give Spark's result") {
    val expected =
      Sessions.withSession(Sessions.conf(None, Sessions.Kryo))(s => wide(s.sparkContext))
    val totals = new ShuffleTotals
    val mapped = DirectMemory.mappedBytes()
    val actual = Sessions.withSession(Sessions.conf(Some("auto"), Sessions.Kryo)
      .set("spark.shuffle.kae.blockSize", "256k") // the sessions' 16k never outgrows a chain
      .set("spark.shuffle.kae.writer.largeBufferMemory", "512k")) { spark =>
      val sc = spark.sparkContext
      sc.addSparkListener(totals)
      val rows = wide(sc)
      KaeSparkAccess.drainListeners(sc)
      rows
    }
    assert(actual == expected)
    // 16 partitions of 600 KB each in a task cannot all grow to 256 KiB blocks under 512 KiB.
    assert(totals.kaeTotal("write.parkedBytes") > 1000000, totals.kaeTotal("write.parkedBytes"))
    // Parking changes no block: every frame but each segment's last is a full block.
    val written = totals.kaeTotal("write.rawBytes")
    val calls = totals.kaeTotal("write.codecCalls")
    assert(calls <= written / (256 * 1024) + 2 * 16, s"$calls calls for $written bytes")
    assert(DirectMemory.mappedBytes() == mapped, "large buffers left mapped")
  }
}
