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

import java.io.{CharArrayWriter, PrintWriter}

import jakarta.servlet.{Filter, FilterChain, FilterConfig, ServletRequest, ServletResponse}
import jakarta.servlet.http.{HttpServletRequest, HttpServletResponse, HttpServletResponseWrapper}

import org.apache.spark.shuffle.kae.ui.StageLink

/**
 * Adds a link to the KAE Shuffle tab on Spark's stage page ([[StageLink]]), for Spark 4.0 and later (Jakarta servlets).
 * Opt-in, as every UI filter: `spark.ui.filters=org.apache.spark.shuffle.kae.KaeStageLinkFilter`
 * (in the application, and in the History Server's configuration for its pages). Other pages
 * pass through untouched; the stage page is buffered (Spark writes it through the response's
 * writer) and written with the link.
 */
class KaeStageLinkFilter extends Filter {
  override def init(config: FilterConfig): Unit = ()

  override def destroy(): Unit = ()

  override def doFilter(req: ServletRequest, res: ServletResponse, chain: FilterChain): Unit =
    (req, res) match {
      case (r: HttpServletRequest, w: HttpServletResponse) if StageLink.isStagePage(r.getRequestURI) =>
        val page = new CharArrayWriter
        val writer = new PrintWriter(page)
        chain.doFilter(
          r,
          new HttpServletResponseWrapper(w) {
            override def getWriter: PrintWriter = writer
            // The length changes with the link; the container computes it.
            override def setContentLength(length: Int): Unit = ()
            override def setContentLengthLong(length: Long): Unit = ()
          })
        writer.flush()
        if (page.size() > 0) {
          w.getWriter.write(StageLink.insert(page.toString, r.getParameter("id"), r.getParameter("attempt")))
        }
      case _ => chain.doFilter(req, res)
    }
}
