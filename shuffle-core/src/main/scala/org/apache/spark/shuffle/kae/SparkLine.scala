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

import java.util.Properties

/**
 * The Spark line this jar is built for (`line.properties`, filled in by the build profile) and the
 * check, at the manager's start, that the running Spark is that line. Spark's internals change
 * shape between lines (docs/spark-lines.md), so a jar on another line would fail later, at the
 * first shuffle write, with a `NoSuchMethodError`; this check stops the start instead and names
 * the jar to use.
 */
private[spark] object SparkLine {

  /** The (Spark line, Scala binary version) pairs we build a jar for. */
  val Supported: Seq[(String, String)] =
    Seq("3.5" -> "2.12", "3.5" -> "2.13") ++ Seq("4.0", "4.1", "4.2").map(_ -> "2.13")

  private val props: Properties = {
    val p = new Properties()
    val in = getClass.getResourceAsStream("line.properties")
    require(in != null, "line.properties is missing from the KAE Shuffle jar")
    try p.load(in)
    finally in.close()
    p
  }

  /** The line this jar is built for, e.g. "4.2". */
  val built: String = props.getProperty("spark.line")

  /** The Scala binary version this jar is built for, e.g. "2.13". */
  val scalaBinary: String = props.getProperty("scala.binary")

  private val version: String = props.getProperty("version")

  /** The deployable jar's file name for a line and Scala binary version. */
  def jarName(line: String, scala: String): String = s"kae-shuffle-spark${line}_$scala-$version.jar"

  /** "4.2" of "4.2.0" or "4.2.1-SNAPSHOT". */
  def lineOf(sparkVersion: String): String = sparkVersion.split('.').take(2).mkString(".")

  /** "2.13" of "2.13.18". */
  def scalaBinaryOf(scalaVersion: String): String = lineOf(scalaVersion)

  /**
   * Why this jar cannot run on a Spark of this version and Scala, naming the jar to use; None when
   * it can.
   */
  def mismatch(sparkVersion: String, scalaVersion: String): Option[String] = {
    val line = lineOf(sparkVersion)
    val scala = scalaBinaryOf(scalaVersion)
    val ours = s"${jarName(built, scalaBinary)} (built for Spark $built, Scala $scalaBinary)"
    if (line == built && scala == scalaBinary) {
      None
    } else if (Supported.contains(line -> scala)) {
      Some(s"KAE Shuffle: $ours cannot run on Spark $sparkVersion with Scala $scalaVersion. " +
        s"Use ${jarName(line, scala)} instead.")
    } else {
      val lines = Supported.map { case (l, s) => s"Spark $l with Scala $s" }.mkString(", ")
      Some(s"KAE Shuffle: $ours cannot run on Spark $sparkVersion with Scala $scalaVersion, and " +
        s"no KAE Shuffle jar is built for Spark $line with Scala $scala (jars are built for " +
        s"$lines).")
    }
  }

  /** Stops the manager's start when the running Spark is not this jar's line. */
  def check(): Unit =
    mismatch(org.apache.spark.SPARK_VERSION, scala.util.Properties.versionNumberString)
      .foreach(m => throw new IllegalStateException(m))
}
