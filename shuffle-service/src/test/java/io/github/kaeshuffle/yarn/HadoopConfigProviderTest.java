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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/** Spark's transport settings read from the NodeManager's configuration. */
class HadoopConfigProviderTest {
  private final Configuration conf = new Configuration(false);
  private final HadoopConfigProvider provider = new HadoopConfigProvider(conf);

  @Test
  void aSettingIsReadFromTheNodeManagersConfiguration() {
    conf.set("spark.shuffle.io.serverThreads", "4");
    assertEquals("4", provider.get("spark.shuffle.io.serverThreads"));
    assertEquals("4", provider.get("spark.shuffle.io.serverThreads", "8"));
    boolean listed = false;
    for (Map.Entry<String, String> e : provider.getAll()) {
      listed |= e.getKey().equals("spark.shuffle.io.serverThreads") && e.getValue().equals("4");
    }
    assertEquals(true, listed);
  }

  @Test
  void aMissingSettingTakesTheDefaultOrFailsAsSparkExpects() {
    assertEquals("8", provider.get("spark.shuffle.io.serverThreads", "8"));
    assertThrows(
        NoSuchElementException.class, () -> provider.get("spark.shuffle.io.serverThreads"));
  }
}
