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

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.apache.hadoop.yarn.server.api.ApplicationTerminationContext;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.apache.hadoop.yarn.server.api.ContainerInitializationContext;
import org.apache.hadoop.yarn.server.api.ContainerTerminationContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The YARN NodeManager auxiliary service named in {@code yarn-site.xml}: runs the jar's Spark
 * line's shuffle service ({@link LineShuffleService}) and keeps the NodeManager up when that cannot
 * start, unless {@code spark.yarn.shuffle.stopOnFailure=true}.
 *
 * <p>It names no Spark class: the NodeManager links this class before any of its code runs, and a
 * Spark class that cannot load there (Spark 4's network classes are Java 17 class files; a
 * NodeManager may run Java 8 or 11) would then throw an {@link Error} that the NodeManager does not
 * catch, and it would stop. The line's service is loaded by name inside {@link #serviceInit}, after
 * a check that this JVM reads the jar's Spark class files, and any failure there, {@link
 * LinkageError}s included, is logged with the reason.
 *
 * <p>Settings, from the NodeManager's configuration (yarn-site.xml), named as Spark names them:
 * {@code spark.shuffle.service.port} (7337), {@code spark.authenticate} (false), {@code
 * spark.shuffle.service.db.enabled} (true), {@code spark.shuffle.service.db.backend} (ROCKSDB, the
 * only one accepted), {@code spark.yarn.shuffle.stopOnFailure} (false), Spark's {@code
 * spark.shuffle.io.*} transport settings; {@code
 * spark.shuffle.push.server.mergedShuffleFileManagerImpl} (Spark's {@code RemoteBlockPushResolver}
 * merges the blocks applications push, for push-based shuffle; unset, nothing is merged) with
 * Spark's {@code spark.shuffle.push.server.*} settings; and {@code
 * spark.shuffle.kae.service.appScopedDirs} (true: an executor's directories must lie inside its
 * application's directory under the NodeManager's local dirs).
 */
public class KaeYarnShuffleService extends AuxiliaryService {
  private static final Logger LOG = LoggerFactory.getLogger(KaeYarnShuffleService.class);

  /**
   * The name Spark's YARN client gives the service by default ({@code spark.shuffle.service.name}).
   */
  public static final String DEFAULT_NAME = "spark_shuffle";

  public static final String PORT = "spark.shuffle.service.port";
  public static final int DEFAULT_PORT = 7337;
  public static final String AUTHENTICATE = "spark.authenticate";
  public static final String DB_ENABLED = "spark.shuffle.service.db.enabled";
  public static final String DB_BACKEND = "spark.shuffle.service.db.backend";
  public static final String STOP_ON_FAILURE = "spark.yarn.shuffle.stopOnFailure";
  public static final String APP_SCOPED_DIRS = "spark.shuffle.kae.service.appScopedDirs";
  public static final String MERGE_MANAGER =
      "spark.shuffle.push.server.mergedShuffleFileManagerImpl";

  /** A Spark class every line's service needs: its class file version is the Java it needs. */
  static final String SPARK_CLASS = "org/apache/spark/network/TransportContext.class";

  /** {@link LineShuffleService}, by name: a class literal would link it with this one. */
  static final String LINE_SERVICE = "io.github.kaeshuffle.yarn.LineShuffleService";

  private final String lineService;
  private AuxiliaryService line;

  /**
   * Settings of this service alone, in a file on its class path (beside the jar in the directory
   * {@code yarn.nodemanager.aux-services.<name>.classpath} names), as Spark's own service reads
   * them: with {@code spark.shuffle.service.name} and {@code spark.shuffle.service.port} there, one
   * NodeManager runs several services, each Spark line's jar under its own name and port. They
   * override the NodeManager's settings.
   */
  public static final String SITE = "spark-shuffle-site.xml";

  public static final String NAME = "spark.shuffle.service.name";

  public KaeYarnShuffleService() {
    this(site().get(NAME, DEFAULT_NAME), LINE_SERVICE);
  }

  /**
   * @param lineService the class of the line's service, named so this class does not link it: an
   *     {@link AuxiliaryService} with a constructor taking the service's name
   */
  protected KaeYarnShuffleService(String name, String lineService) {
    super(name);
    this.lineService = lineService;
  }

