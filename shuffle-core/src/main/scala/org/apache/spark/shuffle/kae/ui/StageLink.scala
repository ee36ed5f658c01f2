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
package ui

import scala.xml.Utility

/**
 * The link from Spark's stage page to the stage's row on the KAE Shuffle tab, which
 * [[KaeStageLinkFilter]] adds to the page (Spark gives plugins no place on its stage page).
 * Servlet-free: the per-line filter hands it the page.
 */
private[spark] object StageLink {

  /** Whether a request path is Spark's stage page, live or in the History Server. */
  def isStagePage(path: String): Boolean =
    path != null && path.stripSuffix("/").endsWith("/stages/stage")

  /**
   * The page with the link after its title (the first `</h3>`), or unchanged when it has none
   * (an error page) or the stage is not named. Relative, so it works under the History Server's
   * `/history/<app>/` and behind Spark's reverse proxy alike.
   */
  def insert(html: String, stageId: String, attempt: String): String = {
    val at = html.indexOf("</h3>")
    if (at < 0 || !isNumber(stageId)) html
    else {
      val a = if (isNumber(attempt)) attempt else "0"
      val link =
        s"""<p id="kae-stage-link"><a href="../../${KaeShuffleTab.Prefix}/#stage-$stageId-$a">""" +
          Utility.escape(
            s"KAE Shuffle: stage $stageId.$a's bytes, codec calls and bound") + "</a></p>"
      val end = at + "</h3>".length
      html.substring(0, end) + link + html.substring(end)
    }
  }

  private def isNumber(s: String): Boolean = s != null && s.nonEmpty && s.forall(_.isDigit)
}
