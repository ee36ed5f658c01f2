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

import java.nio.file.{Path, Paths}
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicLong

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.bench.ShuffleTotals
import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import io.github.kaeshuffle.testing.{MatrixTests, TestScope}

import org.apache.spark.{FetchFailed, HashPartitioner, ShuffleDependency}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.shuffle.kae.{KaeSparkAccess, ShuffleFiles}

/**
 * KAE Shuffle across separate executor JVMs (local-cluster: 2 workers, 1 core and 1 GiB each):
 * executors load the manager from the class path, fetch each other's blocks over Netty, and the
 * workloads give Spark's results - every workload with `auto`, three with every other codec. The
 * gate runs `auto` with the three (the codecs are Spark-free, and it runs each in local mode).
 */
class LocalClusterSuite extends MatrixTests {
  private val Master = "local-cluster[2,1,1024]"
  private val All = Seq(
    "sort",
    "wordcount",
    "lda-edges",
    "sql-join",
    "groupby-skew",
    "groupby-skew-sql",
    "incompressible")
  private val Few = Seq("sort", "lda-edges", "groupby-skew-sql")

  private lazy val expected = Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
    All.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)).toMap
  }

  for (codec <- Sessions.Codecs) {
    val workloads = if (codec == "auto" && TestScope.full) All else Few
    gateTestIf(codec == "auto")(
      s"codec $codec in local-cluster with remote fetches: ${workloads.mkString(", ")}") {
      val exp = expected
      val remoteBytes = new AtomicLong
      val totals = new ShuffleTotals
      val actual = Sessions.withTestingMode {
        Sessions.withSession(Sessions.conf(Some(codec), Sessions.Kryo, Master)
          .set("spark.executor.memory", "512m")) { spark =>
          val sc = spark.sparkContext
          Sessions.addToTotal(sc, remoteBytes)(_.shuffleReadMetrics.remoteBytesRead)
          sc.addSparkListener(totals)
          assert(KaeSparkAccess.usesKaeShuffle(sc))
          val result = workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4))
            .toMap
          KaeSparkAccess.drainListeners(sc)
          result
        }
      }
      for (w <- workloads) {
        assert(actual(w).sameAs(exp(w)), s"$w: KAE ${actual(w)} vs Spark ${exp(w)}")
      }
      assert(remoteBytes.get > 0, "no block was fetched from another executor")
      // Fetched ranges are decoded from Netty's buffers: in place, or gathered with one copy.
      val inPlace = totals.kaeTotal("read.inPlaceBytes")
      val copied = totals.kaeTotal("read.copiedBytes")
      info(s"fetched bytes decoded in place: $inPlace, copied once: $copied, mapped locally: " +
        s"${totals.kaeTotal("read.mappedBytes")}, read locally: " +
        totals.kaeTotal("read.fileReadBytes"))
      assert(inPlace > 0, "no fetched range was decoded in place")
    }
  }

  matrixTest(
    "a shuffle that fell back to Spark's is deleted from the executors when unregistered") {
    // spark.shuffle.kae.enabled=false sends every shuffle to Spark's sort shuffle (the manager's
    // superclass), on the driver when it is registered and on the executors that write and later
    // delete it.
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, Master)
      .set("spark.executor.memory", "512m")
      .set("spark.shuffle.kae.enabled", "false")
    val localDir = Paths.get(conf.get("spark.local.dir"))
    Sessions.withTestingMode {
      // The workers must put executors' dirs under this application's spark.local.dir.
      KaeSparkAccess.clearLocalRootDirs()
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        val rdd = sc.parallelize(1 to 20000, 4).map(i => (i % 50, i.toLong)).reduceByKey(_ + _)
        assert(rdd.map(_._2).sum() == (1 to 20000).map(_.toLong).sum)
        val shuffleId = rdd.dependencies.head.asInstanceOf[ShuffleDependency[_, _, _]].shuffleId
        val written = dataFiles(localDir, shuffleId)
        assert(written.size == 4, s"the executors' data files under $localDir: $written")
        KaeSparkAccess.removeShuffle(sc, shuffleId)
        assert(dataFiles(localDir, shuffleId).isEmpty, "files left on the executors")
      }
    }
  }

  test("a block damaged on another executor is fetched again, then fails with Spark's diagnosis") {
    // One executor's map outputs are damaged, every partition. A reduce task on the other executor
    // fetches them over the network: Spark fetches a block found corrupt once more, and only the
    // second time asks the checksum for the cause, so a remote fetch failure that names it was
    // fetched twice. The failed fetches re-run the map stage and the result is exactly right.
    val conf = Sessions.conf(Some("auto"), Sessions.Kryo, Master)
      .set("spark.executor.memory", "512m")
    val localDir = Paths.get(conf.get("spark.local.dir"))
    val failures = new ConcurrentLinkedQueue[(String, String, String)]
    val sums = Sessions.withTestingMode {
      KaeSparkAccess.clearLocalRootDirs()
      Sessions.withSession(conf) { spark =>
        val sc = spark.sparkContext
        sc.addSparkListener(new SparkListener {
          override def onTaskEnd(e: SparkListenerTaskEnd): Unit = e.reason match {
            case f: FetchFailed if f.bmAddress != null =>
              failures.add((e.taskInfo.executorId, f.bmAddress.executorId, f.message))
            case _ =>
          }
        })
        val rdd = sc.parallelize(1 to 60000, 4).map(i => (i % 1000, s"value-$i"))
          .partitionBy(new HashPartitioner(8))
        rdd.count() // writes and commits the map outputs of shuffle 0
        val outputs = KaeSparkAccess.mapOutputs(sc, 0)
        val damaged = outputs.head._1
        val mapIds = outputs.collect { case (e, mapId) if e == damaged => mapId }.toSet
        val files = ShuffleFiles.mapOutputs(localDir, 0).filter(o => mapIds.contains(o.mapId))
        assert(files.size == mapIds.size, s"the damaged executor's map outputs: $files")
        // One byte in the middle of every segment.
        for (file <- files; p <- file.nonEmptyPartitions) file.damageSegment(p, 1)
        // Partitioned alike: reads shuffle 0 again, no new shuffle.
        val r = rdd.mapValues(_.length.toLong).reduceByKey(_ + _).collect().sorted.toSeq
        KaeSparkAccess.drainListeners(sc)
        r
      }
    }
    val expected = (1 to 60000).groupBy(_ % 1000).map { case (k, is) =>
      (k, is.map(i => s"value-$i".length.toLong).sum)
    }.toSeq.sorted
    assert(sums == expected)
    val remote = failures.asScala.filter { case (task, block, _) => task != block }
    assert(remote.nonEmpty, s"no reduce task met the damage over the network: $failures")
    remote.foreach { case (_, _, message) =>
      assert(message.contains("corrupted due to DISK_ISSUE"), message)
    }
  }

  /** Data files of a shuffle under `root` (the workers put their executors' dirs there). */
  private def dataFiles(root: Path, shuffleId: Int): Seq[Path] =
    ShuffleFiles.files(root, s"shuffle_${shuffleId}_\\d+_\\d+\\.data")

  test("spark.authenticate with network and IO encryption across executors") {
    val exp = expected
    val workloads = Seq("sort", "lda-edges", "sql-join")
    val remoteBytes = new AtomicLong
    val actual = Sessions.withTestingMode {
      Sessions.withSession(Sessions.conf(Some("auto"), Sessions.Kryo, Master)
        .set("spark.executor.memory", "512m")
        .set("spark.authenticate", "true")
        .set("spark.authenticate.secret", "kae-shuffle-test-secret")
        .set("spark.network.crypto.enabled", "true")
        .set("spark.io.encryption.enabled", "true")) { spark =>
        val sc = spark.sparkContext
        Sessions.addToTotal(sc, remoteBytes)(_.shuffleReadMetrics.remoteBytesRead)
        val r = workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)).toMap
        KaeSparkAccess.drainListeners(sc)
        r
      }
    }
    for (w <- workloads) assert(actual(w).sameAs(exp(w)), s"$w: ${actual(w)} vs ${exp(w)}")
    assert(remoteBytes.get > 0, "no block was fetched over the encrypted channel")
  }
}
