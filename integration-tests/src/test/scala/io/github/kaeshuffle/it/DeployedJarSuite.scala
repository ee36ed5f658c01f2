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

import java.util.zip.ZipFile

import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.workloads.WorkloadJobs
import io.github.kaeshuffle.testing.{MatrixTests, TestScope}

import org.apache.spark.shuffle.kae.KaeSparkAccess

/**
 * The deployable jar as users ship it: applications submitted with `spark-submit` from a Spark
 * distribution (separate driver and executor JVMs, local-cluster), KAE Shuffle loaded only from
 * that jar - with `spark.jars`, and with the driver's and executors' extra class paths.
 */
class DeployedJarSuite extends MatrixTests {
  private val Master = "local-cluster[2,1,1024]"
  // An RDD and a SQL workload: what the gate submits (the matrix: every workload).
  private val Few = Seq("sort", "groupby-skew-sql")

  private def base(codec: String): Map[String, String] = Map(
    "spark.shuffle.manager" -> Submit.Manager,
    "spark.shuffle.kae.codec" -> codec,
    "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
    "spark.executor.memory" -> "512m",
    "spark.driver.memory" -> "768m",
    "spark.ui.enabled" -> "false",
    "spark.sql.shuffle.partitions" -> "8"
  )

  test("the jar holds our classes and native libraries, nothing of Spark's") {
    val zip = new ZipFile(Submit.distJar)
    val names =
      try zip.entries().asScala.map(_.getName).toList // strict: read before the close
      finally zip.close()
    assert(names.contains("org/apache/spark/shuffle/kae/KaeShuffleManager.class"))
    // The host's library always; both with kae.native.cross=true (auto: where a cross compiler
    // was found, and the build said which it carries).
    val host = if (sys.props("os.arch") == "aarch64") "aarch64" else "x86_64"
    val carried = Seq("x86_64", "aarch64")
      .filter(a => names.exists(_.matches(s"linux/$a/libkaeshuffle-.*\\.so")))
    assert(carried.contains(host), s"no $host library: $carried")
    if (sys.props.get("kaeshuffle.test.cross").contains("true")) {
      assert(carried == Seq("x86_64", "aarch64"), s"kae.native.cross=true, but only $carried")
    }
    // The event-log command, its chart and the codec's reference measure are a tool's.
    assert(
      !names.exists(n =>
        Seq("KaeShuffleDoctor", "DoctorChart", "CodecRates")
          .exists(n.contains)),
      "the doctor command is not in the runtime jar")
    val foreign = names.filter(n =>
      n.endsWith(".class") &&
        !n.startsWith("io/github/kaeshuffle/") && !n.startsWith("org/apache/spark/shuffle/kae/"))
    assert(foreign.isEmpty, s"classes that are not ours: ${foreign.take(5)}")
  }

  /**
   * Submits the workloads and checks that they gave Spark's results through our manager, which
   * compressed and decompressed blocks.
   */
  private def submitAndCheck(
      name: String,
      conf: Map[String, String],
      workloads: Seq[String],
      env: Map[String, String] = Map.empty): Submit.Report = {
    val expected = Sessions.expected(workloads)
    val report = Submit.run(name, Master, "client", conf, workloads, env = env)
    report.assertSame(expected)
    assert(report.manager == Submit.Manager, s"log: ${report.log}")
    assert(report.long("kae.write.codecCalls") > 0, s"no block was compressed: ${report.lines}")
    assert(report.long("kae.read.codecCalls") > 0, s"no block was decompressed: ${report.lines}")
    report
  }

  // Where the line runs on Java 11 (3.5), the gate ships the jar this way on Java 11 below.
  gateTestIf(Sessions.olderJavaHome.isEmpty)(
    "spark-submit with spark.jars: the workloads give Spark's results") {
    val workloads = if (TestScope.full) WorkloadJobs.Names else Few
    submitAndCheck("jars", base("auto") ++ Submit.withJars(), workloads)
  }

  if (!KaeSparkAccess.executorsLoadJarsFirst) {
    test("spark.jars alone, where executors load it after the shuffle manager, stops the start") {
      val ended = Submit.launch(
        "jars-only",
        Master,
        "client",
        base("zlib") + ("spark.jars" -> Submit.distJar.getAbsolutePath),
        Seq("sort"),
        timeoutSeconds = 120)
      val log = Submit.tail(ended.log, 400)
      assert(ended.code != 0, s"the application ran:\n$log")
      assert(log.contains("before it loads spark.jars"), log)
      assert(log.contains(s"spark.executor.extraClassPath=/path/to/${Submit.distJar.getName}"), log)
      assert(!log.contains("ClassNotFoundException"), log)
    }
  }

  matrixTest("spark-submit with the driver's and executors' extra class paths") {
    submitAndCheck(
      "classpath",
      base("zlib") ++ Submit.onClassPath(),
      Seq("sort", "lda-edges", "sql-join"))
  }

  // Spark 3.5 also runs on Java 8 and 11 (the line's main code is built for 8); Spark 4 needs 17.
  private val olderJavaTest = "on Java 11, which the line's Spark supports, spark-submit with " +
    "spark.jars gives Spark's results"
  if (Sessions.olderJavaHome.isEmpty && sys.props.get("kae.test.olderJava").exists(_ != "none")) {
    ignore(s"$olderJavaTest [${Sessions.OlderJavaMissing}]")(())
  }
  for (javaHome <- Sessions.olderJavaHome) {
    test(olderJavaTest) {
      val report = submitAndCheck(
        "older-java",
        base("auto") ++ Submit.withJars(),
        if (TestScope.full) WorkloadJobs.Names else Few,
        env = Map("JAVA_HOME" -> javaHome))
      val versions = report.javaVersions
      assert(
        versions.nonEmpty && versions.forall(_.startsWith("11.")),
        s"the driver and executors ran on Java ${versions.mkString(", ")} (log: ${report.log})")
    }
  }

  test("on another Spark line the jar stops the application's start and names the jar to use") {
    val other = sys.props("kae.test.otherSparkVersion")
    val otherLine = other.split('.').take(2).mkString(".")
    // A Java application: the other line may run another Scala, which WorkloadApp needs.
    val ended = Submit.launch(
      "wrong-line",
      "local[1]",
      "client",
      base("zlib") + ("spark.jars" -> Submit.distJar.getAbsolutePath),
      Nil,
      mainClass = "io.github.kaeshuffle.deploy.LineCheckApp",
      sparkHome = Sessions.otherSparkHome
    )
    val log = Submit.tail(ended.log, 400)
    assert(ended.code != 0, s"the application ran on Spark $other:\n$log")
    assert(log.contains(s"cannot run on Spark $other"), log)
    // The jar for that Spark's own Scala (its distribution carries one).
    val (otherScala, _) = Sessions.sparkCoreVersions(Sessions.otherSparkHome)
    assert(log.contains(s"Use kae-shuffle-spark${otherLine}_$otherScala-"), log)
    assert(!log.contains("NoSuchMethodError"), log)
  }
}
