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

import org.scalatest.funsuite.AnyFunSuite

/**
 * One NodeManager serving applications of two Spark lines, as docs/yarn.md ("Two Spark lines on
 * one cluster") installs it: this line's service jar as `spark_shuffle`, and another line's
 * service jar (`.build/test-two-lines.sh` builds 3.5 beside 4.2) under its own name and port,
 * named by a `spark-shuffle-site.xml` beside it, each in its own class loader. An application of
 * each line, submitted with its own distribution and jars, releases its executors after the map
 * stage and reads through its line's service. Without another line's build the test is reported
 * skipped and says what to run.
 */
class TwoLinesYarnSuite extends AnyFunSuite with OneNodeManager {
  private val other = OtherLineBuild.fromProperties
  private val servicePort = ClusterFaults.freePort()
  private val otherPort = ClusterFaults.freePort()
  private val OtherName = "spark_shuffle_other"
  protected val yarn = new MiniYarn("kae-yarn-two-lines", nodeManagers = 0)

  override def beforeAll(): Unit = {
    super.beforeAll()
    other.foreach(line => startCluster(start(line)))
  }

  private def start(line: OtherLineBuild): Unit = {
    yarn.start()
    val ours = "io.github.kaeshuffle.yarn.KaeYarnShuffleService"
    nm = new NodeManagerProcess(
      yarn.config,
      Map(
        "yarn.nodemanager.aux-services" -> s"spark_shuffle,$OtherName",
        "yarn.nodemanager.aux-services.spark_shuffle.class" -> ours,
        "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> serviceJar.getAbsolutePath,
        s"yarn.nodemanager.aux-services.$OtherName.class" -> ours,
        s"yarn.nodemanager.aux-services.$OtherName.classpath" ->
          YarnDaemon.namedServiceClasspath(OtherName, otherPort, line.serviceJar),
        "spark.shuffle.service.port" -> servicePort.toString,
        "spark.authenticate" -> "true",
        "spark.yarn.shuffle.stopOnFailure" -> "true"
      )
    )
    nm.start(Seq(servicePort, otherPort))
  }

  private def conf(port: Int): Map[String, String] =
    yarn.sparkConf("auto") - "spark.executor.instances" ++ YarnAppConf.dynamicAllocation(port)

  /** The other line's application: its jar (on the executors' class path too, as 3.5 needs). */
  private def otherConf(line: OtherLineBuild): Map[String, String] =
    conf(otherPort) ++ Map(
      "spark.jars" -> line.distJar.getAbsolutePath,
      "spark.executor.extraClassPath" -> line.distJar.getName,
      "spark.yarn.jars" -> s"local:${line.sparkHome}/jars/*",
      "spark.shuffle.service.name" -> OtherName
    )

  private val name = "one NodeManager serves two Spark lines' applications, each through its " +
    "line's service under its own name and port"

  if (other.isEmpty) {
    ignore(s"$name [needs another line's build: .build/test-two-lines.sh]")(())
  } else {
    test(name) {
      val line = other.get
      val mine = yarn.submit(
        "yarn-this-line",
        "client",
        conf(servicePort),
        Nil,
        mainClass = Submit.ShuffleServiceApp)
      mine.assertServedThroughService()
      val theirs = yarn.submit(
        "yarn-other-line",
        "client",
        otherConf(line),
        Nil,
        mainClass = Submit.ShuffleServiceApp,
        line = Some(line))
      theirs.assertServedThroughService()
      val log = new String(Files.readAllBytes(theirs.log))
      assert(log.contains(s"Running Spark version ${line.sparkVersion}"), Submit.tail(theirs.log))
      for ((service, port) <- Seq("spark_shuffle" -> servicePort, OtherName -> otherPort)) {
        assert(
          nm.logText.contains(s"KAE shuffle service '$service' serving on port $port"),
          Submit.tail(nm.log, 200))
      }
    }
  }
}
