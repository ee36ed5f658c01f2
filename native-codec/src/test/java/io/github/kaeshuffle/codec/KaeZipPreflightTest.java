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

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The preflight names each missing piece, on fake host trees (a /proc, /sys and /dev of our own):
 * the CPU, the accelerator, its device node, this user's access, its free queues, the library; and
 * with every piece there, it runs a real round trip through the library (the KAEzip cost model) and
 * still does not claim hardware it cannot see working.
 */
class KaeZipPreflightTest {
  private static final String KUNPENG = "CPU implementer\t: 0x48\nCPU part\t: 0xd01\n";

  @TempDir Path root;

  private void host(String cpuinfo, boolean device, boolean node, String freeQueues)
      throws IOException {
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

  private KaeZipReport run(String arch, String library, boolean access) {
    return new KaeZipPreflight(root, arch, library, false, p -> access).report();
  }

  private static void names(KaeZipReport r, String piece) {
    assertFalse(r.hardwareInUse(), r.text());
    assertTrue(r.verdict().contains(piece), "the verdict names " + piece + ":\n" + r.text());
  }

  @Test
  void namesTheArchitecture() throws IOException {
    host(KUNPENG, true, true, "256");
    names(run("amd64", KaeZipModel.path(), true), "architecture amd64, not aarch64");
  }

  @Test
  void namesACpuThatIsNotHiSilicon() throws IOException {
    host("CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n", true, true, "256");
    names(run("aarch64", KaeZipModel.path(), true), "not a HiSilicon CPU");
  }

  @Test
  void namesAMissingAccelerator() throws IOException {
    host(KUNPENG, false, false, null);
    names(run("aarch64", KaeZipModel.path(), true), "hisi_zip driver loaded?");
  }

  @Test
  void namesAMissingDeviceNode() throws IOException {
    host(KUNPENG, true, false, "256");
    names(run("aarch64", KaeZipModel.path(), true), "dev/hisi_zip-0 does not exist");
  }

  @Test
  void namesADeviceThisUserCannotOpen() throws IOException {
    host(KUNPENG, true, true, "256");
    names(run("aarch64", KaeZipModel.path(), false), "not readable and writable by");
  }

  @Test
  void namesDevicesWithoutFreeQueues() throws IOException {
    host(KUNPENG, true, true, "0");
    names(run("aarch64", KaeZipModel.path(), true), "every queue is taken");
  }

  @Test
  void namesAMissingLibrary() throws IOException {
    host(KUNPENG, true, true, "256");
    names(run("aarch64", root.resolve("no/libz.so").toString(), true), "no/libz.so");
  }

  @Test
  void aWorkingLibraryWithoutATakenQueueIsNotCalledHardware() throws IOException {
    host(KUNPENG, true, true, "256");
    KaeZipReport r = run("aarch64", KaeZipModel.path(), true);
    assertFalse(r.hardwareInUse(), r.text());
    assertTrue(r.text().contains("Kunpeng 920"), r.text());
    assertTrue(r.text().contains("[ok]   round trip: 1048576 bytes"), r.text());
    assertTrue(r.verdict().contains("not confirmed"), r.text());
  }

  /** Selection takes the preflight's verdict: a device this user cannot open means software. */
  @Test
  void selectionRefusesKaezipWhereThisUserCannotOpenTheDevices() throws IOException {
    host(KUNPENG, true, true, "256");
    KaeZipReport denied = run("aarch64", KaeZipModel.path(), false);
    List<String> notes = new ArrayList<>();
    assertNull(NativeBackends.kaezip(kaezip(), 6, notes, o -> denied));
    assertTrue(notes.get(0).contains("not readable and writable by"), notes.toString());
  }

  @Test
  void selectionRefusesALibraryThatTookNoQueue() throws IOException {
    host(KUNPENG, true, true, "256");
    KaeZipReport software = run("aarch64", KaeZipModel.path(), true);
    List<String> notes = new ArrayList<>();
    assertNull(NativeBackends.kaezip(kaezip(), 6, notes, o -> software));
    assertTrue(notes.get(0).contains("not confirmed"), notes.toString());
  }

  @Test
  void selectionTakesKaezipWhereTheEngineWasSeen() {
    KaeZipReport seen = new KaeZipReport(List.of(), true, "KAEzip verdict: hardware in use");
    BlockCodec codec = NativeBackends.kaezip(kaezip(), 6, new ArrayList<>(), o -> seen);
    assertNotNull(codec);
    assertTrue(codec.hardware());
  }

  private CodecOptions kaezip() {
    return CodecOptions.builder()
        .codec(CodecKind.KAEZIP)
        .kaezipLibrary(KaeZipModel.path())
        .systemRoot(root)
        .build();
  }
}
