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

import java.math.{BigDecimal => JBigDecimal, RoundingMode}
import java.nio.charset.StandardCharsets
import java.time.LocalDate

import scala.jdk.CollectionConverters._

import io.trino.tpch.{TpchColumn, TpchColumnType, TpchEntity, TpchTable}

import org.apache.spark.sql.{DataFrame, Row, SparkSession}
import org.apache.spark.sql.types._

/**
 * TPC-H from the `io.trino.tpch` generator: its eight tables generated in parallel Spark tasks
 * into Parquet (once per scale factor, reused), and its 22 query texts read from the generator's
 * jar and adapted from the Presto dialect to Spark's. Money and quantities are `DECIMAL(15,2)`, so
 * results are exact and comparable between runs.
 */
object Tpch extends QuerySet {

  val title = "TPC-H"
  val pagePrefix = "Tpch"
  val provenance = "data from `io.trino.tpch:tpch:1.2` in Parquet with `DECIMAL(15,2)` money, " +
    "the 22 queries from the same jar adapted to Spark's dialect (views temporary, typed " +
    "decimal literals plain)"
  val warmUpTable = "nation"

  /** One query: statements to run first (q15's view), then the one whose rows are the result. */
  case class Query(number: Int, setup: Seq[String], select: String) {
    def name: String = s"q$number"
  }

  lazy val tableNames: Seq[String] = TpchTable.getTables.asScala.map(_.getTableName).toSeq

  override protected def generateTable(
      spark: SparkSession,
      table: String,
      scaleFactor: Double): DataFrame =
    spark.createDataFrame(rows(spark, table, scaleFactor), schema(TpchTable.getTable(table)))

  /** The 22 queries. */
  lazy val queries: Seq[Query] = (1 to 22).map { n =>
    val statements = adapt(resource(s"q$n.sql"))
    Query(n, statements.init, statements.last)
  }

  lazy val queryNames: Seq[String] = queries.map(_.name)

  override protected def statements(queryName: String): Seq[String] =
    queries.find(_.name == queryName).map(q => q.setup :+ q.select).getOrElse(unknown(queryName))

  /** The number of rows the generator's project expects from a query at scale factor 0.01. */
  def rowsAtHundredth(q: Query): Int =
    resource(s"${q.name}.result").linesIterator.drop(1).count(_.trim.nonEmpty)

  /**
   * Presto to Spark: comment lines dropped, statements split at `;`, a view becomes a temporary
   * view (nothing lands in a catalog), and typed decimal literals (`decimal '0.06'`, which Spark's
   * parser refuses) become plain literals, which Spark reads as decimals too.
   */
  private[workloads] def adapt(text: String): Seq[String] = {
    val sql = text.linesIterator.filterNot(_.trim.startsWith("--")).mkString("\n")
      .replaceAll("(?i)CREATE\\s+OR\\s+REPLACE\\s+VIEW", "CREATE OR REPLACE TEMPORARY VIEW")
      .replaceAll("(?i)\\bdecimal\\s+'([0-9.]+)'", "$1")
    sql.split(";").map(_.trim).filter(_.nonEmpty).toSeq
  }

  private def resource(name: String): String = {
    val path = s"io/trino/tpch/queries/$name"
    val in = Option(getClass.getClassLoader.getResourceAsStream(path)).getOrElse(
      throw new IllegalStateException(
        s"$path is not on the class path: io.trino.tpch:tpch missing"))
    try new String(in.readAllBytes(), StandardCharsets.UTF_8)
    finally in.close()
  }

  /** The table's rows, made by the generator's parts in parallel tasks (tiny tables: one). */
  private def rows(spark: SparkSession, tableName: String, sf: Double) = {
    val parts = if (Set("nation", "region")(tableName)) 1 else math.max(2, math.ceil(sf * 8).toInt)
    spark.sparkContext.parallelize(1 to parts, parts).flatMap { part =>
      val table = TpchTable.getTable(tableName).asInstanceOf[TpchTable[TpchEntity]]
      val columns = table.getColumns.asScala.toIndexedSeq
      table.createGenerator(sf, part, parts).asScala.iterator.map { e =>
        Row.fromSeq(columns.map(c => value(c, e)))
      }
    }
  }

  private def schema(table: TpchTable[_]): StructType = StructType(
    table.getColumns.asScala.map(c =>
      StructField(c.getColumnName, sqlType(c.getType), false)).toSeq)

  private def sqlType(t: TpchColumnType): DataType = t.getBase match {
    case TpchColumnType.Base.INTEGER => IntegerType
    case TpchColumnType.Base.IDENTIFIER => LongType
    case TpchColumnType.Base.DATE => DateType
    case TpchColumnType.Base.DOUBLE => DecimalType(15, 2)
    case TpchColumnType.Base.VARCHAR => StringType
  }

  private def value(c: TpchColumn[TpchEntity], e: TpchEntity): Any = c.getType.getBase match {
    case TpchColumnType.Base.INTEGER => c.getInteger(e)
    case TpchColumnType.Base.IDENTIFIER => c.getIdentifier(e)
    // java.sql.Date: Spark 3.5 takes no LocalDate here unless its Java 8 time API is on.
    case TpchColumnType.Base.DATE =>
      java.sql.Date.valueOf(LocalDate.ofEpochDay(c.getDate(e).toLong))
    // The generator's doubles are cents / 100: rounding to two places gives the exact value.
    case TpchColumnType.Base.DOUBLE =>
      JBigDecimal.valueOf(c.getDouble(e)).setScale(2, RoundingMode.HALF_UP)
    case TpchColumnType.Base.VARCHAR => c.getString(e)
  }
}
