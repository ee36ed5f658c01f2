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

import org.apache.spark.SparkConf
import org.apache.spark.internal.Logging
import org.apache.spark.internal.config

/**
 * Push-based shuffle (`spark.shuffle.push.enabled`: YARN with Spark's merging shuffle service) is
 * turned off where KAE Shuffle serves shuffles, with a warning. Spark pushes the map output of any
 * shuffle whose block resolver is an `IndexShuffleBlockResolver` (ours is), the service merges it
 * and the driver waits for the merge to be finalized, but our reader does not read merged blocks
 * yet: the push, the merge and the wait would all be wasted.
 *
 * It is done on the SparkConf the manager is created with, which is the application's own, before
 * Spark's scheduler reads it and before any shuffle is registered, on the driver and on every
 * executor. A per-shuffle switch (`ShuffleDependency.setShuffleMergeAllowed(false)` from
 * `registerShuffle`) would work on Spark 4, but on 3.5 the dependency sets that field after
 * `registerShuffle` returns, overwriting it.
 */
private[kae] object PushBasedShuffle extends Logging {

  /** Turns push-based shuffle off in `conf` if it is on. */
  def turnOff(conf: SparkConf): Unit =
    if (conf.get(config.PUSH_BASED_SHUFFLE_ENABLED)) {
      conf.set(config.PUSH_BASED_SHUFFLE_ENABLED, false)
      logWarning(s"${config.PUSH_BASED_SHUFFLE_ENABLED.key}=true is turned off: KAE Shuffle does " +
        "not read merged shuffle blocks yet, so pushing and merging its map output would be " +
        "wasted work (docs/configuration.md).")
    }
}
