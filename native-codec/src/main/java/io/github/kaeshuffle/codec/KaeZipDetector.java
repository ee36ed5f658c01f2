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

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Objects;

/**
 * Decides whether this host has the KAEzip hardware, before anything loads the KAEzip library: some
 * KAE builds abort the whole process when loaded on another CPU. All three must hold:
 *
 * <ul>
 *   <li>the JVM runs on aarch64;
 *   <li>{@code <root>/proc/cpuinfo} names CPU implementer {@code 0x48} (HiSilicon);
 *   <li>{@code <root>/sys/class/uacce/} has a {@code hisi_zip*} device (the accelerator's driver is
 *       bound).
 * </ul>
 *
 * The root and architecture are parameters so tests can point the same code at fake trees ({@link
 * KaeZipHost} reads them, for the preflight too).
 */
public final class KaeZipDetector {
  private KaeZipDetector() {}

  /** Present or not, and why, in a sentence fit for a log line. */
  public static final class Result {
    private final boolean present;
    private final String reason;

    public Result(boolean present, String reason) {
      this.present = present;
      this.reason = reason;
    }

    public boolean present() {
      return present;
    }

    public String reason() {
      return reason;
    }

    @Override
    public boolean equals(Object other) {
      if (!(other instanceof Result)) {
        return false;
      }
      Result o = (Result) other;
      return present == o.present && Objects.equals(reason, o.reason);
    }

    @Override
    public int hashCode() {
      return Objects.hash(present, reason);
    }

    @Override
    public String toString() {
      return "Result[" + "present=" + present + ", reason=" + reason + "]";
    }
  }

  /** Detection on the running host. */
  public static Result detect() {
    return detect(Paths.get("/"), System.getProperty("os.arch"));
  }

  public static Result detect(Path root, String osArch) {
    KaeZipHost host = new KaeZipHost(root, osArch);
    if (!host.aarch64()) {
      return new Result(false, "the CPU architecture is " + osArch + ", not aarch64 (Kunpeng)");
    }
    String cpuinfo;
    try {
      cpuinfo = host.cpuinfo();
    } catch (IOException e) {
      return new Result(false, "cannot read " + host.cpuinfoPath() + ": " + e.getMessage());
    }
    if (!KaeZipHost.HISILICON.equals(KaeZipHost.implementer(cpuinfo))) {
      return new Result(
          false, host.cpuinfoPath() + " shows no HiSilicon CPU (CPU implementer 0x48)");
    }
    List<Path> zips;
    try {
      zips = host.zipDevices();
    } catch (IOException e) {
      return new Result(false, "cannot list " + host.uacce() + ": " + e.getMessage());
    }
    if (!zips.isEmpty()) {
      return new Result(true, "HiSilicon CPU with accelerator " + zips.get(0).getFileName());
    }
    return new Result(
        false,
        "HiSilicon CPU but no "
            + host.uacce()
            + "/hisi_zip* device: is the hisi_zip driver loaded?");
  }
}
