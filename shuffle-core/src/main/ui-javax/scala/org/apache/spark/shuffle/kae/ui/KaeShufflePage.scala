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

import scala.xml.Node

import javax.servlet.http.HttpServletRequest

import org.apache.spark.ui.{UIUtils, WebUIPage}
import org.apache.spark.util.kvstore.KVStore

/**
 * The KAE Shuffle tab's page for Spark 3.5, whose UI is on javax servlets (the only
 * difference between lines: the request's type). The page itself is [[KaeShufflePageContent]].
 */
private[spark] class KaeShufflePage(tab: KaeShuffleTab, store: KVStore) extends WebUIPage("") {
  override def render(request: HttpServletRequest): Seq[Node] = {
    val content = new KaeShufflePageContent(
      store,
      (id, attempt) =>
        UIUtils.prependBaseUri(request, tab.basePath, s"/stages/stage/?id=$id&attempt=$attempt"))
    UIUtils.headerSparkPage(request, "KAE Shuffle", content.render(), tab)
  }
}
