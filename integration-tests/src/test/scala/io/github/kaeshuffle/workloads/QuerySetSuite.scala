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

import org.scalatest.funsuite.AnyFunSuite

/**
 * What the query benchmarks take from a set: each query without its final LIMIT (their second
 * look at differing rows) and the files the deployable SqlApp runs in name order.
 */
class QuerySetSuite extends AnyFunSuite {

  test("a query's final LIMIT is taken off, and nothing else") {
    val q75 = Tpcds.queries.find(_.name == "q75").get.sql
    val unlimited = QuerySet.withoutFinalLimit(q75)
    assert(q75.trim.endsWith("LIMIT 100"))
    assert(unlimited == q75.trim.stripSuffix("LIMIT 100").trim)
    assert(QuerySet.withoutFinalLimit("SELECT a FROM t ORDER BY a limit 7;\n") ==
      "SELECT a FROM t ORDER BY a")
    // A LIMIT inside the statement stays: only the result's cut goes.
    val inner = "SELECT * FROM (SELECT a FROM t LIMIT 5) ORDER BY a"
    assert(QuerySet.withoutFinalLimit(inner) == inner)
    assert(Tpcds.queries.count(q => QuerySet.withoutFinalLimit(q.sql) != q.sql.trim) > 50)
  }

  test("SqlApp's files run in the benchmark's order and hold each query's statements") {
    for (set <- Seq(Tpch, Tpcds)) {
      assert(set.queryNames.sortBy(QuerySet.fileName) == set.queryNames, set.title)
    }
    assert(QuerySet.fileName("q1") == "q01" && QuerySet.fileName("q14a") == "q14a")
    val dir = Files.createTempDirectory("sql-dir")
    def text(p: Path) = new String(Files.readAllBytes(p), StandardCharsets.UTF_8)
    val tables = dir.resolve("tables")
    val ds = Tpcds.writeSqlDir(tables, dir.resolve("ds"), Seq("q75"), QuerySet.withoutFinalLimit)
    val q75 = Tpcds.queries.find(_.name == "q75").get.sql
    assert(text(ds.resolve("queries/q75.sql")) == QuerySet.withoutFinalLimit(q75))
    assert(Files.isSymbolicLink(ds.resolve("tables")))
    // TPC-H's q15 creates its view first: two statements, a line of `;` between them.
    val h = Tpch.writeSqlDir(tables, dir.resolve("h"))
    assert(text(h.resolve("queries/q15.sql")).split("\n;\n").length == 2)
    assert(h.resolve("queries").toFile.list().length == 22)
  }
}
