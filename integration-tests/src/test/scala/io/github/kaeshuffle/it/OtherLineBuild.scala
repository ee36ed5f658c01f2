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

/**
 * Another Spark line's build of this tree, as a cluster that runs two lines' applications has
 * it: that line's application jar, YARN service jar and workload applications (built for its
 * Scala), and its Spark distribution. `.build/test-two-lines.sh` builds the line in a copy of the
 * tree and names both with `kae.test.otherLine.dir` and `kae.test.otherLine.sparkHome`.
 */
final case class OtherLineBuild(dir: File, sparkHome: String) {
  private def one(module: String, pattern: String): File = {
    val target = new File(dir, s"$module/target")
    val found = Option(target.listFiles()).toSeq.flatten.filter(_.getName.matches(pattern))
    require(found.size == 1, s"not one $pattern in $target: ${found.map(_.getName)}")
    found.head
  }

  val distJar: File =
    one("shuffle-core", """kae-shuffle-spark[\d.]+_[\d.]+-[^-]+(-SNAPSHOT)?\.jar""")
  val serviceJar: File = one("shuffle-service", """kae-shuffle-service-spark.*-yarn\.jar""")
  val appJar: File = one("integration-tests", """kae-integration-tests-[^-]+(-SNAPSHOT)?\.jar""")

  /** The Spark version of the distribution. */
  val sparkVersion: String = Sessions.sparkCoreVersions(sparkHome)._2
}

object OtherLineBuild {

  /** The build the properties name, or None where the run was given none. */
  def fromProperties: Option[OtherLineBuild] =
    for {
      dir <- sys.props.get("kae.test.otherLine.dir")
      home <- sys.props.get("kae.test.otherLine.sparkHome")
    } yield OtherLineBuild(new File(dir), home)
}
