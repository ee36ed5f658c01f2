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
package io.github.kaeshuffle.codec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads libkaeshuffle once per class loader, in a fixed order:
 *
 * <ol>
 *   <li>the path in system property {@value #PATH_PROPERTY}, if set (no other place is tried);
 *   <li>the library bundled in this jar under {@code /<os>/<arch>/libkaeshuffle-<version>.so},
 *       extracted to a uniquely named file in {@value #TMPDIR_PROPERTY} (default {@code
 *       java.io.tmpdir}) and loaded with {@link System#load}.
 * </ol>
 *
 * <p>A failure never throws out of here: it is recorded, logged once with what to do, and the
 * pure-Java codec serves instead.
 */
public final class NativeLoader {
  public static final String PATH_PROPERTY = "kaeshuffle.native.path";
  public static final String TMPDIR_PROPERTY = "kaeshuffle.native.tmpdir";

  private static final Logger LOG = LoggerFactory.getLogger(NativeLoader.class);
  private static final Object LOCK = new Object();
  private static volatile Status status;

  private NativeLoader() {}

  /** Whether the library is loaded, and where from or why not. */
  public static final class Status {
    private final boolean loaded;
    private final String detail;

    public Status(boolean loaded, String detail) {
      this.loaded = loaded;
      this.detail = detail;
    }

    public boolean loaded() {
      return loaded;
    }

    public String detail() {
      return detail;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Status)) {
        return false;
      }
      Status o = (Status) other;
      return loaded == o.loaded && Objects.equals(detail, o.detail);
    }

    @Override
    public int hashCode() {
      return Objects.hash(loaded, detail);
    }

    @Override
    public String toString() {
      return "Status[" + "loaded=" + loaded + ", detail=" + detail + "]";
    }
  }

  /** Loads the library if that was not tried yet; returns the outcome (cached). */
  public static Status load() {
    Status s = status;
    if (s == null) {
      synchronized (LOCK) {
        s = status;
        if (s == null) {
          s = tryLoad();
          if (s.loaded()) {
            LOG.info("KAE Shuffle native library loaded: {}", s.detail());
          } else {
            LOG.warn(
                "KAE Shuffle native library not loaded, the pure-Java codec serves: {}",
                s.detail());
          }
          status = s;
        }
      }
    }
    return s;
  }

  public static boolean isLoaded() {
    return load().loaded();
  }

  /** Operating system name as used in the jar's resource path: {@code linux}, {@code mac}, ... */
  public static String os(String osName) {
    String n = osName.toLowerCase(Locale.ROOT);
    if (n.startsWith("linux")) {
      return "linux";
    } else if (n.startsWith("mac") || n.startsWith("darwin")) {
      return "mac";
    } else if (n.startsWith("windows")) {
      return "windows";
    }
    return n.replaceAll("[^a-z0-9]", "");
  }

  /** CPU architecture as used in the resource path; the same names build.sh gives uname -m. */
  public static String arch(String osArch) {
    String a = osArch.toLowerCase(Locale.ROOT);
    switch (a) {
      case "amd64":
      case "x86_64":
      case "x86-64":
        return "x86_64";
      case "aarch64":
      case "arm64":
        return "aarch64";
      default:
        return a.replaceAll("[^a-z0-9_]", "");
    }
  }

  /** The resource path of this platform's library inside the jar. */
  public static String resourcePath() {
    return "/"
        + os(System.getProperty("os.name"))
        + "/"
        + arch(System.getProperty("os.arch"))
        + "/libkaeshuffle-"
        + version()
        + ".so";
  }

  /** The version the bundled library carries in its file name (the project version). */
  public static String version() {
    Properties p = new Properties();
    try (InputStream in = NativeLoader.class.getResourceAsStream("native.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // Falls through to "unknown": the resource lookup then fails with a clear message.
    }
    return p.getProperty("version", "unknown");
  }

  private static Status tryLoad() {
    String override = System.getProperty(PATH_PROPERTY);
    try {
      if (override != null && !override.isEmpty()) {
        Path path = Paths.get(override).toAbsolutePath();
        System.load(path.toString());
        return checkAbi("from " + PATH_PROPERTY + "=" + path);
      }
      return loadBundled();
    } catch (UnsatisfiedLinkError | IOException | SecurityException e) {
      String where =
          override != null && !override.isEmpty()
              ? PATH_PROPERTY + "=" + override
              : "the jar's " + resourcePath();
      return new Status(
          false,
          "could not load "
              + where
              + ": "
              + e.getMessage()
              + ". Check that the file exists for this platform ("
              + System.getProperty("os.name")
              + "/"
              + System.getProperty("os.arch")
              + ") and that "
              + TMPDIR_PROPERTY
              + " (or java.io.tmpdir) is a writable directory not mounted noexec."
              + glibcNote(e.getMessage()));
    }
  }

  /**
   * Where the loader names a glibc symbol version it did not find, the C library this machine has
   * and the oldest the library supports, so the log says why without a shell on the node.
   */
  static String glibcNote(String loaderMessage) {
    if (loaderMessage == null || !loaderMessage.contains("GLIBC_")) {
      return "";
    }
    return " This machine's C library: "
        + localGlibc()
        + "; libkaeshuffle needs glibc 2.17 or newer (docs/native-codec.md).";
  }

  /** {@code getconf GNU_LIBC_VERSION} (e.g. "glibc 2.28"), or why it is not known. */
  private static String localGlibc() {
    try {
      Process p =
          new ProcessBuilder("getconf", "GNU_LIBC_VERSION").redirectErrorStream(true).start();
      String line;
      try (BufferedReader r =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        line = r.readLine();
      }
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return "unknown (getconf did not answer)";
      }
      return p.exitValue() == 0 && line != null ? line.trim() : "unknown (getconf: " + line + ")";
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown (interrupted)";
    }
  }

  private static Status loadBundled() throws IOException {
    String resource = resourcePath();
    try (InputStream in = NativeLoader.class.getResourceAsStream(resource)) {
      if (in == null) {
        return new Status(
            false,
            "this jar has no native library for "
                + System.getProperty("os.name")
                + "/"
                + System.getProperty("os.arch")
                + " (looked for "
                + resource
                + ")");
      }
      Path dir =
          Paths.get(System.getProperty(TMPDIR_PROPERTY, System.getProperty("java.io.tmpdir")));
      Files.createDirectories(dir);
      Path file = Files.createTempFile(dir, "libkaeshuffle-" + version() + "-", ".so");
      try {
        Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        System.load(file.toAbsolutePath().toString());
      } finally {
        // Once loaded, the mapping outlives the file: remove it so no temp files pile up.
        Files.deleteIfExists(file);
      }
      return checkAbi("from the jar's " + resource);
    }
  }

  private static Status checkAbi(String where) {
    int abi = NativeLib.abiVersion();
    if (abi != NativeLib.ABI_VERSION) {
      return new Status(
          false,
          "library "
              + where
              + " has ABI version "
              + abi
              + ", this jar needs "
              + NativeLib.ABI_VERSION
              + ": use the library built with this jar");
    }
    return new Status(true, where);
  }
}
