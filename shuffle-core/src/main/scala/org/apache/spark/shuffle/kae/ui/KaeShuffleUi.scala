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

import org.apache.spark.SparkContext
import org.apache.spark.status.ElementTrackingStore

/** The KAE Shuffle tab in a running application's Spark UI (docs/metrics.md). */
private[spark] object KaeShuffleUi {

  /**
   * Attaches the tab and its listener to the application's UI, if it has one, then posts what the
   * manager chose: the listener shows it, and the event log keeps it for the History Server.
   * Called with the application's first shuffle: the shuffle manager is made before the
   * SparkContext can be reached.
   */
  def start(sc: SparkContext, started: KaeShuffleStarted): Unit = {
    for (ui <- sc.ui) sc.statusStore.store match {
      case store: ElementTrackingStore =>
        sc.listenerBus.addToStatusQueue(new KaeUiListener(store, sc.conf))
        ui.attachTab(new KaeShuffleTab(ui, store))
      case _ => // a live application's store is always an ElementTrackingStore
    }
    sc.listenerBus.post(started)
  }
}
