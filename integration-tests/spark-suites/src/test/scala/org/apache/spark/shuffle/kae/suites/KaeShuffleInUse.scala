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
package org.apache.spark.shuffle.kae.suites

import org.scalatest.{BeforeAndAfterEach, Suite}

import org.apache.spark.SparkContext
import org.apache.spark.shuffle.kae.KaeShuffleManager

/**
 * Mixed into each of Spark's suites run here: after every test, the SparkContext the test left
 * running (if any) must have KaeShuffleManager as its shuffle manager, so a suite can never pass
 * on Spark's own shuffle by a setting that did not reach it.
 */
trait KaeShuffleInUse extends BeforeAndAfterEach { self: Suite =>

  override def afterEach(): Unit =
    try SparkContext.getActive.foreach { sc =>
        val manager = sc.env.shuffleManager
        assert(
          manager.isInstanceOf[KaeShuffleManager],
          s"the test ran on ${manager.getClass.getName}, not KaeShuffleManager")
      }
    finally super.afterEach()
}

object KaeShuffleInUse {
  val Manager = "org.apache.spark.shuffle.kae.KaeShuffleManager"
}
