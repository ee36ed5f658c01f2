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

import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

import org.apache.spark.SparkConf
import org.apache.spark.shuffle.kae.ui.{KaeStageRow, KaeUiListener}
import org.apache.spark.status.ElementTrackingStore
import org.apache.spark.util.kvstore.InMemoryStore

/** The UI tab's store stays bounded in an application that runs for days. */
class KaeUiListenerSuite extends AnyFunSuite {
  private def row(stage: Int) = new KaeStageRow(stage, 0, s"stage $stage", Nil, 1, 0L, 0L, 0L, "")

  test("only the newest spark.ui.retainedStages stage rows are kept") {
    // Triggers run as the rows are written, not on the store's thread.
    val conf = new SparkConf(false)
      .set("spark.appStateStore.asyncTracking.enable", "false")
      .set("spark.ui.retainedStages", "10")
    val store = new ElementTrackingStore(new InMemoryStore, conf)
    new KaeUiListener(store, conf)
    (0 until 25).foreach(s => store.write(row(s), checkTriggers = true))
    val kept = store.view(classOf[KaeStageRow]).asScala.map(_.stageId).toSeq
    assert(kept == (15 until 25))
  }
}
