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
package org.apache.spark.deploy.history

import org.apache.spark.SparkConf

/** Spark's own History Server, in this JVM, for tests (its provider is private to its package). */
object KaeHistoryServer {

  /**
   * Starts a History Server over the event logs in `logDir` on an ephemeral port, with every
   * log there listed and `settings` added to its configuration; the caller stops it.
   */
  def start(logDir: String, settings: Map[String, String] = Map.empty): HistoryServer = {
    val conf = new SparkConf(false)
      .set("spark.history.fs.logDirectory", logDir)
      .set("spark.history.ui.port", "0")
      .setAll(settings)
    val provider = new FsHistoryProvider(conf)
    provider.checkForLogs()
    val server = new HistoryServer(conf, provider, HistoryServer.createSecurityManager(conf), 0)
    server.bind()
    provider.start()
    server
  }
}
