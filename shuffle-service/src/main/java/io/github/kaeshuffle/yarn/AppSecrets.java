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

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.spark.network.sasl.ShuffleSecretManager;
import org.apache.spark.network.shuffledb.DB;
import org.apache.spark.network.shuffledb.DBBackend;
import org.apache.spark.network.shuffledb.DBIterator;
import org.apache.spark.network.shuffledb.StoreVersion;
import org.apache.spark.network.util.DBProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The secrets of the applications the shuffle service authenticates, kept for Spark's SASL
 * handshake ({@link ShuffleSecretManager}) and, with recovery on, in RocksDB ({@code
 * kaeShuffleSecrets.rdb}), so a restarted NodeManager still refuses a wrong secret and accepts the
 * right one for applications that were running.
 */
final class AppSecrets implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AppSecrets.class);
  static final String DB_NAME = "kaeShuffleSecrets.rdb";
  private static final String KEY_PREFIX = "AppCreds;";
  private static final StoreVersion VERSION = new StoreVersion(1, 0);

  private final ShuffleSecretManager manager = new ShuffleSecretManager();
  private DB db;

  /** Secrets in memory only ({@code recoveryDir} null), or also in RocksDB there, reloaded. */
  AppSecrets(File recoveryDir) throws IOException {
    if (recoveryDir != null) {
      db =
          DBProvider.initDB(
              DBBackend.ROCKSDB, new File(recoveryDir, DB_NAME), VERSION, new ObjectMapper());
      reload();
    }
  }

  private void reload() throws IOException {
    byte[] prefix = KEY_PREFIX.getBytes(StandardCharsets.UTF_8);
    int n = 0;
    try (DBIterator it = db.iterator()) {
      it.seek(prefix);
      while (it.hasNext()) {
        Map.Entry<byte[], byte[]> e = it.next();
        String key = new String(e.getKey(), StandardCharsets.UTF_8);
        if (!key.startsWith(KEY_PREFIX)) {
          break;
        }
        String appId = key.substring(KEY_PREFIX.length());
        manager.registerApp(appId, new String(e.getValue(), StandardCharsets.UTF_8));
        n++;
      }
    }
    LOG.info("KAE shuffle service reloaded the secrets of {} application(s)", n);
  }

  /** What Spark's authentication bootstrap checks clients against. */
  ShuffleSecretManager manager() {
    return manager;
  }

  void register(String appId, byte[] secret) {
    manager.registerApp(appId, new String(secret, StandardCharsets.UTF_8));
    if (db != null) {
      db.put(key(appId), secret);
    }
  }

  void unregister(String appId) {
    manager.unregisterApp(appId);
    if (db != null) {
      db.delete(key(appId));
    }
  }

  private static byte[] key(String appId) {
    return (KEY_PREFIX + appId).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    if (db != null) {
      db.close();
      db = null;
    }
  }
}
