package io.github.kaeshuffle.it

import java.io.File

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

  test("executors released after the map stage; the reduce stage reads through the service, " +
      "authenticated") {
    val conf = yarn.sparkConf("auto") - "spark.executor.instances" ++ Map(
      "spark.shuffle.service.enabled" -> "true",
      "spark.shuffle.service.port" -> port.toString,
      "spark.authenticate" -> "true",
      "spark.dynamicAllocation.enabled" -> "true",
      "spark.dynamicAllocation.executorIdleTimeout" -> "1s",
      "spark.dynamicAllocation.schedulerBacklogTimeout" -> "1s",
      "spark.dynamicAllocation.minExecutors" -> "0",
      "spark.dynamicAllocation.initialExecutors" -> "2",
      "spark.dynamicAllocation.maxExecutors" -> "2")
    val report = yarn.submit("yarn-service", "client", conf, Nil,
      mainClass = Submit.ShuffleServiceApp)
    val text = report.lines.mkString("\n")
    assert(report.lines.contains("executorsGone true"), text)
    assert(report.lines.contains("resultOk true"), text)
    assert(report.lines.contains("mapTasksAfter 0"), s"the map stage ran again:\n$text")
    assert(report.manager == Submit.Manager, text)
    assert(report.long("kae.write.codecCalls") > 0, text)
  }
}
