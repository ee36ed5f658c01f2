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

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.apache.spark.network.TransportContext;
import org.apache.spark.network.crypto.AuthServerBootstrap;
import org.apache.spark.network.server.TransportServer;
import org.apache.spark.network.server.TransportServerBootstrap;
import org.apache.spark.network.shuffle.ExternalBlockHandler;
import org.apache.spark.network.shuffle.MergedShuffleFileManager;
import org.apache.spark.network.shuffle.NoOpMergedShuffleFileManager;
import org.apache.spark.network.shuffle.RemoteBlockPushResolver;
import org.apache.spark.network.shuffledb.DBBackend;
import org.apache.spark.network.util.TransportConf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shuffle service of the jar's Spark line, which {@link KaeYarnShuffleService} (the class the
 * NodeManager names) loads and runs: serves shuffle files to Spark's external-shuffle client
 * ({@code spark.shuffle.service.enabled=true}), so shuffle output outlives its executors and
 * dynamic allocation can release them.
 *
 * <p>The protocol is Spark's own: {@link ExternalBlockHandler} (executor registration, block and
 * batch fetches, removal of an application's data) behind Spark's Netty {@link TransportServer},
 * with Spark's authentication ({@code spark.authenticate}) when enabled. It reads Spark's {@code
 * .data}/{@code .index} layout, so files of KAE Shuffle and of Spark's built-in sort shuffle are
 * served alike.
 *
 * <p>State that must survive a NodeManager restart is kept in RocksDB under the NodeManager's
 * recovery directory: executor registrations (Spark's {@code registeredExecutors.rdb}) and each
 * application's secret ({@code kaeShuffleSecrets.rdb}). Its settings are listed on {@link
 * KaeYarnShuffleService}.
 */
