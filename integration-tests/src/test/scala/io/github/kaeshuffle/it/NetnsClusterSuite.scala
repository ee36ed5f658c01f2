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
import java.nio.file.Files
import java.util.concurrent.TimeUnit

import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration
import scala.jdk.CollectionConverters._

import io.github.kaeshuffle.testing.{MatrixTests, TestScope}
import io.github.kaeshuffle.workloads.{QuerySet, Tpch, WorkloadJobs, Workloads}
import org.scalatest.BeforeAndAfterAll

/**
 * Spark on YARN across test hosts in network namespaces ([[NetnsCluster]]: the driver and the
 * ResourceManager on one host, a NodeManager with our shuffle service on each of two others,
 * each host's link limited to 1 Gbit/s): every fetch from another executor crosses the links.
 * Results are compared with Spark's own shuffle on the same cluster.
 */
class NetnsClusterSuite extends MatrixTests with BeforeAndAfterAll {
  private val ServicePort = 7337
  private val serviceJar = new File(sys.props.getOrElse("kae.test.serviceJar", "missing"))
  private var started: NetnsCluster = _

  /** The cluster, started by the first test that runs (the gate may run none). */
  private def cluster: NetnsCluster = {
    NetnsCluster.unavailable.foreach(reason => cancel(s"no test hosts here: $reason"))
    if (started == null) {
      require(serviceJar.isFile, s"$serviceJar is missing: build with mvn verify from the root")
      started = new NetnsCluster(
        hosts = 3,
        rate = "1gbit",
        service = Map(
          "yarn.nodemanager.aux-services" -> "spark_shuffle",
          "yarn.nodemanager.aux-services.spark_shuffle.class" ->
            "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
          "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> serviceJar.getAbsolutePath,
          "spark.shuffle.service.port" -> ServicePort.toString,
          "spark.authenticate" -> "true"
        )
      )
      started.start(Seq(ServicePort))
    }
    started
  }

  override def afterAll(): Unit = {
    try if (started != null) started.stop()
    finally super.afterAll()
  }

