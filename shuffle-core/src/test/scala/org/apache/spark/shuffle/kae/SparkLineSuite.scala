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

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

/** The start-up check that a jar runs only on the Spark line it is built for. */
class SparkLineSuite extends AnyFunSuite {
  private val line = SparkLine.BUILT
  private val scala = SparkLine.SCALA_BINARY

  test("the build's line and Scala are what this test runs on") {
    assert(line == SparkLine.lineOf(org.apache.spark.SPARK_VERSION))
    assert(scala == SparkLine.lineOf(util.Properties.versionNumberString))
    SparkLine.check()
  }

  test("any patch release of the line passes") {
    assert(!SparkLine.mismatch(s"$line.0", s"$scala.1").isPresent)
    assert(!SparkLine.mismatch(s"$line.9-SNAPSHOT", s"$scala.99").isPresent)
  }

  test("every other supported line and Scala is refused, naming the jar to use") {
    val builds = SparkLine.SUPPORTED.asScala.map(b => (b.line, b.scala))
    for ((other, otherScala) <- builds if (other, otherScala) != (line, scala)) {
      val m = SparkLine.mismatch(s"$other.1", s"$otherScala.10").get()
      assert(m.contains(SparkLine.jarName(line, scala)), m)
      assert(m.contains(s"Use ${SparkLine.jarName(other, otherScala)} instead"), m)
      assert(m.contains(s"Spark $other.1 with Scala $otherScala.10"), m)
    }
  }

  test("Spark 3.5 has a jar for each of its Scala versions") {
    val m = SparkLine.mismatch("3.5.7", "2.12.18")
    if (line == "3.5" && scala == "2.12") assert(!m.isPresent)
    else assert(m.get().contains("Use " + SparkLine.jarName("3.5", "2.12")), m)
  }

  test("a line or Scala we build no jar for is refused with the jars we do build") {
    for ((spark, sc) <- Seq("3.4.3" -> s"$scala.10", s"$line.0" -> "2.11.12")) {
      val m = SparkLine.mismatch(spark, sc).get()
      val (l, s) = (SparkLine.lineOf(spark), SparkLine.lineOf(sc))
      assert(m.contains(s"no KAE Shuffle jar is built for Spark $l with Scala $s"), m)
      assert(m.contains(s"Spark $line with Scala $scala"), m)
    }
  }

  test("the jar name carries line, Scala and version") {
    assert(SparkLine.jarName("4.2", "2.13").matches("kae-shuffle-spark4\\.2_2\\.13-.+\\.jar"))
  }
}
