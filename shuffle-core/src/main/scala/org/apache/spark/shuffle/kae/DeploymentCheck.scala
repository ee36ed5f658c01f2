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
package org.apache.spark.shuffle.kae

import java.io.File

import org.apache.spark.{SparkConf, SparkContext}

/**
 * Whether the executors will find this jar when they create their shuffle manager. Spark 3.5
 * creates it before it loads `spark.jars` (`--jars`); Spark 4.0 changed the order
 * (SPARK-45762). On 3.5, a jar shipped only through `spark.jars` reaches the driver, but every
 * executor dies at start with a `ClassNotFoundException` and the application waits for executors
 * that never come. The driver refuses at start instead and names the setting to add.
 */
private[spark] object DeploymentCheck {

  /** The jar (or directory) this class was loaded from, by file name. */
  private def ourJarName: String =
    Option(getClass.getProtectionDomain.getCodeSource)
      .map(s => new File(s.getLocation.getPath).getName)
      .getOrElse("the KAE Shuffle jar")

  /**
   * Why executors will not find the jar, or None.
   *
   * @param executorsLoadJarsFirst whether this Spark loads `spark.jars` before the executor's
   *   shuffle manager ([[ManagerShims.executorsLoadJarsFirst]])
   * @param fromUserJars whether the driver loaded us from the user's jars (a class loader below
   *   the JVM's own), rather than from its class path (extraClassPath or Spark's `jars/`),
   *   which the executors are then taken to share
   */
  def problem(
      conf: SparkConf,
      executorsLoadJarsFirst: Boolean,
      fromUserJars: Boolean,
      jarName: String): Option[String] = {
    val master = conf.get("spark.master", "")
    val inProcess = master == "local" || master.startsWith("local[")
    val onExecutorPath = conf.get("spark.executor.extraClassPath", "")
      .split(File.pathSeparator).map(_.trim).filter(_.nonEmpty)
      .exists(e => e.endsWith("*") || new File(e).getName == jarName)
    if (executorsLoadJarsFirst || inProcess || !fromUserJars || onExecutorPath) {
      None
    } else {
      Some(s"KAE Shuffle: Spark ${org.apache.spark.SPARK_VERSION} creates each executor's " +
        s"shuffle manager before it loads spark.jars (--jars), so the executors would not find " +
        s"$jarName and fail at start. Put the jar on the executors' class path: " +
        s"spark.executor.extraClassPath=/path/to/$jarName on every node, or on YARN, keeping " +
        s"--jars, spark.executor.extraClassPath=$jarName (the copy YARN places in each " +
        "container's directory). See docs/yarn.md.")
    }
  }

  /** Stops the driver's start when the executors will not find this jar. */
  def check(conf: SparkConf, shims: ManagerShims): Unit = {
    val isDriver = conf.get("spark.executor.id", "") == SparkContext.DRIVER_IDENTIFIER
    val fromUserJars = getClass.getClassLoader ne ClassLoader.getSystemClassLoader
    if (isDriver) {
      problem(conf, shims.executorsLoadJarsFirst, fromUserJars, ourJarName)
        .foreach(m => throw new IllegalStateException(m))
    }
  }
}
