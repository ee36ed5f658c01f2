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

import io.github.kaeshuffle.codec.KaeZipModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A host tree of our own (its /proc/cpuinfo, /sys/class/uacce/hisi_zip-0 and /dev/hisi_zip-0) and
 * the preflight's report on it, with the KAEzip cost model as the library: what the preflight and
 * the codec selection are tested against, since no test host has the accelerator.
 */
public final class FakeKaeZipHost {
  public static final String KUNPENG = "CPU implementer\t: 0x48\nCPU part\t: 0xd01\n";

  private final Path root;

  /**
   * @param cpuinfo the text of /proc/cpuinfo
   * @param device whether the accelerator's sysfs node exists
   * @param node whether its device file exists
   * @param freeQueues its available_instances, or null for none
   */
  public FakeKaeZipHost(Path root, String cpuinfo, boolean device, boolean node, String freeQueues)
      throws IOException {
    this.root = root;
    Files.createDirectories(root.resolve("proc"));
    Files.writeString(root.resolve("proc/cpuinfo"), cpuinfo);
    Path zip = root.resolve("sys/class/uacce/hisi_zip-0");
    if (device) {
      Files.createDirectories(zip.resolve("attrs"));
      if (freeQueues != null) {
        Files.writeString(zip.resolve("attrs/available_instances"), freeQueues + "\n");
      }
    }
    if (node) {
      Files.createDirectories(root.resolve("dev"));
      Files.writeString(root.resolve("dev/hisi_zip-0"), "");
    }
  }

  /** A Kunpeng 920 with one accelerator of 256 free queues. */
  public static FakeKaeZipHost kunpeng(Path root) throws IOException {
    return new FakeKaeZipHost(root, KUNPENG, true, true, "256");
  }

  /**
   * The preflight's report on this host as seen from {@code arch}, loading {@code library}; the
   * device files count as openable by this user where {@code access} (root opens anything, so
   * access is judged by the test, not the file's mode).
   */
  public KaeZipReport report(String arch, String library, boolean access) {
    return new KaeZipPreflight(root, arch, library, false, p -> access).report();
  }

  /** The report with the cost model as the library, seen from an AArch64 JVM. */
  public KaeZipReport report(boolean access) {
    return report("aarch64", KaeZipModel.path(), access);
  }
}
