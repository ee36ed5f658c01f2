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

import java.nio.file.{Files, Path}

/**
 * The hand-written part of a generated benchmark page (where a target is missed, by how much and
 * why, from profiles). It lives in the page itself, between two markers that a new run of the
 * benchmark finds and writes back unchanged, so that a page is one file: edit the notes in the
 * page, and rerun the benchmark to renew its figures around them.
 */
object PageNotes {
  val Begin = "<!-- notes: written by hand; a new run of the benchmark keeps them as they are -->"
  val End = "<!-- end of the notes -->"

  /** The notes of the page at `page`, or None where it has none or does not exist yet. */
  def of(page: Path): Option[String] =
    if (!Files.exists(page)) None else parse(Files.readString(page))

  /** The notes between the markers of a page's text. */
  def parse(text: String): Option[String] = {
    val begin = text.indexOf(Begin)
    val end = text.indexOf(End, math.max(begin, 0))
    if (begin < 0 || end < 0) None
    else Some(text.substring(begin + Begin.length, end).trim).filter(_.nonEmpty)
  }

  /** `notes` as a page shows them: between the markers, then a blank line. */
  def block(notes: String): String = s"$Begin\n${notes.trim}\n$End\n\n"

  /**
   * `text` with its section written by the benchmark `writer` set to `section`: a benchmark whose
   * figures belong on another benchmark's page keeps them in that page's notes, between markers of
   * its own, which its next run replaces (and the page's own benchmark keeps, as notes). Without
   * the section, it goes at the end of the notes (of new notes where the page has none).
   */
  def withSection(text: String, writer: String, section: String): String = {
    val begin = s"<!-- $writer: written by its run; its next run replaces it -->"
    val end = s"<!-- end of $writer -->"
    val marked = s"$begin\n${section.trim}\n$end"
    val at = text.indexOf(begin)
    val until = text.indexOf(end, math.max(at, 0))
    val notesEnd = text.indexOf(End, math.max(text.indexOf(Begin), 0))
    if (at >= 0 && until >= 0) text.substring(0, at) + marked + text.substring(until + end.length)
    else if (text.contains(Begin) && notesEnd >= 0) {
      text.substring(0, notesEnd) + marked + "\n" + text.substring(notesEnd)
    } else text + "\n" + block(marked)
  }
}
