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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The line's shuffle service alone, as the NodeManager drives it: bad settings fail its start
 * naming the setting and leave nothing open, and a good start serves on the port it reports until
 * stopped, with its state where the NodeManager's dirs say.
 */
class LineShuffleServiceTest {

  /** Any free port, no recovery state, no authentication. */
  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(KaeYarnShuffleService.PORT, 0);
    conf.setBoolean(KaeYarnShuffleService.DB_ENABLED, false);
    return conf;
  }

  /** The start's failure of kind {@code kind}, unwrapped from Hadoop's service state exception. */
  private static <T extends Throwable> T startFails(Configuration conf, Class<T> kind) {
    LineShuffleService service = new LineShuffleService("spark_shuffle");
    Exception e = assertThrows(Exception.class, () -> service.init(conf));
    Throwable cause = e;
    while (!kind.isInstance(cause) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    assertEquals(-1, service.getMetaData().getInt(0), "nothing serving after a failed start");
    return kind.cast(cause);
  }

  private static String refusal(Configuration conf) {
    return startFails(conf, IllegalArgumentException.class).getMessage();
  }

  private static boolean listening(int port) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void itServesOnThePortItReportsUntilStopped() {
    LineShuffleService service = new LineShuffleService("spark_shuffle");
    service.init(conf());
    service.start();
    int port = service.getMetaData().getInt(0);
    assertTrue(port > 0, "bound port " + port);
    assertTrue(listening(port));
    service.stop();
    assertEquals(-1, service.getMetaData().getInt(0));
    assertFalse(listening(port), "closed on stop");
  }

  @Test
  void aPortOutOfRangeIsRefusedByName() {
    Configuration conf = conf();
    conf.setInt(KaeYarnShuffleService.PORT, 70000);
    assertEquals("spark.shuffle.service.port=70000: must be 0-65535", refusal(conf));
  }

  @Test
  void aDatabaseOtherThanRocksDbIsRefusedByName() {
    Configuration conf = conf();
    conf.set(KaeYarnShuffleService.DB_BACKEND, "leveldb");
    assertEquals(
        "spark.shuffle.service.db.backend=leveldb: this service keeps its state in ROCKSDB only",
        refusal(conf));
  }

  @Test
  void aMergerOtherThanSparksIsRefusedByName() {
    Configuration conf = conf();
    conf.set(KaeYarnShuffleService.MERGE_MANAGER, "com.example.Merger");
    String refused = refusal(conf);
    assertTrue(
        refused.startsWith(KaeYarnShuffleService.MERGE_MANAGER + "=com.example.Merger:"), refused);
  }

  @Test
  void stateWithoutARecoveryDirNeedsALocalDir() {
    Configuration conf = conf();
    conf.setBoolean(KaeYarnShuffleService.DB_ENABLED, true);
    String refused = startFails(conf, IOException.class).getMessage();
    assertTrue(
        refused.startsWith("No recovery directory and no yarn.nodemanager.local-dirs"), refused);
  }

  @Test
  void withoutRecoveryTheStateGoesToTheFirstLocalDir(@TempDir Path dir) throws IOException {
    Path first = Files.createDirectories(dir.resolve("nm-local-1"));
    Path second = Files.createDirectories(dir.resolve("nm-local-2"));
    Configuration conf = conf();
    conf.setBoolean(KaeYarnShuffleService.DB_ENABLED, true);
    conf.set("yarn.nodemanager.local-dirs", first + "," + second);
    LineShuffleService service = new LineShuffleService("spark_shuffle");
    service.init(conf);
    service.start();
    try {
      Path state = first.resolve("kae-shuffle-service");
      assertTrue(
          Files.isDirectory(state.resolve(LineShuffleService.EXECUTORS_DB)),
          "Spark's executor registrations in " + state);
    } finally {
      service.stop();
    }
  }
}