  test("workloads across three test hosts at 1 Gbit/s: Spark's results, every reducer host " +
    "fetched over the links") {
    val c = cluster
    val workloads = Seq("sort", "groupby-skew", "groupby-skew-sql")
    val kae = c.submit("netns-kae", c.sparkConf("auto"), workloads)
    assert(kae.manager == Submit.Manager, kae.lines.mkString("\n"))
    // Spark's own shuffle on the same cluster; the gate saves that application and takes
    // Spark's shuffle in local mode (the results do not depend on where tasks ran).
    if (TestScope.full) {
      val spark = c.submit(
        "netns-spark",
        c.sparkConf("auto") + ("spark.shuffle.manager" -> "sort"),
        workloads)
      for (w <- workloads) {
        assert(
          kae.digests.get(w) == spark.digests.get(w),
          s"$w: KAE ${kae.digests.get(w)}, " +
            s"Spark ${spark.digests.get(w)} (logs ${kae.log}, ${spark.log})")
      }
    } else {
      kae.assertSame(Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
        workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.TINY, 4)).toMap
      })
    }
    val byHost = kae.remoteBytesByHost
    val reducers = c.nodeManagers.size
    assert(byHost.size == reducers, s"reduce tasks ran on ${byHost.keys}, not on $reducers hosts")
    for ((host, bytes) <- byHost) assert(bytes > 0, s"$host fetched nothing from another host")
    assert(byHost.keySet.forall(_.startsWith("198.18.0.")), s"hosts: ${byHost.keys}")
  }

  matrixTest("a NodeManager killed during the reduce stage: the map outputs on it are computed " +
    "again, the results stay right") {
    val c = cluster
    val gate = ClusterFaults.tmpDir("netns-node-loss-gate")
    val report = Future {
      c.submit(
        "netns-node-loss",
        c.sparkConf("auto"),
        Seq(gate.toString),
        mainClass = Submit.NodeLossApp)
    }(ExecutionContext.global)
    ClusterFaults.awaitCondition("the reduce stage waiting at the gate", 300)(
      Files.exists(gate.resolve("reduce-waiting")) || report.isCompleted)
    assert(!report.isCompleted, s"the application ended early: ${report.value}")
    // A host with map outputs, but not the application master's: its loss would end the
    // application, not test the shuffle.
    val mapHosts = Files.readAllLines(gate.resolve("map-hosts")).asScala.toSet
    val master = c.hostsRunning("org.apache.spark.deploy.yarn.ExecutorLauncher")
    val victim = c.nodeManagers.find { nm =>
      mapHosts.contains(nm.host.address) && !master.exists(_.address == nm.host.address)
    }
    assume(victim.isDefined, s"every host with map outputs ($mapHosts) runs the master")
    victim.get.kill()
    Files.write(gate.resolve("go"), Array.emptyByteArray)
    val r = Await.result(report, Duration(600, TimeUnit.SECONDS))
    val text = r.lines.mkString("\n")
    assert(r.lines.contains("resultOk true"), text)
    assert(r.long("mapTasksAfter") > 0, s"no map task ran again:\n$text")
    assert(r.manager == Submit.Manager, text)
    victim.get.start(Seq(ServicePort))
  }

  matrixTest("dynamic allocation releases the executors, every NodeManager restarts: the reduce " +
    "stage reads the map outputs through the services' recovered state, on the other hosts") {
    val c = cluster
    val conf = c.sparkConf("auto") - "spark.executor.instances" ++
      YarnAppConf.dynamicAllocation(ServicePort)
    val gate = ClusterFaults.tmpDir("netns-restart-gate")
    val report = Future {
      c.submit("netns-restart", conf, Seq(gate.toString), mainClass = Submit.ShuffleServiceApp)
    }(ExecutionContext.global)
    ClusterFaults.awaitCondition("the map stage and the executors' release", 300)(
      Files.exists(gate.resolve("map-done")) || report.isCompleted)
    assert(!report.isCompleted, s"the application ended early: ${report.value}")
    // As an operator restarts them: the application master's container outlives its
    // NodeManager (supervised recovery) and is taken back.
    for (nm <- c.nodeManagers) {
      nm.stop()
      nm.start(Seq(ServicePort))
    }
    Files.write(gate.resolve("go"), Array.emptyByteArray)
    Await.result(report, Duration(600, TimeUnit.SECONDS)).assertServedPastGate()
    for (nm <- c.nodeManagers) {
      assert(
        nm.logText.contains("reloaded the secrets of 1 application(s)"),
        Submit.tail(nm.log, 200))
    }
  }

  matrixTest("TPC-H SF 0.01 across the test hosts: all 22 queries give the rows of Spark's " +
    "shuffle on the same cluster and the published row counts") {
    val c = cluster
    val dir = ClusterFaults.tmpDir("netns-tpch")
    // Tables and queries where every host sees them (one file system); the cluster runs them.
    val tables = Sessions.withSession(Sessions.conf(None, Sessions.Kryo, "local[2]")) { spark =>
      Tpch.generate(spark, 0.01, dir.resolve("data"))
    }
    Tpch.writeSqlDir(tables, dir.resolve("sql"))
    def digests(r: Submit.Report): Map[String, (Int, Int)] =
      r.named("query").map { case (name, v) => name -> (v(0).toInt, v(1).toInt) }.toMap
    val sql = Seq(dir.resolve("sql").toString)
    val kae = c.submit("netns-tpch-kae", c.sparkConf("auto"), sql, mainClass = Submit.SqlApp)
    val spark = c.submit(
      "netns-tpch-spark",
      c.sparkConf("auto") + ("spark.shuffle.manager" -> "sort"),
      sql,
      mainClass = Submit.SqlApp)
    assert(kae.manager == Submit.Manager, kae.lines.mkString("\n"))
    val (k, s) = (digests(kae), digests(spark))
    assert(k.size == 22, kae.lines.mkString("\n"))
    for (q <- Tpch.queries) {
      val name = QuerySet.fileName(q.name)
      assert(s(name)._1 == Tpch.rowsAtHundredth(q), s"$name with Spark's shuffle: ${s(name)}")
      assert(k(name) == s(name), s"$name: KAE ${k(name)}, Spark ${s(name)}")
    }
  }
  matrixTest("a Kunpeng-shaped cluster: each NodeManager in its shape's memory cgroup, its " +
    "executor's block manager on its own throttled disk; auto prices the link its reduce tasks " +
    "waited for, and so do the driver's broadcasts through KaeIoCodec; Spark's results; " +
    "nothing left") {
    NodeShape.unavailable.foreach(why => cancel(s"no node shape here: $why"))
    // The namespaces are named for this JVM: the shared cluster goes first (`cluster` would
    // start it again).
    if (started != null) {
      started.stop()
      started = null
    }
    val shape = NodeShape.KunpengStudy
    val c = new NetnsCluster(3, shape.linkRate(1), Map.empty, shape = Some(shape))
    val workloads = Seq("sort", "groupby-skew")
    val hosts =
      try {
        c.start()
        assert(c.shapedHosts.map(_.name) == Seq("kunpeng-study-h1", "kunpeng-study-h2"))
        for (h <- c.shapedHosts) {
          assert(Files.readAllLines(h.procs).size > 0, s"${h.name}: no process in its cgroup")
        }
        // Small: the sort's reduce tasks must read more than the MiB auto trusts a figure at.
        val conf = c.sparkConf("auto") +
          ("spark.io.compression.codec" -> classOf[org.apache.spark.shuffle.kae.KaeIoCodec].getName)
        val kae = c.submit("netns-shaped-kae", conf, workloads, size = "small")
        assert(kae.manager == Submit.Manager, kae.lines.mkString("\n"))
        kae.assertSame(Sessions.withSession(Sessions.conf(None, Sessions.Kryo)) { spark =>
          workloads.map(w => w -> WorkloadJobs.run(w, spark, Workloads.Size.SMALL, 4)).toMap
        })
        val logs = c.nodeManagers.map { nm =>
          Files.walk(nm.logDir).iterator().asScala
            .filter(_.getFileName.toString == "stderr")
            .map(f => new String(Files.readAllBytes(f), StandardCharsets.UTF_8)).mkString
        }
        // Each executor's block manager (so its shuffle files) in the local dirs on its disk.
        for ((log, h) <- logs.zip(c.shapedHosts)) {
          assert(log.contains(s"Created local directory at ${h.mount}/"), s"${h.name}: $log")
        }
        // The page cache takes the writes, so only the link can move the later shuffle.
        val linkPriced = logs.flatMap(_.linesIterator)
          .filter(l => l.contains("KAE Shuffle codec for shuffle") && l.contains(", link "))
        assert(linkPriced.exists(_.contains("zstd")), logs.mkString("\n"))
        println(s"[netns-cluster] ${linkPriced.head}")
        // Every stage's task binary is a broadcast: those after the first reduce stage know the link.
        val driverLog = new String(Files.readAllBytes(kae.log), StandardCharsets.UTF_8)
        val broadcasts = driverLog.linesIterator.filter(_.contains("KAE IO codec: the driver's"))
        assert(broadcasts.exists(_.contains("now use zstd")), driverLog)
        c.shapedHosts
      } finally c.stop()
    for (h <- hosts) {
      assert(!Files.exists(h.mount), s"${h.mount} is left")
      assert(!Files.exists(h.procs.getParent), s"${h.procs.getParent} is left")
    }
  }
}
