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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.concurrent.TimeUnit

import org.apache.hadoop.conf.Configuration

/**
 * A YARN NodeManager in its own JVM, run from Hadoop's own unshaded jars ([[YarnDaemon]]) against
 * a ResourceManager (a [[MiniYarn]]'s or a [[ResourceManagerProcess]]), so that a test can stop
 * the NodeManager process and start a new one as an operator restarts a NodeManager on a real
 * cluster.
 *
 * It runs with NodeManager recovery on (`yarn.nodemanager.recovery.enabled`, supervised) and a
 * fixed port, so that containers keep running while it is down, the new process takes them back,
 * and auxiliary services get the same recovery directory. The shaded `hadoop-client-minicluster`
 * cannot do this: it leaves out LevelDB, which the NodeManager's recovery store needs.
 *
 * Every start uses the same directories and port. The process's output goes to `log`, one file
 * per start (`nodemanager-<n>.log`).
 *
 * @param rm the ResourceManager's configuration (its real addresses)
 * @param settings extra NodeManager settings (auxiliary services)
 * @param host where it runs: this machine, or a test host's namespace
 * @param env the process's environment beyond this JVM's
 * @param runtime the Java and Hadoop it runs on (the build's, or an older pair)
 * @param shaped a node shape for the host: its local dirs on the shape's disk, the process and
 *               its containers in the shape's memory cgroup
 */
final class NodeManagerProcess(
    rm: Configuration,
    settings: Map[String, String],
    val host: TestHost = TestHost.Local,
    env: Map[String, String] = Map.empty,
    runtime: YarnDaemon.Runtime = YarnDaemon.buildRuntime,
    shaped: Option[ShapedHost] = None) {
  val root: Path = ClusterFaults.tmpDir("nodemanager")
  val port: Int = ClusterFaults.freePort()
  val recoveryDir: Path = root.resolve("recovery")
  val logDir: Path = root.resolve("logs")
  private val localDir = shaped.map(_.mount).getOrElse(root).resolve("local")
  private val confDir = root.resolve("conf")
  private var process: Process = _
  private var starts = 0
  private val containers = scala.collection.mutable.Set[ProcessHandle]()

  /** The NodeId the ResourceManager knows this node by, the same on every start. */
  def nodeId: String = s"${host.address}:$port"

  def log: Path = root.resolve(s"nodemanager-$starts.log")

  def logText: String = new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1)

  private def writeConf(): Unit = {
    Seq(recoveryDir, logDir, localDir).foreach(Files.createDirectories(_))
    val conf = new Configuration(rm)
    val own = YarnDaemon.NodeSettings ++ Map(
      "yarn.nodemanager.address" -> nodeId,
      "yarn.nodemanager.localizer.address" -> s"${host.address}:${ClusterFaults.freePort()}",
      "yarn.nodemanager.webapp.address" -> s"${host.address}:0",
      "yarn.nodemanager.local-dirs" -> localDir.toString,
      "yarn.nodemanager.log-dirs" -> logDir.toString,
      "yarn.nodemanager.recovery.enabled" -> "true",
      "yarn.nodemanager.recovery.supervised" -> "true",
      "yarn.nodemanager.recovery.dir" -> recoveryDir.toString,
      "hadoop.tmp.dir" -> root.resolve("tmp").toString
    )
    (own ++ settings).foreach { case (k, v) => conf.set(k, v) }
    YarnDaemon.writeConf(confDir, conf)
  }

  /**
   * Starts a NodeManager process and waits until it has registered with the ResourceManager and
   * every auxiliary service port in `servicePorts` accepts connections.
   */
  def start(servicePorts: Seq[Int] = Nil): this.type = {
    require(process == null, "already running")
    if (starts == 0) writeConf()
    starts += 1
    process = YarnDaemon.start(
      host,
      confDir,
      logDir,
      log,
      "org.apache.hadoop.yarn.server.nodemanager.NodeManager",
      env,
      runtime,
      shaped.fold[Seq[String] => Seq[String]](identity)(_.inside))
    ClusterFaults.awaitCondition(s"NodeManager $nodeId registering (log $log)", 120) {
      if (!process.isAlive) {
        throw new AssertionError(s"The NodeManager exited:\n${Submit.tail(log)}")
      }
      Files.exists(log) && logText.contains(s"Registered with ResourceManager as $nodeId")
    }
    for (p <- servicePorts) {
      ClusterFaults.awaitCondition(s"an auxiliary service on $nodeId's port $p (log $log)", 60)(
        host.accepts(p))
    }
    this
  }

  /**
   * Waits until MapReduce's ShuffleHandler, beside ours, accepts connections on the port it logs
   * (it takes its port from the NodeManager's mapred settings, 13562 by default).
   */
  def awaitMapReduceShuffle(): Unit = {
    val Listening = "mapreduce_shuffle listening on port (\\d+)".r
    ClusterFaults.awaitCondition(s"MapReduce's shuffle service listening (log ${log})", 60) {
      Listening.findAllMatchIn(logText).toSeq.lastOption
        .exists(m => host.accepts(m.group(1).toInt))
    }
  }

  /**
   * Stops the process as `yarn --daemon stop nodemanager` does (SIGTERM: the NodeManager's
   * shutdown hook stops its services; with supervised recovery it leaves containers running) and
   * waits for it to exit.
   */
  def stop(): Unit = if (process != null) {
    process.descendants().forEach(c => containers += c)
    process.destroy()
    if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor()
    process = null
  }

  /**
   * Stops the NodeManager and kills what it launched and left running: the containers of every
   * start (after a restart, those it took back are no longer its children).
   */
  def kill(): Unit = {
    stop()
    containers.filter(_.isAlive).foreach(_.destroyForcibly())
  }

  def isRunning: Boolean = process != null && process.isAlive
}
