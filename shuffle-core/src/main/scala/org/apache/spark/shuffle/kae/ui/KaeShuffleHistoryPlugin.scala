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

import org.apache.spark.SparkConf
import org.apache.spark.scheduler.SparkListener
import org.apache.spark.status.{AppHistoryServerPlugin, ElementTrackingStore}
import org.apache.spark.ui.SparkUI

/**
 * The KAE Shuffle tab in Spark's History Server (docs/metrics.md): found by the History Server's
 * service loader when the deployable jar is on its class path, it replays each event log through
 * [[KaeUiListener]] and shows the tab for applications that used KAE Shuffle.
 */
private[spark] class KaeShuffleHistoryPlugin extends AppHistoryServerPlugin {
  override def createListeners(conf: SparkConf, store: ElementTrackingStore): Seq[SparkListener] =
    Seq(new KaeUiListener(store, conf))

  override def setupUI(ui: SparkUI): Unit = {
    val store = ui.store.store
    if (store.count(classOf[KaeApplicationRow]) > 0 || store.count(classOf[KaeStageRow]) > 0) {
      ui.attachTab(new KaeShuffleTab(ui, store))
    }
  }
}
