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
package io.github.kaeshuffle.codec.kaezip;

import io.github.kaeshuffle.codec.NativeLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a host shows of the KAEzip hardware, read from its {@code proc/}, {@code sys/} and {@code
 * dev/} trees: the architecture, the CPU's implementer and part, the accelerators under {@code
 * sys/class/uacce/hisi_zip*}, their device nodes and their free queues, for {@link KaeZipPreflight}
 * (the operator's report and codec selection's check, made before the library is loaded). The root
 * and architecture are parameters so tests can point it at fake trees.
 */
final class KaeZipHost {
  /** HiSilicon's CPU implementer code: Kunpeng. */
  static final String HISILICON = "0x48";

  private static final Pattern IMPLEMENTER =
      Pattern.compile("(?m)^CPU implementer\\s*:\\s*(0x[0-9a-fA-F]+)");
  private static final Pattern PART = Pattern.compile("(?m)^CPU part\\s*:\\s*(0x[0-9a-fA-F]+)");

  private final Path root;
  private final String osArch;

  /**
   * @param root where {@code proc/}, {@code sys/} and {@code dev/} are read ("/" on a host)
   * @param osArch the JVM's {@code os.arch}
   */
  KaeZipHost(Path root, String osArch) {
    this.root = root;
    this.osArch = osArch;
  }

  Path root() {
    return root;
  }

  String osArch() {
    return osArch;
  }

  boolean aarch64() {
    return "aarch64".equals(NativeLoader.arch(osArch));
  }

  Path cpuinfoPath() {
    return root.resolve("proc/cpuinfo");
  }

  String cpuinfo() throws IOException {
    return new String(Files.readAllBytes(cpuinfoPath()), StandardCharsets.ISO_8859_1);
  }

  /** The first CPU's implementer code in {@code cpuinfo}, lower case, or "unknown". */
  static String implementer(String cpuinfo) {
    return first(IMPLEMENTER, cpuinfo);
  }

  /** The first CPU's part number in {@code cpuinfo}, lower case, or "unknown". */
  static String part(String cpuinfo) {
    return first(PART, cpuinfo);
  }

  private static String first(Pattern p, String text) {
    Matcher m = p.matcher(text);
    return m.find() ? m.group(1).toLowerCase(Locale.ROOT) : "unknown";
  }

  Path uacce() {
    return root.resolve("sys/class/uacce");
  }

  /** The {@code hisi_zip*} accelerators, sorted; none when the uacce class does not exist. */
  List<Path> zipDevices() throws IOException {
    List<Path> zips = new ArrayList<>();
    if (Files.isDirectory(uacce())) {
      try (DirectoryStream<Path> ds = Files.newDirectoryStream(uacce(), "hisi_zip*")) {
        ds.forEach(zips::add);
      }
    }
    zips.sort(null);
    return zips;
  }

  /** An accelerator's device node, {@code dev/<name>}. */
  Path node(Path zip) {
    return root.resolve("dev").resolve(zip.getFileName().toString());
  }

  /** An accelerator's free queues, where the kernel reports them. */
  static OptionalLong availableInstances(Path zip) {
    for (String rel : new String[] {"attrs/available_instances", "available_instances"}) {
      try {
        return OptionalLong.of(
            Long.parseLong(
                new String(Files.readAllBytes(zip.resolve(rel)), StandardCharsets.UTF_8).trim()));
      } catch (IOException | NumberFormatException e) {
        // try the other place; older kernels keep it at the top
      }
    }
    return OptionalLong.empty();
  }
}
