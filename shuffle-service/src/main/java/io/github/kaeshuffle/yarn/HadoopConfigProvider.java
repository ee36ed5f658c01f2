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

import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.network.util.ConfigProvider;

/**
 * Spark's transport settings ({@code spark.shuffle.io.*} ...) read from the NodeManager's
 * configuration.
 */
final class HadoopConfigProvider extends ConfigProvider {
  private final Configuration conf;

  HadoopConfigProvider(Configuration conf) {
    this.conf = conf;
  }

  @Override
  public String get(String name) {
    String value = conf.get(name);
    if (value == null) {
      throw new NoSuchElementException(name);
    }
    return value;
  }

  @Override
  public String get(String name, String defaultValue) {
    String value = conf.get(name);
    return value == null ? defaultValue : value;
  }

  @Override
  public Iterable<Map.Entry<String, String>> getAll() {
    Map<String, String> all = new HashMap<>();
    for (Map.Entry<String, String> e : conf) {
      all.put(e.getKey(), e.getValue());
    }
    return all.entrySet();
  }
}
