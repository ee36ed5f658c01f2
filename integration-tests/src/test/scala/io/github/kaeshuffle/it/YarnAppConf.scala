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

/** Spark settings of the tests' applications on YARN, as a user's would be. */
object YarnAppConf {

  /** Our jar and manager with `codec`, Kryo, `executors` small executors, no UI. */
  def apply(codec: String, executors: Int): Map[String, String] = {
    val javaHome = System.getProperty("java.home")
    Submit.withJars(executorPath = Submit.distJar.getName) ++ Map(
      "spark.yarn.jars" -> s"local:${Sessions.submitSparkHome}/jars/*",
      "spark.shuffle.manager" -> Submit.Manager,
      "spark.shuffle.kae.codec" -> codec,
      "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
      "spark.executor.instances" -> executors.toString,
      "spark.executor.cores" -> "1",
      "spark.executor.memory" -> "512m",
      "spark.driver.memory" -> "768m",
      "spark.yarn.am.memory" -> "512m",
      "spark.ui.enabled" -> "false",
      "spark.sql.shuffle.partitions" -> "8",
      "spark.yarn.appMasterEnv.JAVA_HOME" -> javaHome,
      "spark.executorEnv.JAVA_HOME" -> javaHome
    )
  }

  /**
   * Executors through the external shuffle service on `servicePort`, authenticated, and released
   * by dynamic allocation after a second idle (up to two).
   */
  def dynamicAllocation(servicePort: Int): Map[String, String] = Map(
    "spark.shuffle.service.enabled" -> "true",
    "spark.shuffle.service.port" -> servicePort.toString,
    "spark.authenticate" -> "true",
    "spark.dynamicAllocation.enabled" -> "true",
    "spark.dynamicAllocation.executorIdleTimeout" -> "1s",
    "spark.dynamicAllocation.schedulerBacklogTimeout" -> "1s",
    "spark.dynamicAllocation.minExecutors" -> "0",
    "spark.dynamicAllocation.initialExecutors" -> "2",
    "spark.dynamicAllocation.maxExecutors" -> "2"
  )
}