  /** {@link #SITE} from this service's class path; empty where there is none. */
  static Configuration site() {
    Configuration site = new Configuration(false);
    URL url = KaeYarnShuffleService.class.getClassLoader().getResource(SITE);
    if (url != null) {
      site.addResource(url);
    }
    return site;
  }

  @Override
  protected void serviceInit(Configuration nodeManager) throws Exception {
    Configuration conf = new Configuration(nodeManager);
    for (Map.Entry<String, String> e : site()) {
      conf.set(e.getKey(), e.getValue());
    }
    boolean stopOnFailure = conf.getBoolean(STOP_ON_FAILURE, false);
    try {
      checkJava(SPARK_CLASS);
      AuxiliaryService s =
          (AuxiliaryService)
              Class.forName(lineService, true, getClass().getClassLoader())
                  .getConstructor(String.class)
                  .newInstance(getName());
      s.setRecoveryPath(getRecoveryPath());
      s.init(conf);
      line = s;
    } catch (InvocationTargetException e) {
      failed(e.getCause(), stopOnFailure);
    } catch (Exception | LinkageError e) {
      failed(e, stopOnFailure);
    }
    super.serviceInit(nodeManager);
  }

  private void failed(Throwable e, boolean stopOnFailure) {
    if (stopOnFailure) {
      throw new IllegalStateException(
          "KAE shuffle service '" + getName() + "' could not start: " + e, e);
    }
    LOG.error(
        "KAE shuffle service '{}' could not start and serves nothing ({}=false keeps the "
            + "NodeManager running): {}",
        getName(),
        STOP_ON_FAILURE,
        e.toString(),
        e);
  }

  /**
   * Fails, naming both versions, when this JVM cannot read the class files of the jar's Spark
   * classes ({@code resource}), before the first of them is loaded.
   */
  static void checkJava(String resource) throws IOException {
    checkJava(classFileMajor(resource));
  }

  /** Fails when this JVM cannot read class files of major version {@code needed}. */
  public static void checkJava(int needed) {
    int running = (int) Double.parseDouble(System.getProperty("java.class.version"));
    if (needed > running) {
      throw new UnsupportedOperationException(
          "this service jar's Spark classes need Java "
              + (needed - 44)
              + " or newer, and the NodeManager runs Java "
              + System.getProperty("java.specification.version")
              + ": run the NodeManager on Java "
              + (needed - 44)
              + " (docs/yarn.md#the-nodemanagers-java)");
    }
  }

  /** The major version of a class file on this service's class path. */
  public static int classFileMajor(String resource) throws IOException {
    InputStream in = KaeYarnShuffleService.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IOException(resource + " is not in the service jar: a damaged or wrong jar?");
    }
    try (DataInputStream d = new DataInputStream(in)) {
      d.readInt(); // 0xCAFEBABE
      d.readUnsignedShort(); // minor
      return d.readUnsignedShort();
    }
  }

  /** The port the service listens on (useful when configured as 0), or -1 when not serving. */
  public int port() {
    return line == null ? -1 : line.getMetaData().getInt(0);
  }

  @Override
  protected void serviceStart() throws Exception {
    if (line != null) {
      line.start();
    }
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    if (line != null) {
      line.stop();
      line = null;
    }
    super.serviceStop();
  }

  @Override
  public void initializeApplication(ApplicationInitializationContext context) {
    if (line != null) {
      line.initializeApplication(context);
    }
  }

  @Override
  public void stopApplication(ApplicationTerminationContext context) {
    if (line != null) {
      line.stopApplication(context);
    }
  }

  @Override
  public void initializeContainer(ContainerInitializationContext context) {
    if (line != null) {
      line.initializeContainer(context);
    }
  }

  @Override
  public void stopContainer(ContainerTerminationContext context) {
    if (line != null) {
      line.stopContainer(context);
    }
  }

  /** The port, as Spark's own service tells the NodeManager; -1 when not serving. */
  @Override
  public ByteBuffer getMetaData() {
    ByteBuffer b = ByteBuffer.allocate(4);
    b.putInt(0, port());
    return b;
  }
}
