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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NativeLoaderTest {
  @Test
  void architecturesAreNamedAsTheBuildNamesThem() {
    assertEquals("x86_64", NativeLoader.arch("amd64"));
    assertEquals("x86_64", NativeLoader.arch("x86_64"));
    assertEquals("aarch64", NativeLoader.arch("aarch64"));
    assertEquals("aarch64", NativeLoader.arch("arm64"));
    assertEquals("linux", NativeLoader.os("Linux"));
    assertTrue(
        NativeLoader.resourcePath().matches("/linux/(x86_64|aarch64)/libkaeshuffle-.+\\.so"),
        NativeLoader.resourcePath());
  }

  @Test
  void theBundledLibraryLoadsFromTheJarResources() {
    NativeLoader.Status s = NativeLoader.load();
    assertTrue(s.loaded(), s.detail());
    assertTrue(s.detail().contains("from the jar's"), s.detail());
  }

  @Test
  void aMissingGlibcVersionIsExplainedWithThisMachinesGlibc() {
    // The loader's words when a library needs a newer glibc than the machine has.
    String note =
        NativeLoader.glibcNote(
            "/tmp/libkaeshuffle.so: /lib64/libc.so.6: version `GLIBC_2.34' not found"
                + " (required by /tmp/libkaeshuffle.so)");
    assertTrue(
        note.matches(" This machine's C library: glibc 2\\.\\d+; .* glibc 2\\.17 or newer .*"),
        note);
    assertEquals("", NativeLoader.glibcNote("cannot open shared object file"));
  }

  @Test
  void aLibraryThatCannotLoadLeavesTheJavaCodecServing() throws Exception {
    List<String> out = probe("-D" + NativeLoader.PATH_PROPERTY + "=/nonexistent/libkae.so", "zlib");
    assertTrue(out.contains("loaded=false"), out.toString());
    assertTrue(
        out.stream().anyMatch(l -> l.startsWith("detail=") && l.contains("/nonexistent")),
        out.toString());
    assertTrue(out.contains("codec=java"), out.toString());
    assertTrue(out.contains("roundtrip=ok"), out.toString());
  }

  @Test
  void theOverridePathIsLoadedWhenGiven() throws Exception {
    Path lib = Path.of(NativeLoader.class.getResource(NativeLoader.resourcePath()).toURI());
    List<String> out = probe("-D" + NativeLoader.PATH_PROPERTY + "=" + lib, "zlib");
    assertTrue(out.contains("loaded=true"), out.toString());
    assertTrue(out.contains("codec=zlib"), out.toString());
    assertTrue(out.contains("roundtrip=ok"), out.toString());
  }

  /** Runs LoaderProbe in a fresh JVM, where the loader has not run yet. */
  private static List<String> probe(String property, String codec)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xcheck:jni");
    cmd.add(property);
    cmd.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
    cmd.add("-Dkaeshuffle.test.nativeDir=" + TestCodecs.nativeTestDir().toAbsolutePath());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(LoaderProbe.class.getName());
    cmd.add(codec);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
    assertEquals(0, p.exitValue(), text);
    return List.of(text.split("\n"));
  }
}
