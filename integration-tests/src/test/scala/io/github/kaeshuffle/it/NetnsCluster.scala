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
import java.nio.file.{Files, Path, Paths}
import java.util.concurrent.TimeUnit

import scala.collection.mutable
import scala.jdk.CollectionConverters._

import org.apache.hadoop.yarn.conf.YarnConfiguration

/**
 * A YARN cluster of test hosts on one machine, each host a network namespace on one bridge
 * (`src/test/scripts/netns-cluster.sh`), its link limited to `rate` (tc's units, e.g. "1gbit",
 * or "none"): the ResourceManager and the Spark driver (client mode) on host 0, a real
 * NodeManager with our shuffle service on each other host. Executors run in their
 * NodeManager's namespace, so every fetch from another host crosses two links of the bridge.
 *
 * `stop()` removes every namespace, link and process; so does a shutdown hook when the JVM is
 * stopped first, and `start()` removes what a killed run left (namespaces whose owner process is
 * gone). Needs root and iproute2: [[NetnsCluster.unavailable]] says why not.
 *
 * @param hosts test hosts, the driver's included (at least 2)
 * @param rate each host's link rate in both directions
 * @param service the NodeManagers' settings for our shuffle service
 * @param executorMb each executor's heap (`spark.executor.memory`), in MiB
 * @param shape a node shape for each NodeManager's host (one executor core's share): its local
 *              dirs on a disk of the shape's rate, the host's memory bounded to the shape's
 *              (`rate` stays the caller's: [[NodeShape.linkRate]] gives the shape's link)
 */
final class NetnsCluster(
    hosts: Int,
    rate: String,
    service: Map[String, String],
    executorMb: Int = 512,
    shape: Option[NodeShape] = None) {
  require(hosts >= 2, s"a cluster needs the driver's host and a NodeManager's: $hosts hosts")
  require(executorMb >= 256, s"executors of $executorMb MiB are too small for Spark")
  // An executor's container as YARN grants it: the heap and Spark's overhead (10%, at least
  // 384 MiB), rounded up to the scheduler's minimum allocation (256 MiB, YarnDaemon).
  private val executorContainerMb = (executorMb + math.max(384, executorMb / 10) + 255) / 256 * 256
  private val owner = ProcessHandle.current().pid()
  val testHosts: IndexedSeq[TestHost.Namespace] =
    (0 until hosts).map(i => TestHost.Namespace(s"kae$owner-h$i", s"198.18.0.${i + 1}"))
  val driverHost: TestHost.Namespace = testHosts.head
  private val rm = new ResourceManagerProcess(driverHost)
  private var shaped = IndexedSeq.empty[ShapedHost]
  private var started = IndexedSeq.empty[NodeManagerProcess]
  private val clientConf: Path = ClusterFaults.tmpDir("netns-client-conf")
  private val cleanup = new Thread(() => NetnsCluster.script("down", owner.toString))

  /** The NodeManagers, one per test host after the driver's; none before `start`. */
  def nodeManagers: IndexedSeq[NodeManagerProcess] = started

  /** The node shape's hosts (disk, memory), one per NodeManager; none without a shape. */
  def shapedHosts: IndexedSeq[ShapedHost] = shaped

  /** Starts the cluster; each NodeManager is up once the auxiliary service ports accept. */
  def start(servicePorts: Seq[Int] = Nil): this.type = {
    NetnsCluster.script("clean")
    // Before "up": a set-up that fails half way still leaves no namespace behind this JVM.
    Runtime.getRuntime.addShutdownHook(cleanup)
    NetnsCluster.script("up", owner.toString, hosts.toString, rate)
    shaped = shape.toIndexedSeq.flatMap(shapeHosts)
    rm.start()
    YarnDaemon.writeConf(clientConf, rm.config)
    started = testHosts.tail.zipWithIndex.map { case (host, i) =>
      nodeManager(host, shaped.lift(i))
    }
    started.foreach(_.start(servicePorts))
    this
  }

  def stop(): Unit = {
    try started.foreach(_.kill())
    finally
      try rm.stop()
      finally {
        try shaped.foreach(_.close())
        finally NetnsCluster.script("down", owner.toString)
        try Runtime.getRuntime.removeShutdownHook(cleanup)
        catch { case _: IllegalStateException => } // already shutting down
      }
  }

  private def nodeManager(host: TestHost.Namespace, disk: Option[ShapedHost]) = {
    // Containers take the NodeManager's address as Spark's local address, and start as every
    // test's child JVMs do: both from the NodeManager's environment, through its white list.
    val whitelist = YarnConfiguration.DEFAULT_NM_ENV_WHITELIST + ",SPARK_LOCAL_IP,JAVA_TOOL_OPTIONS"
    new NodeManagerProcess(
      rm.config,
      service ++ Map(
        YarnConfiguration.NM_ENV_WHITELIST -> whitelist,
        // Room for one executor and the small application master (512 MiB, sparkConf), never
        // for two executors: each host runs one, so shuffles cross the links.
        YarnConfiguration.NM_PMEM_MB -> (executorContainerMb + 512).toString
      ),
      host,
      env = Map("SPARK_LOCAL_IP" -> host.address),
      shaped = disk
    )
  }

  /**
   * A shape per NodeManager's host, for the one core its executor has; their memory beyond the
   * slot is the NodeManager's JVM and the application master's container. The kernel's
   * dirty-page bound is the machine's, so it is set for all of the hosts' slots together.
   */
  private def shapeHosts(s: NodeShape): IndexedSeq[ShapedHost] = {
    NodeShape.prepare()
    val dir = ClusterFaults.tmpDir("netns-shapes")
    val nodes = hosts - 1
    val made = mutable.ArrayBuffer[ShapedHost]()
    try {
      for (i <- 1 to nodes) {
        made += NodeShape.up(
          s,
          1,
          dir,
          NetnsCluster.ShapeDiskMib,
          NetnsCluster.NodeOtherBytes,
          Some(s.dirtyBytes(nodes)),
          Some(s"${s.name}-h$i"))
        println(s"[netns-cluster] ${made.last.name}: ${made.last.check()}")
      }
      made.toIndexedSeq
    } catch {
      case e: Throwable =>
        made.foreach(h => scala.util.Try(h.close()))
        throw e
    }
  }

  /**
   * Bytes delivered to the test hosts over their links so far, each byte counted once: what the
   * bridge sent into every host's link (its ports' transmit counters).
   */
  def linkBytes(): Long =
    testHosts.indices.map { i =>
      val f = Paths.get(s"/sys/class/net/kv${owner}h$i/statistics/tx_bytes")
      new String(Files.readAllBytes(f), StandardCharsets.US_ASCII).trim.toLong
    }.sum

  /** The test hosts on which a JVM runs `mainClass` (read from the processes' command lines). */
  def hostsRunning(mainClass: String): Set[TestHost.Namespace] =
    testHosts.filter { host =>
      val p = new ProcessBuilder("ip", "netns", "pids", host.name).start()
      val pids = new String(p.getInputStream.readAllBytes(), StandardCharsets.US_ASCII)
        .split("\\s+").filter(_.nonEmpty)
      pids.exists { pid =>
        val cmdline = Paths.get("/proc", pid, "cmdline")
        try new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).contains(mainClass)
        catch { case _: java.io.IOException => false } // the process has ended
      }
    }.toSet

  /** Spark settings for an application on the cluster, as a user's would be. */
  def sparkConf(codec: String): Map[String, String] =
    YarnAppConf(codec, executors = hosts - 1) ++ Map(
      // Every host's executor is there before the first job, however long a busy machine takes
      // to start it, so that tasks run, and fetch, on every host (Spark waits 30 s by default).
      "spark.scheduler.minRegisteredResourcesRatio" -> "1.0",
      "spark.scheduler.maxRegisteredResourcesWaitingTime" -> "300s",
      // 128 MB and Spark's 384 MB overhead: the master fits beside an executor (above).
      "spark.yarn.am.memory" -> "128m",
      "spark.executor.memory" -> s"${executorMb}m"
    )

  /**
   * Runs `mainClass` (a [[Submit]] application) with `spark-submit` in client mode on the
   * driver's host to its end and returns its report.
   */
  def submit(
      name: String,
      conf: Map[String, String],
      workloads: Seq[String],
      mainClass: String = Submit.WorkloadApp,
      size: String = "tiny",
      timeoutSeconds: Long = 600): Submit.Report = {
    val dir = ClusterFaults.tmpDir(s"netns-submit-$name")
    val report = dir.resolve("report.txt")
    val log = dir.resolve("spark-submit.log")
    val propsFile = dir.resolve("spark.properties")
    Submit.writeProperties(propsFile, conf, s"KAE Shuffle cluster test $name")
    val cmd = driverHost.command(Seq(
      s"${Sessions.submitSparkHome}/bin/spark-submit",
      "--master",
      "yarn",
      "--deploy-mode",
      "client",
      "--name",
      s"kae-$name",
      "--properties-file",
      propsFile.toString,
      "--class",
      mainClass,
      Submit.appJar.getAbsolutePath,
      report.toString,
      size,
      workloads.mkString(",")
    ))
    val pb = new ProcessBuilder(cmd.asJava)
    pb.environment().put("HADOOP_CONF_DIR", clientConf.toString)
    pb.environment().put("SPARK_LOCAL_IP", driverHost.address)
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"))
    pb.redirectErrorStream(true).redirectOutput(log.toFile)
    val code = Submit.awaitEnd(pb.start(), name, log, timeoutSeconds)
    Submit.reportOf(name, Submit.Ended(code, report, log))
  }
}

