package io.github.kaeshuffle.it

import java.io.File
import java.nio.file.Files

import scala.concurrent.{Await, ExecutionContext, Future}
import scala.concurrent.duration.Duration
import scala.jdk.CollectionConverters._

import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.yarn.server.api.AuxiliaryService
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/**
 * Our shuffle service in a real NodeManager: MiniYARNCluster's NodeManager loads
 * `KaeYarnShuffleService` from the `-yarn` jar the build makes (an isolated class loader, as
 * `yarn.nodemanager.aux-services.spark_shuffle.classpath` sets it up on a real cluster). An
 * application with `spark.shuffle.service.enabled`, dynamic allocation and `spark.authenticate`
 * loses every executor after the map stage and still completes, reading through the service.
 */
class YarnShuffleServiceSuite extends AnyFunSuite with BeforeAndAfterAll {
  private val port = ClusterFaults.freePort()
  private val serviceJar = new File(sys.props.getOrElse("kae.test.serviceJar", "missing"))

  private val yarn = new MiniYarn("kae-yarn-service", conf => {
    conf.setStrings("yarn.nodemanager.aux-services", "spark_shuffle")
    conf.set("yarn.nodemanager.aux-services.spark_shuffle.class",
      "io.github.kaeshuffle.yarn.KaeYarnShuffleService")
    conf.set("yarn.nodemanager.aux-services.spark_shuffle.classpath",
      serviceJar.getAbsolutePath)
    conf.setInt("spark.shuffle.service.port", port)
    conf.setBoolean("spark.authenticate", true)
    conf.setBoolean("spark.yarn.shuffle.stopOnFailure", true)
  })

  override def beforeAll(): Unit = {
    super.beforeAll()
    require(serviceJar.isFile, s"$serviceJar is missing: build with mvn verify from the root")
    yarn.start()
  }

  override def afterAll(): Unit = {
    try yarn.stop() finally super.afterAll()
  }

  private def serviceConf(): Map[String, String] =
    yarn.sparkConf("auto") - "spark.executor.instances" ++ Map(
      "spark.shuffle.service.enabled" -> "true",
      "spark.shuffle.service.port" -> port.toString,
      "spark.authenticate" -> "true",
      "spark.dynamicAllocation.enabled" -> "true",
      "spark.dynamicAllocation.executorIdleTimeout" -> "1s",
      "spark.dynamicAllocation.schedulerBacklogTimeout" -> "1s",
      "spark.dynamicAllocation.minExecutors" -> "0",
      "spark.dynamicAllocation.initialExecutors" -> "2",
      "spark.dynamicAllocation.maxExecutors" -> "2")

  /**
   * Restarts the NodeManager's shuffle service: the running instance is stopped, and a new one
   * is made as the NodeManager makes it (its own class loader over the -yarn jar, the
   * NodeManager's configuration) and started on the same port and state directory. What an
   * executor registered, and the application's secret, must come back from RocksDB.
   */
  /** How the NodeManager wraps a service loaded from its own class path (package-private). */
  private val CustomLoaderService =
    "org.apache.hadoop.yarn.server.nodemanager.containermanager.AuxiliaryServiceWithCustomClassLoader"
  private lazy val newInstance = {
    val m = Class.forName(CustomLoaderService).getDeclaredMethod("getInstance",
      classOf[Configuration], classOf[String], classOf[String], classOf[Array[String]])
    m.setAccessible(true)
    m
  }

  private def restartService(): AuxiliaryService = {
    val nm = yarn.nodeManager
    val aux = nm.getNMContext.getAuxServices
    val getServices = aux.getClass.getDeclaredMethod("getServices")
    getServices.setAccessible(true)
    val running = getServices.invoke(aux).asInstanceOf[java.util.Collection[AuxiliaryService]]
      .asScala.filter(_.getClass.getName == CustomLoaderService)
    assert(running.size == 1, s"services: $running")
    running.head.stop()
    ClusterFaults.startRebinding(nm.getConfig) {
      newInstance.invoke(null, nm.getConfig, "io.github.kaeshuffle.yarn.KaeYarnShuffleService",
        serviceJar.getAbsolutePath, Array.empty[String]).asInstanceOf[AuxiliaryService]
    }
  }

  test("executors released after the map stage; the reduce stage reads through the service, " +
      "authenticated") {
    val report = yarn.submit("yarn-service", "client", serviceConf(), Nil,
      mainClass = Submit.ShuffleServiceApp)
    val text = report.lines.mkString("\n")
    assert(report.lines.contains("executorsGone true"), text)
    assert(report.lines.contains("resultOk true"), text)
    assert(report.lines.contains("mapTasksAfter 0"), s"the map stage ran again:\n$text")
    assert(report.manager == Submit.Manager, text)
    assert(report.long("kae.write.codecCalls") > 0, text)
  }

  // Last: it replaces the NodeManager's service instance.
  test("the service restarted between the stages serves the reduce stage from RocksDB state") {
    val gate = ClusterFaults.tmpDir("yarn-gate")
    val report = Future {
      yarn.submit("yarn-service-restart", "client", serviceConf(), Seq(gate.toString),
        mainClass = Submit.ShuffleServiceApp)
    }(ExecutionContext.global)
    ClusterFaults.awaitCondition("the map stage and the executors' release", 240)(
      Files.exists(gate.resolve("map-done")) || report.isCompleted)
    assert(!report.isCompleted, s"the application ended early: ${report.value}")
    val fresh = restartService()
    try {
      Files.write(gate.resolve("go"), Array.emptyByteArray)
      val r = Await.result(report, Duration(300, "s"))
      val text = r.lines.mkString("\n")
      assert(r.lines.contains("executorsGone true"), text)
      assert(r.lines.contains("gateOpened true"), text)
      assert(r.lines.contains("resultOk true"), text)
      assert(r.lines.contains("mapTasksAfter 0"), s"the map stage ran again:\n$text")
    } finally fresh.stop()
  }
}
