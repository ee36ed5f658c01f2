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

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.SparkConf

class DeploymentCheckSuite extends AnyFunSuite {
  private val jar = "kae-shuffle-spark3.5_2.12-0.1.0.jar"

  private def conf(master: String, executorPath: Option[String] = None): SparkConf = {
    val c = new SparkConf(false).set("spark.master", master)
    executorPath.foreach(c.set("spark.executor.extraClassPath", _))
    c
  }

  private def problem(c: SparkConf, loadsFirst: Boolean = false, fromUserJars: Boolean = true) =
    DeploymentCheck.problem(c, loadsFirst, fromUserJars, jar)

  test("spark.jars alone on a Spark that loads them after the shuffle manager is refused") {
    for (master <- Seq("yarn", "local-cluster[2,1,1024]", "spark://host:7077")) {
      val m = problem(conf(master)).get
      assert(m.contains("before it loads spark.jars"), m)
      assert(m.contains(s"spark.executor.extraClassPath=$jar"), m)
    }
  }

  test("the jar on the executors' class path, by name or in a directory, passes") {
    assert(problem(conf("yarn", Some(jar))).isEmpty)
    assert(problem(conf("yarn", Some(s"/opt/other.jar:/opt/kae/$jar"))).isEmpty)
    assert(problem(conf("yarn", Some("/opt/kae/*"))).isEmpty)
    assert(problem(conf("yarn", Some("/opt/kae/other.jar"))).nonEmpty)
  }

  test("Spark 4, in-process executors and a jar on the JVM's class path need nothing more") {
    assert(problem(conf("yarn"), loadsFirst = true).isEmpty)
    assert(problem(conf("local[4]")).isEmpty)
    assert(problem(conf("local")).isEmpty)
    assert(problem(conf("yarn"), fromUserJars = false).isEmpty)
  }

  test("this Spark's order is what its SparkEnv shows") {
    val line = SparkLine.BUILT
    assert(ManagerShims.current.executorsLoadJarsFirst == (line != "3.5"), line)
  }
}
