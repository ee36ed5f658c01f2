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

import java.io.{DataInputStream, File}
import java.nio.file.Files
import java.util.zip.ZipFile

import org.scalatest.BeforeAndAfterAll
import io.github.kaeshuffle.testing.MatrixSuite

/**
 * Our service jar in a real NodeManager that runs on Java 11, as on clusters that still run
 * Hadoop 3.3 or 3.4 on it: Hadoop's own NodeManager of an older Hadoop (3.5's jars need Java 17),
 * on a real Java 11 runtime (src/test/scripts/older-nodemanager.sh, older-java.sh), registered
 * with a MiniYARNCluster's ResourceManager, MapReduce's shuffle handler beside our service.
 *
 * A line whose Spark classes need a newer Java (every 4.x line) must not take the NodeManager down
 * with `spark.yarn.shuffle.stopOnFailure=false`: the service logs why and serves nothing, the
 * NodeManager keeps serving MapReduce and running applications that do not use the service (their
 * containers on the Java their settings name). With `true` the NodeManager stops, naming both
 * Javas. A line whose jar runs on Java 11 (3.5) serves an application through the service there.
 * docs/yarn.md ("The NodeManager's Java") quotes the message checked here. Matrix only.
 */
class NodeManagerJavaSuite extends MatrixSuite with BeforeAndAfterAll {
  private val servicePort = ClusterFaults.freePort()
  private val serviceJar = new File(sys.props.getOrElse("kae.test.serviceJar", "missing"))
  private val yarn = new MiniYarn("kae-yarn-java11", nodeManagers = 0)
  private var nm: NodeManagerProcess = _

  private def fileText(property: String): String =
    new String(
      Files.readAllBytes(new File(sys.props.getOrElse(property, "missing")).toPath),
      "UTF-8").trim

  private lazy val java11 = {
    val home = fileText("kae.test.java11NodeManagerHomeFile")
    assume(home.nonEmpty, Sessions.OlderJavaMissing)
    YarnDaemon.Runtime(home, new File(fileText("kae.test.java11NodeManagerClasspathFile")))
  }

  /** The Java major version the jar's Spark classes need (the class the service checks). */
  private lazy val neededJava: Int = {
    val zip = new ZipFile(serviceJar)
    try {
      val in = new DataInputStream(
        zip.getInputStream(zip.getEntry("org/apache/spark/network/TransportContext.class")))
      try {
        in.readInt()
        in.readUnsignedShort()
        in.readUnsignedShort() - 44
      } finally in.close()
    } finally zip.close()
  }

  private def servicesOn(stopOnFailure: Boolean): Map[String, String] = Map(
    "yarn.nodemanager.aux-services" -> "mapreduce_shuffle,spark_shuffle",
    "yarn.nodemanager.aux-services.mapreduce_shuffle.class" ->
      "org.apache.hadoop.mapred.ShuffleHandler",
    "yarn.nodemanager.aux-services.spark_shuffle.class" ->
      "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
    "yarn.nodemanager.aux-services.spark_shuffle.classpath" -> serviceJar.getAbsolutePath,
    "spark.shuffle.service.port" -> servicePort.toString,
    "spark.authenticate" -> "true",
    "spark.yarn.shuffle.stopOnFailure" -> stopOnFailure.toString
  )

  /** The service's own line as docs/yarn.md quotes it, for a NodeManager on Java 11. */
  private def refusal: String =
    s"this service jar's Spark classes need Java $neededJava or newer, and the NodeManager " +
      s"runs Java 11: run the NodeManager on Java $neededJava"

  override def beforeAll(): Unit = {
    super.beforeAll()
    require(serviceJar.isFile, s"$serviceJar is missing: build with mvn verify from the root")
    yarn.start()
  }

  override def afterAll(): Unit = {
    try if (nm != null) nm.kill()
    finally
      try yarn.stop()
      finally super.afterAll()
  }

  /** The NodeManager on Java 11 with stopOnFailure=false, started once. */
  private def runningNodeManager(): NodeManagerProcess = {
    if (nm == null) {
      nm = new NodeManagerProcess(yarn.config, servicesOn(stopOnFailure = false), runtime = java11)
      nm.start(if (neededJava <= 11) Seq(servicePort) else Nil)
      assert(nm.logText.contains("java = 11."), s"not a Java 11 NodeManager: ${nm.log}")
    }
    nm
  }

  test("a service jar that needs a newer Java leaves a Java 11 NodeManager up " +
    "(stopOnFailure=false): the service logs why; MapReduce's shuffle and applications " +
    "without the service still run there") {
    assume(neededJava > 11, s"the line's service jar runs on Java $neededJava (next test)")
    val node = runningNodeManager()
    assert(
      node.logText.contains("KAE shuffle service 'spark_shuffle' could not start and serves " +
        "nothing (spark.yarn.shuffle.stopOnFailure=false keeps the NodeManager running)"),
      Submit.tail(node.log, 200)
    )
    assert(node.logText.contains(refusal), Submit.tail(node.log, 200))
    node.awaitMapReduceShuffle()

    val workloads = Seq("sort", "groupby-skew-sql")
    val report = yarn.submit("yarn-java11-nm", "client", yarn.sparkConf("auto"), workloads)
    report.assertSame(Sessions.expected(workloads))
    assert(report.manager == Submit.Manager, report.lines.mkString("\n"))
    assert(node.isRunning, s"the NodeManager exited: ${node.log}")
  }

  test("a service jar that needs a newer Java stops a Java 11 NodeManager with " +
    "stopOnFailure=true, naming both Javas") {
    assume(neededJava > 11, s"the line's service jar runs on Java $neededJava")
    val stopping =
      new NodeManagerProcess(yarn.config, servicesOn(stopOnFailure = true), runtime = java11)
    try {
      val e = intercept[AssertionError](stopping.start())
      assert(e.getMessage.contains("The NodeManager exited"), e.getMessage)
      assert(
        stopping.logText.contains("KAE shuffle service 'spark_shuffle' could not start: " +
          "java.lang.UnsupportedOperationException: " + refusal),
        Submit.tail(stopping.log, 200)
      )
    } finally stopping.kill()
  }

  test("a service jar that runs on Java 11 serves an application's reduce stage from a " +
    "Java 11 NodeManager") {
    assume(neededJava <= 11, s"the line's service jar needs Java $neededJava (tests above)")
    runningNodeManager()
    val report = yarn.submit(
      "yarn-java11-service",
      "client",
      yarn.sparkConf("auto") - "spark.executor.instances" ++
        YarnAppConf.dynamicAllocation(servicePort),
      Nil,
      mainClass = Submit.ShuffleServiceApp
    )
    report.assertServedThroughService()
  }
}
