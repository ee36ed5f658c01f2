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

import scala.jdk.CollectionConverters._

import io.trino.tpcds.{Results, Session, Table}
import io.trino.tpcds.column.{Column, ColumnType}

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types._

/**
 * TPC-DS from the `io.trino.tpcds` generator (a Java port of the TPC's dsdgen): its 24 tables
 * generated in parallel Spark tasks into Parquet (once per scale factor, reused), with the
 * generator's decimals, dates and nulls, and the 99 queries (103 texts with the a/b variants) as
 * Spark's own SQL tests ship them (`tpcds/q*.sql` of spark-sql's test jar, unpacked by the build
 * into the test classes), run unchanged.
 */
object Tpcds extends QuerySet {

  val title = "TPC-DS"
  val pagePrefix = "Tpcds"
  val provenance = "data from `io.trino.tpcds:tpcds:1.4` in Parquet (the generator's decimals, " +
    "dates and nulls), the 99 queries (103 texts) unchanged from Spark's own test jar " +
    "(`tpcds/q*.sql` of spark-sql's tests)"
  val warmUpTable = "date_dim"

  /**
   * At small scale factors some ratios divide by a sum of 0 (q12's revenue ratio at SF 0.01): SQL
   * gives NULL there, Spark's ANSI mode (its default from 4.0) an error. The queries are the
   * standard's, so the sessions take SQL's semantics.
   */
  override val sessionSettings: Map[String, String] = Map("spark.sql.ansi.enabled" -> "false")

  /** One query, named as its file (`q14a`). */
  case class Query(name: String, sql: String)

  /** Column names of the generator that Spark's schema and queries spell otherwise. */
  private val SparkNames = Map("c_last_review_date_sk" -> "c_last_review_date")

  /** Every base table but the generator's version record. */
  lazy val tableNames: Seq[String] =
    Table.getBaseTables.asScala.filter(_ != Table.DBGEN_VERSION).map(_.getName).toSeq

  override protected def generateTable(
      spark: SparkSession,
      table: String,
      scaleFactor: Double): DataFrame = {
    val t = Table.getTable(table)
    spark.createDataFrame(rows(spark, t, scaleFactor), schema(t))
  }

  /** The queries, in the order of their numbers (q14a before q14b). */
  lazy val queries: Seq[Query] = {
    val names = (1 to 99).flatMap { n =>
      val plain = s"q$n"
      if (exists(plain)) Seq(plain) else Seq(s"${plain}a", s"${plain}b").filter(exists)
    }
    require(names.size == 103, s"expected 103 TPC-DS query texts, found ${names.size}")
    names.map(n => Query(n, resource(n)))
  }

  lazy val queryNames: Seq[String] = queries.map(_.name)

  override protected def statements(queryName: String): Seq[String] =
    queries.find(_.name == queryName).map(q => Seq(q.sql)).getOrElse(unknown(queryName))

  private def path(name: String) = s"tpcds/$name.sql"

  private def exists(name: String): Boolean =
    getClass.getClassLoader.getResource(path(name)) != null

  private def resource(name: String): String = {
    val in = Option(getClass.getClassLoader.getResourceAsStream(path(name))).getOrElse(
      throw new IllegalStateException(
        s"${path(name)} is not on the class path: the build unpacks it from spark-sql's test jar"))
    try new String(in.readAllBytes(), StandardCharsets.UTF_8)
    finally in.close()
  }

  /**
   * The table's rows, made by the generator's chunks in parallel tasks (small tables: one). A
   * returns table is made with its sales table, as the generator does: each sales row carries its
   * return, if any, as its second row.
   */
  private def rows(spark: SparkSession, table: Table, sf: Double) = {
    val parts = if (table.isSmall) 1 else math.max(2, math.ceil(sf * 8).toInt)
    val name = table.getName
    spark.sparkContext.parallelize(1 to parts, parts).flatMap { chunk =>
      val t = Table.getTable(name)
      val source = if (t.isChild) t.getParent else t
      val session = Session.getDefaultSession
        .withScale(sf).withParallelism(parts).withChunkNumber(chunk).withTable(source)
      val columns = t.getColumns.toIndexedSeq
      val pick = if (t.isChild) 1 else 0
      Results.constructResults(source, session).asScala.iterator
        .filter(_.size > pick)
        .map(r => Row.fromSeq(columns.map(c => value(c, r.get(pick).get(c.getPosition)))))
    }
  }

  private def schema(table: Table): StructType = StructType(
    table.getColumns.toSeq.map(c => StructField(sparkName(c), sqlType(c.getType), true)))

  private def sparkName(c: Column): String = {
    val name = c.getName.toLowerCase(java.util.Locale.ROOT)
    SparkNames.getOrElse(name, name)
  }

  private def sqlType(t: ColumnType): DataType = t.getBase match {
    case ColumnType.Base.INTEGER => IntegerType
    case ColumnType.Base.IDENTIFIER => LongType
    case ColumnType.Base.DATE => DateType
    case ColumnType.Base.DECIMAL => DecimalType(t.getPrecision.get, t.getScale.get)
    case ColumnType.Base.VARCHAR | ColumnType.Base.CHAR | ColumnType.Base.TIME => StringType
  }

  /** The generator's text of one value (null: SQL NULL) as the column's Spark type. */
  private def value(c: Column, text: String): Any =
    if (text == null) null
    else
      c.getType.getBase match {
        case ColumnType.Base.INTEGER => text.toInt
        case ColumnType.Base.IDENTIFIER => text.toLong
        // java.sql.Date: Spark 3.5 takes no LocalDate here unless its Java 8 time API is on.
        case ColumnType.Base.DATE => java.sql.Date.valueOf(text)
        case ColumnType.Base.DECIMAL =>
          new java.math.BigDecimal(text).setScale(c.getType.getScale.get)
        case _ => text
      }
}
