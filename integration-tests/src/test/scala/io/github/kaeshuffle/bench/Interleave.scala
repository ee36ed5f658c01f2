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
package io.github.kaeshuffle.bench

/**
 * How the query benchmark alternates its configurations within a repetition. A shuffle manager
 * is fixed for a SparkContext's life, so a switch of configuration is a new session.
 *
 * `Session`: each configuration runs all the queries in one session, then the next. Cheap, but a
 * pair's two runs of a query lie a whole pass apart, and this shared machine's speed drifts by
 * 20% and more over such spans. `Query`: query by query, each configuration in a session of its
 * own, so a pair's runs lie seconds apart; it costs a session's start per query and
 * configuration, and each query runs first in its session (after the untimed warm-up query).
 */
sealed abstract class Interleave(val name: String)

object Interleave {
  case object Session extends Interleave("session")
  case object Query extends Interleave("query")

  val All: Seq[Interleave] = Seq(Session, Query)

  def named(name: String): Interleave =
    All.find(_.name == name).getOrElse(throw new IllegalArgumentException(
      s"bench.interleave is '$name'; it must be one of ${All.map(_.name).mkString(", ")}."))
}
