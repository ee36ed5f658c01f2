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

/**
 * docs/configuration.md, generated from [[KaeShuffleConf]]'s entries: each key's default, what it
 * accepts (its check's own words) and its doc. `KaeShuffleConfSuite` fails when the file and the
 * code disagree.
 */
private[spark] object ConfigurationPage {

  /** The page. */
  def markdown: String = {
    val sb = new StringBuilder
    sb ++= "# Configuration\n\n"
    sb ++= "Generated from `KaeShuffleConf` (shuffle-core); `KaeShuffleConfSuite` fails when this " +
      "file and the code disagree. Regenerate with\n" +
      "`mvn -B -pl shuffle-core -am test -Dtest=KaeShuffleConfSuite -Dkae.docs.write=true " +
      "-Dsurefire.failIfNoSpecifiedTests=false`.\n\n"
    sb ++= "Enable KAE Shuffle with `spark.shuffle.manager=" +
      "org.apache.spark.shuffle.kae.KaeShuffleManager`. Every setting below is read when the " +
      "manager starts (driver and each executor); a bad value stops the start with a message " +
      "naming the key and what it accepts. Unknown keys under `spark.shuffle.kae.` are reported " +
      "in a warning.\n\n"
    sb ++= "It changes no Spark setting. Push-based shuffle (`spark.shuffle.push.enabled`, on " +
      "YARN with a merging shuffle service) works with it: reduce tasks read the merged blocks " +
      "([yarn.md](yarn.md)).\n\n"
    sb ++= "Every setting below means the same on every Spark line we build for " +
      "([spark-lines.md](spark-lines.md)). The one that differs is our YARN service's " +
      "`spark.shuffle.kae.service.appScopedDirs` ([yarn.md](yarn.md)): applied by the service " +
      "built for Spark 4.2, not by those built for 3.5, 4.0 and 4.1. On Spark 3.5 the jar " +
      "also goes on the executors' class path (Spark's `spark.executor.extraClassPath`, " +
      "[yarn.md](yarn.md#2-ship-it-with-the-application)): 3.5 creates the shuffle manager " +
      "before it loads `--jars`.\n\n"
    sb ++= "| key | default | accepts | meaning | since |\n|---|---|---|---|---|\n"
    for (e <- KaeShuffleConf.all) {
      val default = e.defaultValueString match {
        case "<undefined>" => "(unset)"
        case d => s"`$d`"
      }
      sb ++= s"| `${e.key}` | $default | ${KaeShuffleConf.accepts(e)} | ${e.doc} | ${e.version} |\n"
    }
    sb.toString
  }
}