object NetnsCluster {

  /** A shaped host's disk, sparse: room for a few GB of shuffle files and spills. */
  val ShapeDiskMib: Long = 16384

  /** A NodeManager's JVM (512 MiB of heap) and the application master's container. */
  val NodeOtherBytes: Long = 1536L << 20
  private def scriptFile: File =
    Paths.get(sys.props.getOrElse("basedir", "."), "src/test/scripts/netns-cluster.sh").toFile

  /** Why test hosts cannot be made here, or None where they can. */
  lazy val unavailable: Option[String] =
    if (!sys.props.get("os.name").contains("Linux")) Some("network namespaces are Linux's")
    else {
      val uid = new String(
        new ProcessBuilder("id", "-u").start().getInputStream.readAllBytes(),
        StandardCharsets.US_ASCII).trim
      if (uid != "0") Some(s"test hosts in network namespaces need root (this is uid $uid)")
      else if (!Seq("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip").exists(new File(_).canExecute)) {
        Some("iproute2's ip is missing (apt-get install iproute2)")
      } else None
    }

  private[it] def script(args: String*): Unit = {
    val out = ClusterFaults.tmpDir("netns-script").resolve("out.txt")
    val p = new ProcessBuilder((Seq("bash", scriptFile.getAbsolutePath) ++ args).asJava)
      .redirectErrorStream(true)
      .redirectOutput(out.toFile)
      .start()
    val ok = p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0
    assert(ok, s"netns-cluster.sh ${args.mkString(" ")} failed:\n${Submit.tail(out)}")
  }
}