public class LineShuffleService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(LineShuffleService.class);

  static final String EXECUTORS_DB = "registeredExecutors.rdb";
  static final String SECRETS_DB = AppSecrets.DB_NAME;
  static final String MERGE_DB = "mergedShuffles.rdb";

  private AppSecrets secrets;
  private ExternalBlockHandler blockHandler;
  private TransportContext transportContext;
  private TransportServer server;
  private int boundPort = -1;

  public LineShuffleService(String name) {
    super(name);
  }

  /**
   * Starts serving, or fails having closed what it opened (the caller decides what a failure does).
   */
  @Override
  protected void serviceInit(Configuration conf) throws Exception {
    try {
      start(conf);
    } catch (Exception e) {
      closeQuietly();
      throw e;
    }
    super.serviceInit(conf);
  }

  private void start(Configuration conf) throws Exception {
    int port = port(conf);
    checkDbBackend(conf);
    boolean authenticate = conf.getBoolean(KaeYarnShuffleService.AUTHENTICATE, false);
    boolean dbEnabled = conf.getBoolean(KaeYarnShuffleService.DB_ENABLED, true);
    String[] localDirs = conf.getTrimmedStrings("yarn.nodemanager.local-dirs");
    boolean appScoped = conf.getBoolean(KaeYarnShuffleService.APP_SCOPED_DIRS, true);

    TransportConf transportConf = new TransportConf("shuffle", new HadoopConfigProvider(conf));
    File recovery = dbEnabled ? recoveryDir(localDirs) : null;
    File executorsDb = recovery == null ? null : new File(recovery, EXECUTORS_DB);
    MergedShuffleFileManager merger = mergeManager(transportConf, recovery);
    blockHandler =
        LineBlockHandler.create(transportConf, executorsDb, merger, localDirs, appScoped);
    if (appScoped && !LineBlockHandler.checksLocalDirs()) {
      LOG.warn(
          "{}=true is not applied: this service is built for a Spark line whose shuffle handler "
              + "has no check of executors' local dirs (Spark 4.2 added it)",
          KaeYarnShuffleService.APP_SCOPED_DIRS);
    }

    List<TransportServerBootstrap> bootstraps = new ArrayList<>();
    if (authenticate) {
      secrets = new AppSecrets(recovery);
      bootstraps.add(new AuthServerBootstrap(transportConf, secrets.manager()));
    }
    transportContext = new TransportContext(transportConf, blockHandler, true);
    server = transportContext.createServer(port, bootstraps);
    boundPort = server.getPort();
    LOG.info(
        "KAE shuffle service '{}' serving on port {} (authentication {}, recovery {}, "
            + "local dirs {}, app-scoped dirs {}, merging pushed blocks {})",
        getName(),
        boundPort,
        authenticate ? "on" : "off",
        recovery == null ? "off" : recovery,
        Arrays.toString(localDirs),
        appScoped,
        merger == null ? "off" : "on");
  }

  private static int port(Configuration conf) {
    int port = conf.getInt(KaeYarnShuffleService.PORT, KaeYarnShuffleService.DEFAULT_PORT);
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException(
          KaeYarnShuffleService.PORT + "=" + port + ": must be 0-65535");
    }
    return port;
  }

  private static void checkDbBackend(Configuration conf) {
    String backend =
        conf.get(KaeYarnShuffleService.DB_BACKEND, DBBackend.ROCKSDB.name())
            .trim()
            .toUpperCase(Locale.ROOT);
    if (!DBBackend.ROCKSDB.name().equals(backend)) {
      throw new IllegalArgumentException(
          KaeYarnShuffleService.DB_BACKEND
              + "="
              + conf.get(KaeYarnShuffleService.DB_BACKEND)
              + ": this service keeps its state in ROCKSDB only");
    }
  }

  /**
   * Spark's merger of pushed blocks when the NodeManager's configuration names it, else null. Its
   * state (finalized merges, applications' merge dirs) goes to RocksDB with the service's.
   */
  private static MergedShuffleFileManager mergeManager(TransportConf conf, File recovery)
      throws IOException {
    String impl = conf.mergedShuffleFileManagerImpl();
    if (impl.equals(NoOpMergedShuffleFileManager.class.getName())) {
      return null;
    }
    if (!impl.equals(RemoteBlockPushResolver.class.getName())) {
      throw new IllegalArgumentException(
          KaeYarnShuffleService.MERGE_MANAGER
              + "="
              + impl
              + ": this service merges pushed blocks with "
              + RemoteBlockPushResolver.class.getName()
              + " only (leave it unset to merge nothing)");
    }
    return new RemoteBlockPushResolver(
        conf, recovery == null ? null : new File(recovery, MERGE_DB));
  }

  /** The NodeManager's recovery directory, else the first local dir (state then as durable). */
  private File recoveryDir(String[] localDirs) throws IOException {
    Path p = getRecoveryPath();
    File dir;
    if (p != null) {
      dir = new File(p.toUri().getPath());
    } else if (localDirs.length > 0) {
      dir = new File(new File(localDirs[0]), "kae-shuffle-service");
      LOG.warn(
          "NodeManager recovery is off (yarn.nodemanager.recovery.enabled): keeping shuffle "
              + "service state in {}",
          dir);
    } else {
      throw new IOException(
          "No recovery directory and no yarn.nodemanager.local-dirs: set "
              + "yarn.nodemanager.recovery.dir, or "
              + KaeYarnShuffleService.DB_ENABLED
              + "=false");
    }
    if (!dir.isDirectory() && !dir.mkdirs()) {
      throw new IOException("Cannot create the shuffle service's recovery directory " + dir);
    }
    return dir;
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    String appId = context.getApplicationId().toString();
    ByteBuffer secret = context.getApplicationDataForService();
    if (secrets == null) {
      LOG.info("Application {} initialized", appId);
      return;
    }
    if (secret == null || !secret.hasRemaining()) {
      LOG.warn(
          "Application {} brought no secret: its executors will be refused "
              + "(run it with spark.authenticate=true)",
          appId);
      return;
    }
    byte[] bytes = new byte[secret.remaining()];
    secret.duplicate().get(bytes);
    secrets.register(appId, bytes);
    LOG.info("Application {} initialized with its secret", appId);
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    String appId = context.getApplicationId().toString();
    if (secrets != null) {
      secrets.unregister(appId);
    }
    if (blockHandler != null) {
      // YARN deletes the application's directories itself.
      blockHandler.applicationRemoved(appId, false);
    }
    LOG.info("Application {} stopped", appId);
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    LOG.debug("Container {} initialized", context.getContainerId());
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    LOG.debug("Container {} stopped", context.getContainerId());
  }

  /** The port it listens on (-1 when not serving), as Spark's own service tells the NodeManager. */
  @Override
  public ByteBuffer getMetaData() {
    ByteBuffer b = ByteBuffer.allocate(4);
    b.putInt(0, boundPort);
    return b;
  }

  @Override
  protected void serviceStop() throws Exception {
    int was = boundPort;
    closeQuietly();
    LOG.info("KAE shuffle service '{}' stopped (port {})", getName(), was);
    super.serviceStop();
  }

  private void closeQuietly() {
    try {
      if (server != null) {
        server.close();
      }
      if (transportContext != null) {
        transportContext.close();
      }
      if (blockHandler != null) {
        blockHandler.close();
      }
      if (secrets != null) {
        secrets.close();
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Error while stopping the KAE shuffle service", e);
    } finally {
      server = null;
      transportContext = null;
      blockHandler = null;
      secrets = null;
      boundPort = -1;
    }
  }
}
