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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.metrics.KaeShuffleMetrics

/** docs/metrics.md and its Grafana dashboard name exactly the counters the sources publish. */
class MetricsDocsSuite extends AnyFunSuite {
  private val docs = Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs"))
  private val counters = KaeShuffleMetrics.Names.map(_.stripPrefix(KaeShuffleMetrics.Prefix))

  private def read(file: String): String =
    new String(Files.readAllBytes(docs.resolve(file)), StandardCharsets.UTF_8)

  test("every counter is described in docs/metrics.md") {
    val text = read("metrics.md")
    for (c <- counters) assert(text.contains(s"`$c`"), s"$c is not in docs/metrics.md")
  }

  test("the Grafana dashboard queries only counters that exist") {
    val queried = "KaeShuffleApplication_([A-Za-z]+)_([A-Za-z]+)_Count".r
      .findAllMatchIn(read("grafana/kae-shuffle-dashboard.json"))
      .map(m => s"${m.group(1)}.${m.group(2)}").toSet
    assert(queried.size >= 10, queried)
    for (q <- queried) assert(counters.contains(q), s"the dashboard queries $q")
  }
}
