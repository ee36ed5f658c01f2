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
package io.github.kaeshuffle.yarn;

import java.io.File;
import java.io.IOException;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.shuffle.MergedShuffleFileManager;
import org.apache.spark.network.util.TransportConf;

/**
 * Spark's shuffle block handler as this line's Spark makes it (Spark 4.2 and later): it refuses an
 * executor whose directories lie outside the NodeManager's local dirs or, when app-scoped, outside
 * its application's directory.
 */
public final class LineBlockHandler {
  private LineBlockHandler() {}

  /** Whether Spark's handler on this line checks executors' local dirs. */
  public static boolean checksLocalDirs() {
    return true;
  }

  /** The handler; {@code mergeManager} merges pushed blocks, null for none. */
  static ExternalBlockHandler create(
      TransportConf conf,
      File executorsDb,
      MergedShuffleFileManager mergeManager,
      String[] localDirs,
      boolean appScoped)
      throws IOException {
    return mergeManager == null
        ? new ExternalBlockHandler(conf, executorsDb, localDirs, appScoped)
        : new ExternalBlockHandler(conf, executorsDb, mergeManager, localDirs, appScoped);
  }
}
