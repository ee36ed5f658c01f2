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
package io.github.kaeshuffle.deploy

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path, Paths}

import scala.util.hashing.MurmurHash3

import org.apache.spark.shuffle.kae.KaeSparkAccess
import org.apache.spark.sql.SparkSession

/**
 * SQL queries over Parquet tables, for a test that has the data and the queries and wants them
 * run where it cannot run them itself (across test hosts): every directory of `<dir>/tables`
 * becomes a temporary view named for it, and each `<dir>/queries/<name>.sql` runs, its
 * statements separated by lines holding only `;`, the last one's rows reported as
 * `query <name> <rows> <hash>` (see [[SqlApp.digest]]), the same of the rows sorted as
 * `sorted <name> <rows> <hash>` (for results whose order a query leaves open: ties in its ORDER
 * BY), and its time, its setup statements included, as `seconds <name> <s>`.
 *
 * usage: SqlApp <report file> <size, unused> <dir>
 */
object SqlApp {

  /** The hash of a result: its rows, each as its values joined by `|`, in their order. */
  def digest(rows: Seq[String]): Int = MurmurHash3.orderedHash(rows)

  private def list(dir: Path): Seq[Path] = {
    val s = Files.list(dir)
    try s.toArray.map(_.asInstanceOf[Path]).sortBy(_.getFileName.toString).toSeq
    finally s.close()
  }

  def main(args: Array[String]): Unit = {
    val report = Paths.get(args(0))
    val dir = Paths.get(args(2))
    val spark = SparkSession.builder().getOrCreate()
    val lines = Seq.newBuilder[String]
    try {
      for (table <- list(dir.resolve("tables"))) {
        spark.read.parquet(table.toString).createOrReplaceTempView(table.getFileName.toString)
      }
      for (file <- list(dir.resolve("queries"))) {
        val name = file.getFileName.toString.stripSuffix(".sql")
        val statements = new String(Files.readAllBytes(file), StandardCharsets.UTF_8)
          .split("\n;\n").map(_.trim).filter(_.nonEmpty)
        val start = System.nanoTime()
        statements.init.foreach(spark.sql)
        val rows = spark.sql(statements.last).collect().map(_.mkString("|")).toSeq
        lines += s"seconds $name ${(System.nanoTime() - start) / 1e9}"
        lines += s"query $name ${rows.size} ${digest(rows)}"
        lines += s"sorted $name ${rows.size} ${digest(rows.sorted)}"
      }
      lines += s"manager ${KaeSparkAccess.shuffleManagerClass(spark.sparkContext)}"
    } finally spark.stop()
    ReportFile.write(report, lines.result())
  }
}
