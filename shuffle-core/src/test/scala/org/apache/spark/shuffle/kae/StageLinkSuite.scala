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

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.shuffle.kae.ui.StageLink

/** The link KaeStageLinkFilter adds to Spark's stage page. */
class StageLinkSuite extends AnyFunSuite {
  private val page =
    "<html><body><h3>Details for Stage 3 (Attempt 1)</h3><div>...</div></body></html>"

  test("the stage pages, live and in the History Server, and nothing else") {
    assert(StageLink.isStagePage("/stages/stage/"))
    assert(StageLink.isStagePage("/history/app-1/1/stages/stage"))
    assert(!StageLink.isStagePage("/stages/"))
    assert(!StageLink.isStagePage("/stages/stage/kill"))
    assert(!StageLink.isStagePage(null))
  }

  test("a relative link to the stage's row follows the title") {
    val linked = StageLink.insert(page, "3", "1")
    assert(linked.startsWith(
      "<html><body><h3>Details for Stage 3 (Attempt 1)</h3><p id=\"kae-stage-link\">"))
    assert(linked.contains("""<a href="../../kaeshuffle/#stage-3-1">"""))
    assert(linked.endsWith("<div>...</div></body></html>"))
  }

  test("a page without a title or a stage named by other than digits is left as it is") {
    assert(StageLink.insert("<html>no stage</html>", "3", "0") == "<html>no stage</html>")
    assert(StageLink.insert(page, "3\"><script>", "0") == page)
    assert(StageLink.insert(page, null, "0") == page)
    assert(StageLink.insert(page, "3", null).contains("#stage-3-0"))
  }
}
