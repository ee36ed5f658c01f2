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

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}

import org.apache.spark.sql.{DataFrame, SparkSession}

/**
 * A benchmark of SQL queries over generated tables (TPC-H, TPC-DS), as the query benchmark and the
 * differential tests run it: tables generated once per scale factor into Parquet, registered as
 * views, each query run by name to its rows.
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

  /** The tables the queries read, named as the queries name them. */
  def tableNames: Seq[String]

  /** One table's rows at a scale factor, made by the generator in parallel Spark tasks. */
  protected def generateTable(spark: SparkSession, table: String, scaleFactor: Double): DataFrame

  /**
   * A query's statements: any it needs run first (q15's view in TPC-H), then the one whose rows
   * are its result.
   */
  protected def statements(queryName: String): Seq[String]

  /** The tables' Parquet directory for a scale factor under `root`, generated if missing. */
  final def generate(spark: SparkSession, scaleFactor: Double, root: Path): Path = {
    val dir = root.resolve("sf" + QuerySet.scaleFactorName(scaleFactor))
    for (table <- tableNames) {
      val out = dir.resolve(table)
      // Spark writes _SUCCESS last: a table without it was interrupted and is written again.
      if (!Files.exists(out.resolve("_SUCCESS"))) {
        generateTable(spark, table, scaleFactor).write.mode("overwrite").parquet(out.toString)
      }
    }
    dir
  }

  /** Registers every table of `dir` as a temporary view named as in the queries. */
  final def register(spark: SparkSession, dir: Path): Unit =
    for (table <- tableNames) {
      spark.read.parquet(dir.resolve(table).toString).createOrReplaceTempView(table)
    }

  /**
   * A directory as the deployable SqlApp reads it, for runs in other JVMs: `tables` (a link to
   * generated `tables`) and `queries/<file name>.sql` for each of `queries`, its statements
   * separated by `;` lines, the last one passed through `last`.
   */
  final def writeSqlDir(
      tables: Path,
      dir: Path,
      queries: Seq[String] = queryNames,
      last: String => String = identity): Path = {
    Files.createDirectories(dir.resolve("queries"))
    Files.deleteIfExists(dir.resolve("tables"))
    Files.createSymbolicLink(dir.resolve("tables"), tables.toAbsolutePath)
    for (q <- queries) {
      val all = statements(q)
      Files.write(
        dir.resolve("queries").resolve(QuerySet.fileName(q) + ".sql"),
        (all.init :+ last(all.last)).mkString("\n;\n").getBytes(StandardCharsets.UTF_8))
    }
    dir
  }

  /** A query's result rows, each as its values joined by `|`, in the query's order. */
  final def run(spark: SparkSession, queryName: String): Seq[String] =
    rows(spark, queryName, identity)

  /**
   * A query's rows without its final `LIMIT` (if it has one), sorted: what stays of a result once
   * an ORDER BY with ties (TPC-DS q75's) no longer decides which rows come first or are cut.
   */
  final def runSortedWithoutLimit(spark: SparkSession, queryName: String): Seq[String] =
    rows(spark, queryName, QuerySet.withoutFinalLimit).sorted

  /** Runs the query's first statements, then `last` of its last one; that one's rows. */
  private def rows(spark: SparkSession, queryName: String, last: String => String): Seq[String] = {
    val all = statements(queryName)
    all.init.foreach(spark.sql)
    spark.sql(last(all.last)).collect().map(_.mkString("|")).toSeq
  }

  /** The error for a query name the set does not have. */
  protected def unknown(queryName: String): Nothing =
    throw new IllegalArgumentException(s"No $title query $queryName")
}

object QuerySet {

  /** The sets by the names the benchmark's arguments use. */
  def named(name: String): QuerySet = name match {
    case "tpch" => Tpch
    case "tpcds" => Tpcds
    case other => throw new IllegalArgumentException(
        s"No query set '$other': the sets are tpch and tpcds.")
  }

  private val FinalLimit = """(?i)\s+LIMIT\s+\d+\s*$""".r

  /** A statement without its final `LIMIT n` (and trailing `;`), if it has one. */
  def withoutFinalLimit(sql: String): String =
    FinalLimit.replaceFirstIn(sql.trim.stripSuffix(";"), "")

  /**
   * A query's file name for SqlApp, which runs the files in the order of their names: the number
   * two digits wide, so that `q2` (`q02`) comes before `q10` and `q14a` after `q14`.
   */
  def fileName(queryName: String): String = queryName match {
    case QueryName(n, rest) => f"q${n.toInt}%02d$rest"
    case other => other
  }

  private val QueryName = """q(\d+)(.*)""".r

  /** `1` for 1.0, `0_01` for 0.01: the scale factor as a directory name. */
  def scaleFactorName(sf: Double): String =
    if (sf == sf.toLong) sf.toLong.toString else sf.toString.replace('.', '_')
}
