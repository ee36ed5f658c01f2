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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.KaeZipModel;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preflight names each missing piece, on fake host trees (a /proc, /sys and /dev of our own):
 * the CPU, the accelerator, its device node, this user's access, its free queues, the library; and
 * with every piece there, it runs a real round trip through the library (the KAEzip cost model) and
 * still does not claim hardware it cannot see working. How codec selection takes its verdict:
 * {@code KaeZipSelectionTest}.
 */
class KaeZipPreflightTest {
  @TempDir Path root;

  private FakeKaeZipHost host;

  private void host(String cpuinfo, boolean device, boolean node, String freeQueues)
      throws IOException {
    host = new FakeKaeZipHost(root, cpuinfo, device, node, freeQueues);
  }

  private KaeZipReport run(String arch, String library, boolean access) {
    return host.report(arch, library, access);
  }

  private static void names(KaeZipReport r, String piece) {
    assertFalse(r.hardwareInUse(), r.text());
    assertTrue(r.verdict().contains(piece), "the verdict names " + piece + ":\n" + r.text());
  }

  @Test
  void namesTheArchitecture() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, true, "256");
    names(run("amd64", KaeZipModel.path(), true), "architecture amd64, not aarch64");
  }

  @Test
  void namesACpuThatIsNotHiSilicon() throws IOException {
    host("CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n", true, true, "256");
    names(run("aarch64", KaeZipModel.path(), true), "not a HiSilicon CPU");
  }

  @Test
  void namesAMissingAccelerator() throws IOException {
    host(FakeKaeZipHost.KUNPENG, false, false, null);
    names(run("aarch64", KaeZipModel.path(), true), "hisi_zip driver loaded?");
  }

  @Test
  void namesAMissingDeviceNode() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, false, "256");
    names(run("aarch64", KaeZipModel.path(), true), "dev/hisi_zip-0 does not exist");
  }

  @Test
  void namesADeviceThisUserCannotOpen() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, true, "256");
    names(run("aarch64", KaeZipModel.path(), false), "not readable and writable by");
  }

  @Test
  void namesDevicesWithoutFreeQueues() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, true, "0");
    names(run("aarch64", KaeZipModel.path(), true), "every queue is taken");
  }

  @Test
  void namesAMissingLibrary() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, true, "256");
    names(run("aarch64", root.resolve("no/libz.so").toString(), true), "no/libz.so");
  }

  @Test
  void aWorkingLibraryWithoutATakenQueueIsNotCalledHardware() throws IOException {
    host(FakeKaeZipHost.KUNPENG, true, true, "256");
    KaeZipReport r = run("aarch64", KaeZipModel.path(), true);
    assertFalse(r.hardwareInUse(), r.text());
    assertTrue(r.text().contains("Kunpeng 920"), r.text());
    assertTrue(r.text().contains("[ok]   round trip: 1048576 bytes"), r.text());
    assertTrue(r.verdict().contains("not confirmed"), r.text());
  }
}
