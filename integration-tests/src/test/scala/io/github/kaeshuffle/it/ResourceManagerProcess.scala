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
import org.apache.hadoop.yarn.conf.YarnConfiguration

/**
 * A YARN ResourceManager in its own JVM on a test host of a [[NetnsCluster]], from the same
 * unshaded Hadoop jars as [[NodeManagerProcess]]. Its ports are YARN's defaults: a namespace has
 * ports of its own. Output goes to `log`.
 */
final class ResourceManagerProcess(host: TestHost.Namespace) {
  val root: Path = ClusterFaults.tmpDir("resourcemanager")
  val log: Path = root.resolve("resourcemanager.log")
  private var process: Process = _

  /** What a client or NodeManager needs to know of it: its host, the scheduler's settings. */
  val config: Configuration = {
    val conf = new YarnConfiguration()
    conf.set(YarnConfiguration.RM_HOSTNAME, host.address)
    conf.set("hadoop.tmp.dir", root.resolve("tmp").toString)
    YarnDaemon.SchedulerSettings.foreach { case (k, v) => conf.set(k, v) }
    conf
  }

  private def port: Int = config.getSocketAddr(
    YarnConfiguration.RM_ADDRESS,
    YarnConfiguration.DEFAULT_RM_ADDRESS,
    YarnConfiguration.DEFAULT_RM_PORT).getPort

  /** Starts it and waits until it is active and takes clients. */
  def start(): this.type = {
    require(process == null, "already running")
    val confDir = root.resolve("conf")
    YarnDaemon.writeConf(confDir, config)
    process = YarnDaemon.start(
      host,
      confDir,
      root.resolve("logs"),
      log,
      "org.apache.hadoop.yarn.server.resourcemanager.ResourceManager")
    ClusterFaults.awaitCondition(s"the ResourceManager on ${host.address} (log $log)", 120) {
      if (!process.isAlive) {
        throw new AssertionError(s"The ResourceManager exited:\n${Submit.tail(log)}")
      }
      Files.exists(log) &&
      new String(Files.readAllBytes(log), StandardCharsets.ISO_8859_1)
        .contains("Transitioned to active state") && host.accepts(port)
    }
    this
  }

  def stop(): Unit = if (process != null) {
    process.destroy()
    if (!process.waitFor(60, TimeUnit.SECONDS)) process.destroyForcibly().waitFor()
    process = null
  }
}
