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
package io.github.kaeshuffle.deploy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.Collections;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A user's application that uses nothing of Scala, so that it starts on any Spark line whatever the
 * Scala version it was compiled with. The deployment test submits it with our jar to a Spark of
 * another line (possibly another Scala: the 3.5 line's jar built for Scala 2.12 is tried on a Scala
 * 2.13 Spark), where {@code WorkloadApp} itself could not even start, so that what refuses is our
 * manager, not the application. Writes {@code groups <n>} to the report file given as its first
 * argument when it runs.
 */
public final class LineCheckApp {
  private LineCheckApp() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      throw new IllegalArgumentException("usage: LineCheckApp <report file> [ignored...]");
    }
    try (JavaSparkContext sc = new JavaSparkContext(new SparkConf())) {
      long groups = sc.parallelize(Arrays.asList(1, 2, 3, 4, 5, 6), 2).groupBy(i -> i % 3).count();
      Files.write(
          Paths.get(args[0]),
          Collections.singletonList("groups " + groups),
          StandardCharsets.UTF_8);
    }
  }
}
