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

import java.io.IOException
import java.nio.charset.StandardCharsets
import java.nio.file.{FileVisitResult, Files, Path, SimpleFileVisitor}
import java.nio.file.attribute.BasicFileAttributes

import scala.jdk.CollectionConverters._

import org.apache.hadoop.yarn.conf.YarnConfiguration
import org.apache.hadoop.yarn.server.MiniYARNCluster

/**
 * Hadoop's MiniYARNCluster (one ResourceManager and one NodeManager in this JVM, containers in
 * their own JVMs) sized for small Spark applications, and the settings an application needs to
 * run on it through the Spark distribution's `spark-submit`.
 *
 * @param configure extra NodeManager / ResourceManager settings
 * @param nodeManagers NodeManagers in this JVM; 0 when the test runs its own
 *   ([[NodeManagerProcess]])
 */
final class MiniYarn(
    name: String,
    configure: YarnConfiguration => Unit = _ => (),
    nodeManagers: Int = 1) {
  private var cluster: MiniYARNCluster = _
  private var hadoopConfDir: Path = _
  // Not the default under the user's home: a test may run as a user without one (nobody).
  private var stagingDir: Path = _

  def start(): this.type = {
    val conf = new YarnConfiguration()
    (YarnDaemon.SchedulerSettings ++ YarnDaemon.NodeSettings).foreach { case (k, v) =>
      conf.set(k, v)
    }
    configure(conf)
    cluster = new MiniYARNCluster(name, 1, nodeManagers, 1, 1)
    cluster.init(conf)
    cluster.start()
    // The ResourceManager publishes its real port shortly after start().
    ClusterFaults.awaitCondition("the ResourceManager address", 60)(
      !cluster.getConfig.get(YarnConfiguration.RM_ADDRESS).endsWith(":0"))
    hadoopConfDir = ClusterFaults.tmpDir("hadoop-conf")
    stagingDir = ClusterFaults.tmpDir("spark-staging")
    this
  }

  def stop(): Unit = if (cluster != null) cluster.stop()

  /** Spark settings for an application on the cluster, as a user's would be. */
  def sparkConf(codec: String): Map[String, String] = {
    val hadoop = cluster.getConfig.iterator().asScala
      .map(e => s"spark.hadoop.${e.getKey}" -> e.getValue).toMap
    hadoop ++ YarnAppConf(codec, executors = 2) ++ Map(
      "spark.yarn.stagingDir" -> stagingDir.toUri.toString,
      "spark.yarn.appMasterEnv.SPARK_LOCAL_IP" -> "127.0.0.1",
      "spark.executorEnv.SPARK_LOCAL_IP" -> "127.0.0.1"
    ) ++ childJvmOptions
  }

  /**
   * Containers get no environment from the NodeManager's: pass on the JVM options the build
   * gives every JVM the tests start (they start faster with C1 alone, pom.xml).
   */
  private def childJvmOptions: Map[String, String] =
    sys.env.get("JAVA_TOOL_OPTIONS").toSeq.flatMap { opts =>
      Seq(
        "spark.yarn.appMasterEnv.JAVA_TOOL_OPTIONS" -> opts,
        "spark.executorEnv.JAVA_TOOL_OPTIONS" -> opts)
    }.toMap

  def submit(
      name: String,
      mode: String,
      conf: Map[String, String],
      workloads: Seq[String],
      pause: Boolean = false,
      mainClass: String = Submit.WorkloadApp,
      size: String = "tiny",
      line: Option[OtherLineBuild] = None): Submit.Report =
    Submit.run(
      name,
      "yarn",
      mode,
      conf,
      workloads,
      pause,
      env = Map("HADOOP_CONF_DIR" -> hadoopConfDir.toString),
      mainClass = mainClass,
      size = size,
      sparkHome = line.fold(Sessions.submitSparkHome)(_.sparkHome),
      appResource = line.map(_.appJar)
    )

  /** Submits an application that may fail, and says how it ended (its code and log). */
  def launch(
      name: String,
      conf: Map[String, String],
      mainClass: String,
      timeoutSeconds: Long): Submit.Ended =
    Submit.launch(
      name,
      "yarn",
      "client",
      conf,
      Nil,
      env = Map("HADOOP_CONF_DIR" -> hadoopConfDir.toString),
      timeoutSeconds = timeoutSeconds,
      mainClass = mainClass)

  /** The stderr files of this cluster's containers and their text. */
  def containerLogs(): Seq[(Path, String)] = {
    // Only the NodeManager's log dirs; their files may still vanish while they are walked.
    val found = Seq.newBuilder[(Path, String)]
    Files.walkFileTree(
      cluster.getTestWorkDir.toPath,
      new SimpleFileVisitor[Path] {
        override def preVisitDirectory(d: Path, a: BasicFileAttributes): FileVisitResult =
          if (d.getFileName.toString.contains("-localDir-")) FileVisitResult.SKIP_SUBTREE
          else FileVisitResult.CONTINUE
        override def visitFile(f: Path, a: BasicFileAttributes): FileVisitResult = {
          if (f.getFileName.toString == "stderr") {
            try found += f -> new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)
            catch { case _: IOException => }
          }
          FileVisitResult.CONTINUE
        }
        override def visitFileFailed(f: Path, e: IOException): FileVisitResult =
          FileVisitResult.CONTINUE
      }
    )
    found.result()
  }

  /**
   * The ids of the running applications named `name` (Submit names them kae-<test's name>): an
   * earlier test's application may still be winding down beside it on a busy machine.
   */
  def runningApps(name: String): Seq[String] =
    cluster.getResourceManager.getRMContext.getRMApps.values().asScala.toSeq
      .filter(_.getState == org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState.RUNNING)
      .filter(_.getName == s"kae-$name")
      .map(_.getApplicationId.toString)

  /** The cluster's configuration, with the ResourceManager's real addresses. */
  def config: YarnConfiguration = new YarnConfiguration(cluster.getConfig)
}
