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
package io.github.kaeshuffle.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** The header every results file starts with: when, what machine, which JVM and libraries. */
public final class MachineInfo {
  private MachineInfo() {}

  public static String describe() {
    StringBuilder sb = new StringBuilder();
    sb.append("- Date: ")
        .append(ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME))
        .append('\n');
    sb.append("- CPU: ")
        .append(cpuModel())
        .append(", ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(" cores available\n");
    sb.append("- Memory: ").append(memTotal()).append('\n');
    sb.append("- OS: ")
        .append(System.getProperty("os.name"))
        .append(' ')
        .append(System.getProperty("os.version"))
        .append(' ')
        .append(System.getProperty("os.arch"))
        .append('\n');
    sb.append("- JVM: ")
        .append(System.getProperty("java.vm.name"))
        .append(' ')
        .append(System.getProperty("java.runtime.version"))
        .append('\n');
    sb.append("- Libraries: ")
        .append(
            run(
                    "dpkg-query",
                    "-W",
                    "-f",
                    "${Package}:${Architecture} ${Version}, ",
                    "zlib1g",
                    "libdeflate0")
                .replaceAll(",\\s*$", ""))
        .append('\n');
    return sb.toString();
  }

  private static String cpuModel() {
    try {
      List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
      for (String l : lines) {
        if (l.startsWith("model name") || l.startsWith("CPU implementer")) {
          return l.substring(l.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException e) {
      // Not Linux: fall through.
    }
    return System.getProperty("os.arch");
  }

  private static String memTotal() {
    try {
      for (String l : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (l.startsWith("MemTotal")) {
          long kb = Long.parseLong(l.replaceAll("[^0-9]", ""));
          return String.format("%.1f GiB", kb / 1024.0 / 1024.0);
        }
      }
    } catch (IOException e) {
      // Not Linux: fall through.
    }
    return "unknown";
  }

  static String run(String... cmd) {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      return p.waitFor() == 0 ? out : "(" + String.join(" ", cmd) + " failed: " + out + ")";
    } catch (IOException | InterruptedException e) {
      return "(" + cmd[0] + " unavailable)";
    }
  }
}
