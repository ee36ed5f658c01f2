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

import org.apache.spark.ui.{SparkUI, SparkUITab}
import org.apache.spark.util.kvstore.KVStore

/** The "KAE Shuffle" tab of the Spark UI and the History Server, at `/kaeshuffle/`. */
private[spark] class KaeShuffleTab(parent: SparkUI, store: KVStore)
  extends SparkUITab(parent, KaeShuffleTab.Prefix) {

  override val name = "KAE Shuffle"

  attachPage(new KaeShufflePage(this, store))
}

private[spark] object KaeShuffleTab {
  val Prefix = "kaeshuffle"
}
