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
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration
import scala.jdk.CollectionConverters._

import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo
import org.apache.spark.shuffle.kae.ShuffleFiles
import io.github.kaeshuffle.testing.MatrixTests

/**
 * Our shuffle service in a real NodeManager: Hadoop's own NodeManager, in its own process
 * ([[NodeManagerProcess]]: unshaded Hadoop 3.5 jars, reload4j logging, NodeManager recovery on)
 * registered with a MiniYARNCluster's ResourceManager, loads `KaeYarnShuffleService` from the
 * `-yarn` jar the build makes, in the isolated class loader
 * `yarn.nodemanager.aux-services.spark_shuffle.classpath` sets up, as on a real cluster; beside it
 * MapReduce's `mapreduce_shuffle` (Hadoop's ShuffleHandler), as on clusters that run both, each
 * service's port listening before any test starts.
 *
 * An application with `spark.shuffle.service.enabled`, dynamic allocation and
 * `spark.authenticate` loses every executor after the map stage and still completes, reading
 * through the service. Then the NodeManager is restarted between an application's stages, as an
 * operator restarts one: the process is stopped and a new one started on the same port and
 * directories. The new service must know the gone executors again from its RocksDB state (their
 * registrations and the application's secret) for the reduce stage to read the map output
 * without running the map stage again. The gate runs the push-based application; the matrix
 * every test.
 */
class YarnShuffleServiceSuite extends MatrixTests with OneNodeManager {
  private val servicePort = ClusterFaults.freePort()

  /** A second service of ours, under its own name and port, as another Spark line's jar is. */
  private val secondPort = ClusterFaults.freePort()
  private val SecondName = "spark_shuffle_second"
  protected val yarn = new MiniYarn("kae-yarn-service", nodeManagers = 0)

  override def beforeAll(): Unit = {
    super.beforeAll()
    startCluster(start())
  }

  private def start(): Unit = {
    yarn.start()
    nm = new NodeManagerProcess(
      yarn.config,
      Map(
        "yarn.nodemanager.aux-services" -> s"mapreduce_shuffle,spark_shuffle,$SecondName",
        s"yarn.nodemanager.aux-services.$SecondName.class" ->
          "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
        s"yarn.nodemanager.aux-services.$SecondName.classpath" ->
          YarnDaemon.namedServiceClasspath(SecondName, secondPort, serviceJar),
        "yarn.nodemanager.aux-services.mapreduce_shuffle.class" ->
          "org.apache.hadoop.mapred.ShuffleHandler",
        "yarn.nodemanager.aux-services.spark_shuffle.class" ->
          "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
        "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> serviceJar.getAbsolutePath,
        "spark.shuffle.service.port" -> servicePort.toString,
        "spark.authenticate" -> "true",
        "spark.yarn.shuffle.stopOnFailure" -> "true",
        // Merges what applications push (push-based shuffle), as Spark's own service would.
        "spark.shuffle.push.server.mergedShuffleFileManagerImpl" ->
          "org.apache.spark.network.shuffle.RemoteBlockPushResolver",
        // Chunks cut from 16 KiB (Spark's default is 2 MiB): this test's merged blocks are about
        // 100 KiB, so each is several chunks, and reduce tasks read chunks of a merged file on
        // their host whole, under reader.localReadLimit, as they read small segments.
        "spark.shuffle.push.server.minChunkSizeInMergedShuffleFile" -> "16k"
      )
    )
    nm.start(Seq(servicePort, secondPort))
    nm.awaitMapReduceShuffle()
  }

  private def serviceConf(): Map[String, String] =
    yarn.sparkConf("auto") - "spark.executor.instances" ++
      YarnAppConf.dynamicAllocation(servicePort)

  matrixTest("executors released after the map stage; the reduce stage reads through the " +
    "service, authenticated") {
    val report = yarn.submit(
      "yarn-service",
      "client",
      serviceConf(),
      Nil,
      mainClass = Submit.ShuffleServiceApp)
    report.assertServedThroughService()
    assert(report.long("kae.write.codecCalls") > 0, report.lines.mkString("\n"))
  }

  matrixTest("two of our services on one NodeManager, each under its own name and port: an " +
    "application of the second reads through it") {
    val report = yarn.submit(
      "yarn-second-service",
      "client",
      serviceConf() ++ YarnAppConf.dynamicAllocation(secondPort) +
        ("spark.shuffle.service.name" -> SecondName),
      Nil,
      mainClass = Submit.ShuffleServiceApp
    )
    report.assertServedThroughService()
    assert(
      nm.logText.contains(s"KAE shuffle service '$SecondName' serving on port $secondPort"),
      s"no second service in ${nm.log}")
  }

