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
package io.github.kaeshuffle.workloads

import java.nio.file.Path

import org.apache.spark.sql.SparkSession

/**
 * A benchmark of SQL queries over generated tables (TPC-H, TPC-DS), as the query benchmark and the
 * differential tests run it: tables generated once per scale factor, registered as views, each
 * query run by name to its rows.
 */
trait QuerySet {

  /** The benchmark's name as pages print it (`TPC-H`). */
  def title: String

  /** The prefix of its benchmark pages (`Tpch` gives `Tpch-sf1.md`). */
  def pagePrefix: String

  /** Where the data and the query texts come from, a sentence for the pages. */
  def provenance: String

  /** The queries' names in the benchmark's order (`q1`, `q14a`, ...). */
  def queryNames: Seq[String]

  /** Settings every session running the queries needs, beyond Spark's defaults. */
  def sessionSettings: Map[String, String] = Map.empty

  /** A small table, read once untimed so that a session's first job pays its start-up. */
  def warmUpTable: String

  /** The tables' Parquet directory for a scale factor under `root`, generated if missing. */
  def generate(spark: SparkSession, scaleFactor: Double, root: Path): Path

  /** Registers every table of `dir` as a temporary view named as in the queries. */
  def register(spark: SparkSession, dir: Path): Unit

  /** A query's result rows, each as its values joined by `|`, in the query's order. */
  def run(spark: SparkSession, queryName: String): Seq[String]
}

object QuerySet {

  /** The sets by the names the benchmark's arguments use. */
  def named(name: String): QuerySet = name match {
    case "tpch" => Tpch
    case "tpcds" => Tpcds
    case other => throw new IllegalArgumentException(
        s"No query set '$other': the sets are tpch and tpcds.")
  }
}
