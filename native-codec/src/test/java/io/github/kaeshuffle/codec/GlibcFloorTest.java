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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each shipped library loads on glibc 2.17 (CentOS 7; openEuler 20.03 and Kylin V10 have 2.28):
 * none of the glibc symbol versions it needs is newer. Read from the library's version needs with
 * binutils' readelf, which reads either architecture's ELF.
 */
class GlibcFloorTest {
  private static final int[] FLOOR = {2, 17};
  private static final Pattern NEED = Pattern.compile("Name: GLIBC_([0-9.]+)");

  @ParameterizedTest
  @ValueSource(strings = {"x86_64", "aarch64"})
  void noGlibcVersionNeededIsNewerThanTheFloor(String arch) throws Exception {
    Path lib = NativeSelfTest.library(arch);
    NativeSelfTest.assumeBuilt(arch, lib, "the library");
    List<String> needed = glibcVersionsNeeded(lib);
    assertFalse(needed.isEmpty(), "no glibc version need found in " + lib);
    List<String> tooNew = new ArrayList<>();
    for (String v : needed) {
      if (compare(v, FLOOR) > 0) {
        tooNew.add("GLIBC_" + v);
      }
    }
    assertEquals(List.of(), tooNew, lib + " needs a glibc newer than 2.17 (all: " + needed + ")");
  }

  /** The GLIBC_x.y versions in the library's version needs section ("readelf -V"). */
  private static List<String> glibcVersionsNeeded(Path lib) throws Exception {
    Process p =
        new ProcessBuilder("readelf", "-W", "-V", lib.toString()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(1, TimeUnit.MINUTES), "readelf timed out");
    assertEquals(0, p.exitValue(), out);
    int needs = out.indexOf(".gnu.version_r");
    assertTrue(needs >= 0, "no version needs section in " + lib + ":\n" + out);
    List<String> versions = new ArrayList<>();
    Matcher m = NEED.matcher(out.substring(needs));
    while (m.find()) {
      versions.add(m.group(1));
    }
    return versions;
  }

  private static int compare(String version, int[] floor) {
    String[] parts = version.split("\\.");
    for (int i = 0; i < floor.length; i++) {
      int part = i < parts.length ? Integer.parseInt(parts[i]) : 0;
      if (part != floor[i]) {
        return Integer.compare(part, floor[i]);
      }
    }
    return parts.length > floor.length ? 1 : 0;
  }
}
