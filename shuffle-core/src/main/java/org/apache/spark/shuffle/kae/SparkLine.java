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
package org.apache.spark.shuffle.kae;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The Spark line this jar is built for ({@code line.properties}, filled in by the build profile)
 * and the check, at the manager's start, that the running Spark is that line. Spark's internals
 * change shape between lines (docs/spark-lines.md), so a jar on another line would fail later, at
 * the first shuffle write, with a {@code NoSuchMethodError}; this check stops the start instead and
 * names the jar to use.
 *
 * <p>Written in Java on purpose: on a Spark of another Scala (the 3.5 jar for Scala 2.12 on a Scala
 * 2.13 Spark) any Scala code of ours fails to link before it could say why (2.12's collections and
 * varargs wrappers do not exist in 2.13). This class touches Scala only through two methods every
 * Scala and Spark version has.
 */
final class SparkLine {
  private SparkLine() {}

  /** A (Spark line, Scala binary version) pair we build a jar for. */
  static final class Build {
    final String line;
    final String scala;

    Build(String line, String scala) {
      this.line = line;
      this.scala = scala;
    }

    @Override
    public String toString() {
      return "Spark " + line + " with Scala " + scala;
    }
  }

  /** The (Spark line, Scala binary version) pairs we build a jar for. */
  static final List<Build> SUPPORTED =
      Collections.unmodifiableList(
          Arrays.asList(
              new Build("3.5", "2.12"),
              new Build("3.5", "2.13"),
              new Build("4.0", "2.13"),
              new Build("4.1", "2.13"),
              new Build("4.2", "2.13"),
              new Build("4.3", "2.13")));

  private static final Properties PROPS = load();

  /** The line this jar is built for, e.g. "4.2". */
  static final String BUILT = PROPS.getProperty("spark.line");

  /** The Scala binary version this jar is built for, e.g. "2.13". */
  static final String SCALA_BINARY = PROPS.getProperty("scala.binary");

  private static final String VERSION = PROPS.getProperty("version");

  private static Properties load() {
    Properties p = new Properties();
    try (InputStream in = SparkLine.class.getResourceAsStream("line.properties")) {
      if (in == null) {
        throw new IllegalStateException("line.properties is missing from the KAE Shuffle jar");
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p;
  }

  /** The deployable jar's file name for a line and Scala binary version. */
  static String jarName(String line, String scala) {
    return "kae-shuffle-spark" + line + "_" + scala + "-" + VERSION + ".jar";
  }

  /** "4.2" of "4.2.0" or "4.2.1-SNAPSHOT"; "2.13" of "2.13.18". */
  static String lineOf(String version) {
    String[] parts = version.split("\\.");
    return parts.length < 2 ? version : parts[0] + "." + parts[1];
  }

  /**
   * Why this jar cannot run on a Spark of this version and Scala, naming the jar to use; empty when
   * it can.
   */
  static Optional<String> mismatch(String sparkVersion, String scalaVersion) {
    String line = lineOf(sparkVersion);
    String scala = lineOf(scalaVersion);
    if (line.equals(BUILT) && scala.equals(SCALA_BINARY)) {
      return Optional.empty();
    }
    String ours =
        jarName(BUILT, SCALA_BINARY)
            + " (built for Spark "
            + BUILT
            + ", Scala "
            + SCALA_BINARY
            + ")";
    String head =
        "KAE Shuffle: "
            + ours
            + " cannot run on Spark "
            + sparkVersion
            + " with Scala "
            + scalaVersion;
    for (Build b : SUPPORTED) {
      if (b.line.equals(line) && b.scala.equals(scala)) {
        return Optional.of(head + ". Use " + jarName(line, scala) + " instead.");
      }
    }
    List<String> builds = new ArrayList<>();
    for (Build b : SUPPORTED) {
      builds.add(b.toString());
    }
    return Optional.of(
        head
            + ", and no KAE Shuffle jar is built for Spark "
            + line
            + " with Scala "
            + scala
            + " (jars are built for "
            + String.join(", ", builds)
            + ").");
  }

  /** Stops the manager's start when the running Spark is not this jar's line. */
  static void check() {
    String sparkVersion = org.apache.spark.package$.MODULE$.SPARK_VERSION();
    String scalaVersion = scala.util.Properties$.MODULE$.versionNumberString();
    mismatch(sparkVersion, scalaVersion)
        .ifPresent(
            m -> {
              throw new IllegalStateException(m);
            });
  }
}
