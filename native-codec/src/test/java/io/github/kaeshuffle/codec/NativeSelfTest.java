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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The C-level tests (codec_selftest.c, load_check.c) for every architecture the jar ships: on this
 * machine's architecture natively, on the other under qemu-user, against the library built for that
 * architecture. Built by build-test-libs.sh.
 */
class NativeSelfTest {
  private static final Pattern RESULT = Pattern.compile("(\\d+) passed, (\\d+) failed");

  /** The build's kae.native.cross: true (the other architecture is required), auto, false. */
  private static String cross() {
    return System.getProperty("kaeshuffle.test.cross", "auto");
  }

  private static List<String> command(String arch, String... program) {
    List<String> cmd = new ArrayList<>();
    if (!arch.equals(NativeLoader.arch(System.getProperty("os.arch")))) {
      cmd.add("qemu-" + arch);
    }
    cmd.addAll(List.of(program));
    return cmd;
  }

  private static String run(String arch, String... program) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command(arch, program)).redirectErrorStream(true);
    // Under qemu, the other architecture's loader and C library come from the cross toolchain,
    // its zlib and libdeflate from the sysroot the build unpacked them into (toolchain.sh).
    pb.environment().put("QEMU_LD_PREFIX", "/usr/" + arch + "-linux-gnu");
    // (given to the emulated program only: qemu itself is a host program).
    pb.environment()
        .put(
            "QEMU_SET_ENV",
            "LD_LIBRARY_PATH="
                + Path.of(
                        System.getProperty("kaeshuffle.test.crossSysroot", "target/cross"),
                        arch,
                        "libs")
                    .toAbsolutePath());
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(5, TimeUnit.MINUTES), "timed out: " + out);
    assertEquals(0, p.exitValue(), out);
    Matcher m = RESULT.matcher(out);
    assertTrue(m.find(), out);
    assertEquals("0", m.group(2), out);
    assertTrue(Integer.parseInt(m.group(1)) > 0, out);
    return out;
  }

  /**
   * The other architecture's {@code file} (its library, or a test program for it), which the build
   * makes where it finds the tools: required with kae.native.cross=true, else the case is skipped
   * with the reason.
   */
  static void assumeBuilt(String arch, Path file, String what) {
    if (arch.equals(NativeLoader.arch(System.getProperty("os.arch"))) || "true".equals(cross())) {
      assertTrue(Files.exists(file), file + " was not built");
      return;
    }
    assumeTrue(
        Files.exists(file),
        "kae.native.cross="
            + cross()
            + ": "
            + what
            + " for "
            + arch
            + " was not built (no tools for it, or not asked for: the build's NOTE says which)");
  }

  static Path library(String arch) {
    return Path.of(
        System.getProperty("kaeshuffle.test.libDir", "target/classes/linux"),
        arch,
        "libkaeshuffle-" + System.getProperty("kaeshuffle.test.version") + ".so");
  }

  @ParameterizedTest
  @ValueSource(strings = {"x86_64", "aarch64"})
  void codecSelfTestPassesOnEachArchitecture(String arch) throws Exception {
    Path selftest = TestCodecs.nativeTestDir().resolve("codec_selftest-" + arch);
    assumeBuilt(arch, library(arch), "the library");
    assumeBuilt(arch, selftest, "the emulated self-test");
    String out = run(arch, selftest.toString());
    assertTrue(out.contains("(" + arch + ")"), out);
  }

  @ParameterizedTest
  @ValueSource(strings = {"x86_64", "aarch64"})
  void theShippedLibraryLoadsAndExportsOnlyJniOnEachArchitecture(String arch) throws Exception {
    Path lib = library(arch);
    Path check = TestCodecs.nativeTestDir().resolve("load_check-" + arch);
    assumeBuilt(arch, lib, "the library");
    assumeBuilt(arch, check, "the emulated load check");
    run(arch, check.toString(), lib.toString());
  }
}