  // The troubleshooting rows of docs/operations.md quote YARN's own messages for these two.
  matrixTest("an application naming a service the NodeManager does not run gets no executor; " +
    "its ApplicationMaster logs YARN's message") {
    // Spark's allocator logs each failed launch and asks again: the application waits, it does
    // not fail. Let it wait a minute, then read the ApplicationMaster's log.
    // Hadoop 3.5 says "does not exist", older releases "do not exist" (docs/operations.md).
    val missing = "The auxService:spark_shuffle_missing does not exist"
    val waited = intercept[AssertionError](yarn.launch(
      "yarn-missing-service",
      serviceConf() + ("spark.shuffle.service.name" -> "spark_shuffle_missing"),
      Submit.ShuffleServiceApp,
      timeoutSeconds = 90))
    assert(waited.getMessage.contains("did not finish"), waited.getMessage)
    val stderr = Files.walk(nm.logDir).iterator().asScala.filter(_.endsWith("stderr")).toSeq
    assert(
      stderr.exists { f =>
        val text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)
        text.contains("Failed to launch executor") && text.contains(missing)
      },
      s"no '$missing' in $stderr"
    )
  }

  matrixTest("a wrong service jar path stops the NodeManager at start, naming our class") {
    val wrong = new NodeManagerProcess(
      yarn.config,
      Map(
        "yarn.nodemanager.aux-services" -> "spark_shuffle",
        "yarn.nodemanager.aux-services.spark_shuffle.class" ->
          "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
        "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> "/nonexistent/kae-yarn.jar"
      )
    )
    try {
      val e = intercept[AssertionError](wrong.start())
      assert(e.getMessage.contains("The NodeManager exited"), e.getMessage)
      assert(
        wrong.logText.contains(
          "java.lang.ClassNotFoundException: io.github.kaeshuffle.yarn.KaeYarnShuffleService"),
        s"log: ${wrong.log}")
    } finally wrong.kill()
  }

  /**
   * Submits an application that takes a gate directory, in the background, and waits until it
   * writes `reached` there (it then waits for the test): the gate and the application's end.
   */
  private def submitUntil(
      name: String,
      conf: Map[String, String],
      mainClass: String,
      reached: String,
      what: String): (Path, Future[Submit.Report]) = {
    val gate = ClusterFaults.tmpDir(s"$name-gate")
    val report = Future {
      yarn.submit(name, "client", conf, Seq(gate.toString), mainClass = mainClass)
    }(ExecutionContext.global)
    ClusterFaults.awaitCondition(what, 240)(
      Files.exists(gate.resolve(reached)) || report.isCompleted)
    assert(!report.isCompleted, s"the application ended early: ${report.value}")
    (gate, report)
  }

  /** Push-based shuffle on, merged by the NodeManager's service, results of any size waited for. */
  private def pushConf(): Map[String, String] =
    yarn.sparkConf("auto") ++ Map(
      "spark.shuffle.service.enabled" -> "true",
      "spark.shuffle.service.port" -> servicePort.toString,
      "spark.authenticate" -> "true",
      "spark.shuffle.push.enabled" -> "true",
      // One NodeManager is one merger location (Spark wants 5 by default) ...
      "spark.shuffle.push.mergersMinStaticThreshold" -> "1",
      // ... and merges results of any size (Spark skips those under 500m by default).
      "spark.shuffle.push.minShuffleSizeToWait" -> "0",
      // Spark waits 10 s for the pushes to finish and the merge results to arrive; on a busy
      // machine that can pass with nothing merged, and the reduce stage reads only originals.
      "spark.shuffle.push.finalize.timeout" -> "60s",
      "spark.shuffle.push.results.timeout" -> "60s"
    )

  test("push-based shuffle: the service merges KAE Shuffle's blocks and reduce tasks read them") {
    val workloads = Seq("sort", "lda-edges", "groupby-skew-sql")
    val expected = Sessions.expected(workloads)
    val report = yarn.submit("yarn-push", "client", pushConf(), workloads)
    val text = report.lines.mkString("\n")
    report.assertSame(expected)
    assert(report.manager == Submit.Manager, text)
    assert(report.long("mergedBytesRead") > 0, s"no merged block was read:\n$text")
    assert(report.long("kae.read.codecCalls") > 0, text)
  }

  matrixTest("push-based shuffle: a merged block damaged on the merger's disk is caught, the " +
    "reduce tasks read the original blocks instead, results right") {
    val submitted = System.currentTimeMillis()
    val (gate, report) = submitUntil(
      "yarn-push-damage",
      pushConf(),
      Submit.MergedChunkDamageApp,
      "read-once",
      "the first read of the shuffle")

    // The largest merged data file of this application's shuffle (one reduce partition's merged
    // blocks; the earlier tests' applications left theirs, of the same sizes): 16 bytes in its
    // middle inverted.
    val merged = ShuffleFiles.files(nm.root.resolve("local"), "shuffleMerged_.*\\.data")
      .filter(f => Files.size(f) > 0 && Files.getLastModifiedTime(f).toMillis >= submitted)
    assert(merged.nonEmpty, s"no merged data file under ${nm.root}")
    val victim = merged.maxBy(Files.size(_))
    ShuffleFiles.invert(victim, Files.size(victim) / 2 - 8, 16)
    Files.write(gate.resolve("damaged"), Array.emptyByteArray)

    val r = Await.result(report, Duration(300, "s"))
    val text = r.lines.mkString("\n")
    assert(r.lines.contains("firstOk true"), text)
    assert(r.long("firstMergedBytes") > 0, s"the first read read no merged block:\n$text")
    assert(r.lines.contains("gateOpened true"), text)
    assert(r.lines.contains("secondOk true"), s"wrong rows after the damage:\n$text")
    // Caught when the chunk is opened (every frame's CRC32C), so Spark reads that chunk's original
    // blocks at once; a fetch failure instead would retry the stage against the same chunk
    // (SegmentStreams says why).
    assert(r.long("corruptMergedChunks") >= 1, s"the damaged chunk went unnoticed:\n$text")
    assert(r.long("mergedFetchFallbacks") >= 1, s"no fallback to the original blocks:\n$text")
    assert(r.long("mergedFetchFailures") == 0 && r.long("otherFetchFailures") == 0, text)
    assert(r.manager == Submit.Manager, text)
    info(s"damaged ${victim.getFileName} (${Files.size(victim)} bytes); " +
      Seq("corruptMergedChunks", "mergedFetchFallbacks", "secondMergedBytes")
        .map(k => s"$k ${r.long(k)}").mkString(", "))
  }

  matrixTest("a NodeManager restarted between the stages serves the reduce stage from RocksDB") {
    val (gate, report) = submitUntil(
      "yarn-service-restart",
      serviceConf(),
      Submit.ShuffleServiceApp,
      "map-done",
      "the map stage and the executors' release")

    val firstLog = nm.log
    nm.stop()
    val state = nm.recoveryDir.resolve("nm-aux-services").resolve("spark_shuffle")
    assert(Files.isDirectory(state.resolve("registeredExecutors.rdb")), s"no state in $state")
    assert(Files.isDirectory(state.resolve("kaeShuffleSecrets.rdb")), s"no state in $state")
    nm.start(Seq(servicePort, secondPort))
    nm.awaitMapReduceShuffle()
    assert(nm.log != firstLog)

    // The restarted service enforces the reloaded secret: a client of the application that
    // presents a wrong secret, or none, is refused. (The right one is the reduce stage's.)
    val apps = yarn.runningApps("yarn-service-restart")
    assert(apps.size == 1, s"running: $apps")
    val info = new ExecutorShuffleInfo(
      Array(nm.root.resolve("local").toString),
      64,
      "org.apache.spark.shuffle.sort.SortShuffleManager")
    for (secret <- Seq(Some("a-wrong-secret"), None)) {
      val c = ClusterFaults.shuffleClient(apps.head, secret)
      val e =
        try intercept[Exception](
            c.registerWithShuffleServer("127.0.0.1", servicePort, "99", info))
        finally c.close()
      // Refused by the authentication itself (Spark's SASL handshake), not by anything after it.
      assert(String.valueOf(e.getMessage).contains("Sasl"), s"$secret: $e")
    }

    Files.write(gate.resolve("go"), Array.emptyByteArray)
    Await.result(report, Duration(300, "s")).assertServedPastGate()

    // What the new process's service found in RocksDB: the map stage's executors and the
    // application's secret.
    val restarted = nm.logText
    val reloaded = "Reloading registered executors: \\S+\\[appId=application_".r
      .findAllIn(restarted).size
    assert(reloaded >= 1, Submit.tail(nm.log, 200))
    assert(restarted.contains("reloaded the secrets of 1 application(s)"), Submit.tail(nm.log, 200))
    // The application master's container outlived the NodeManager and was taken back; the
    // application kept its first attempt.
    assert(
      "Recovering container_\\d+_\\d+_01_000001 in state (LAUNCHED|RUNNING)".r
        .findFirstIn(restarted).nonEmpty,
      Submit.tail(nm.log, 200))
    assert("container_\\d+_\\d+_02_".r.findFirstIn(restarted).isEmpty, "a second attempt")
  }
}
