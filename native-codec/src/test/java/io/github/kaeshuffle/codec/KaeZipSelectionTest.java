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

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.kaeshuffle.codec.kaezip.FakeKaeZipHost;
import io.github.kaeshuffle.codec.kaezip.KaeZipReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Codec selection takes the KAEzip preflight's verdict on the host (fake host trees of our own, the
 * cost model as the library): kaezip only where the engine was seen working.
 */
class KaeZipSelectionTest {
  @TempDir Path root;

  /** Selection takes the preflight's verdict: a device this user cannot open means software. */
  @Test
  void selectionRefusesKaezipWhereThisUserCannotOpenTheDevices() throws IOException {
    KaeZipReport denied = FakeKaeZipHost.kunpeng(root).report(false);
    List<String> notes = new ArrayList<>();
    assertNull(NativeBackends.kaezip(kaezip(), 6, notes, o -> denied));
    assertTrue(notes.get(0).contains("not readable and writable by"), notes.toString());
  }

  @Test
  void selectionRefusesALibraryThatTookNoQueue() throws IOException {
    KaeZipReport software = FakeKaeZipHost.kunpeng(root).report(true);
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
