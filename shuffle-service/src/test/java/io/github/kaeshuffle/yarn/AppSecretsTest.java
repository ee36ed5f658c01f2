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
package io.github.kaeshuffle.yarn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The applications' secrets, in memory and kept in RocksDB across a restart. */
class AppSecretsTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void secretsInMemoryAreKnownUntilUnregistered() throws Exception {
    try (AppSecrets secrets = new AppSecrets(null)) {
      secrets.register("app_1", bytes("one"));
      assertEquals("one", secrets.manager().getSecretKey("app_1"));
      secrets.unregister("app_1");
      assertNull(secrets.manager().getSecretKey("app_1"));
    }
  }

  @Test
  void aRestartReloadsTheSecretsOfApplicationsStillRegistered(@TempDir File recovery)
      throws Exception {
    try (AppSecrets secrets = new AppSecrets(recovery)) {
      secrets.register("app_1", bytes("one"));
      secrets.register("app_2", bytes("two"));
      secrets.unregister("app_1");
    }
    assertEquals(true, new File(recovery, AppSecrets.DB_NAME).isDirectory());
    try (AppSecrets restarted = new AppSecrets(recovery)) {
      assertNull(restarted.manager().getSecretKey("app_1"));
      assertEquals("two", restarted.manager().getSecretKey("app_2"));
    }
  }
}
