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

import java.nio.file.{Files, Paths}
import java.util.regex.Pattern

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

class PageNotesSuite extends AnyFunSuite {
  test("a page written with notes gives them back for its next run, unchanged") {
    val notes = "## Why\n\nThe disk bounds it (profile below).\n\n| a | b |\n|---|---|\n| 1 | 2 |"
    val page = "# Title\n\nGenerated text.\n\n" + PageNotes.block(notes) + "## Results\n"
    assert(PageNotes.parse(page).contains(notes))
    assert(PageNotes.parse(page + PageNotes.block("other")).contains(notes))
  }

  test("a page without notes, or with one marker only, has none") {
    assert(PageNotes.parse("# Title\n\nNo notes.\n").isEmpty)
    assert(PageNotes.parse(PageNotes.Begin + "\ncut off").isEmpty)
    assert(PageNotes.parse(PageNotes.End + "\n" + PageNotes.Begin).isEmpty)
    assert(PageNotes.of(Paths.get("target/no-such-page.md")).isEmpty)
  }

  test("another benchmark's section sits in the notes and its next run replaces only it") {
    val page = "# Title\n\n" + PageNotes.block("## Why\n\nBy hand.") + "## Results\n"
    val first = PageNotes.withSection(page, "Overhead", "## Per call\n\n| 1 |")
    assert(PageNotes.parse(first).exists(n => n.startsWith("## Why") && n.contains("| 1 |")))
    assert(first.endsWith("## Results\n"))
    val second = PageNotes.withSection(first, "Overhead", "## Per call\n\n| 2 |")
    assert(second == first.replace("| 1 |", "| 2 |"), "only the section changed")
    val none = PageNotes.withSection("# Title\n", "Overhead", "| 3 |")
    assert(PageNotes.parse(none).exists(_.contains("| 3 |")), "notes made to hold it")
    val empty = PageNotes.withSection(
      s"# Title\n\n${PageNotes.Begin}\n${PageNotes.End}\n",
      "Overhead",
      "| 4 |")
    assert(
      PageNotes.parse(empty).contains(
        "<!-- Overhead: written by its run; its next run replaces it -->\n| 4 |\n" +
          "<!-- end of Overhead -->"),
      "empty notes take it, no second block"
    )
  }

  test("every checked-in benchmark page holds its notes once, between both markers") {
    val root = Paths.get(sys.props.getOrElse("kae.docs.dir", "../docs")).resolve("benchmarks")
    val pages = Files.walk(root).iterator().asScala.filter(_.toString.endsWith(".md")).toSeq
    assert(pages.nonEmpty, s"no pages under $root")
    for (p <- pages) {
      val text = Files.readString(p)
      val counts =
        Seq(PageNotes.Begin, PageNotes.End).map(m => text.split(Pattern.quote(m), -1).length - 1)
      assert(counts == Seq(0, 0) || counts == Seq(1, 1), s"$p: markers $counts")
      if (counts == Seq(1, 1)) assert(PageNotes.parse(text).nonEmpty, s"$p: empty notes")
    }
  }
}
