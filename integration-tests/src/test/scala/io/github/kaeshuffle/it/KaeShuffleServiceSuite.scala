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
package io.github.kaeshuffle.it

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Path}
import java.util.Random
import java.util.concurrent.{ConcurrentLinkedQueue, CountDownLatch, TimeUnit}
import java.util.concurrent.atomic.AtomicLong
import java.util.zip.CRC32

import io.github.kaeshuffle.deploy.Pairs
import io.github.kaeshuffle.it.ClusterFaults._
import io.github.kaeshuffle.yarn.{KaeYarnShuffleService, LineBlockHandler}
import org.apache.hadoop.conf.Configuration
import org.apache.hadoop.fs.{Path => HPath}
import org.apache.hadoop.yarn.api.records.ApplicationId
import org.apache.hadoop.yarn.server.api.{
  ApplicationInitializationContext,
  ApplicationTerminationContext,
  AuxiliaryService
}
import io.github.kaeshuffle.testing.MatrixTests

import org.apache.spark.network.buffer.ManagedBuffer
import org.apache.spark.network.shuffle.{BlockFetchingListener, ExecutorDiskUtils}
import org.apache.spark.network.shuffle.protocol.ExecutorShuffleInfo

/**
 * Our YARN auxiliary service ([[KaeYarnShuffleService]]) run in this JVM the way a NodeManager
 * runs it (init with the NodeManager's configuration and recovery path, start, stop), serving
 * real clients over loopback: Spark executors in local-cluster JVMs, and Spark's
 * `ExternalBlockStoreClient` driven directly.
 */
class KaeShuffleServiceSuite extends MatrixTests {
  private val SortManager = "org.apache.spark.shuffle.sort.SortShuffleManager"

  private def service(
      recovery: Path,
      localRoot: Path,
      port: Int,
      auth: Boolean = false,
      appScoped: Boolean = true): KaeYarnShuffleService = {
    val conf = new Configuration(false)
    conf.setInt(KaeYarnShuffleService.PORT, port)
    conf.set("yarn.nodemanager.local-dirs", localRoot.toString)
    conf.setBoolean(KaeYarnShuffleService.APP_SCOPED_DIRS, appScoped)
    conf.setBoolean(KaeYarnShuffleService.AUTHENTICATE, auth)
    conf.setBoolean(KaeYarnShuffleService.STOP_ON_FAILURE, true)
    val started = ClusterFaults.startRebinding(conf) {
      val s = new KaeYarnShuffleService()
      s.setRecoveryPath(new HPath(recovery.toUri))
      s
    }.asInstanceOf[KaeYarnShuffleService]
    assert(started.port() == port)
    started
  }

  for ((label, codec) <- Seq("KAE Shuffle" -> Some("auto"), "Spark's sort shuffle" -> None)) {
    // Spark's own files through our service: the matrix's (they are read the same way).
    gateTestIf(codec.isDefined)(s"serves $label files after every executor is gone, and " +
      "again after a restart that recovers registrations from RocksDB") {
      val dir = tmpDir("kae-service")
      val local = Files.createDirectories(dir.resolve("local"))
      val port = freePort()
      var s = service(dir.resolve("recovery"), local, port, appScoped = false)
      try {
        val (result, mapTasksAfter) = mapKillReduce(withService(
          Sessions.conf(codec, Sessions.Kryo, "local-cluster[2,1,1024]"),
          port,
          local)) {
          s.stop()
          s = service(dir.resolve("recovery"), local, port, appScoped = false)
        }
        assert(result == Pairs.expectedSums(), s"wrong result served from $label files")
        assert(mapTasksAfter == 0, s"the map stage ran again ($mapTasksAfter tasks)")
        assert(Files.isDirectory(dir.resolve("recovery").resolve("registeredExecutors.rdb")))
      } finally s.stop()
    }
  }

  /** An executor's directories inside its application's directory, as YARN lays them out. */
  private def executorDirs(root: Path, appId: String, exec: String): Array[String] =
    Array(Files.createDirectories(root.resolve(s"usercache/u/appcache/$appId/blockmgr-$exec"))
      .toString)

  test("spark.authenticate: the application's secret is served, a wrong one refused, and the " +
    "secret survives a restart in RocksDB") {
    val dir = tmpDir("kae-service-auth")
    val local = Files.createDirectories(dir.resolve("local"))
    val port = freePort()
    val app = ApplicationId.newInstance(System.currentTimeMillis(), 7)
    val appId = app.toString
    val secret = "the-application-secret"
    val info = new ExecutorShuffleInfo(executorDirs(local, appId, "1"), 64, SortManager)
    var s = service(dir.resolve("recovery"), local, port, auth = true)
    try {
      s.initializeApplication(new ApplicationInitializationContext(
        "u",
        app,
        ByteBuffer.wrap(secret.getBytes(StandardCharsets.UTF_8))))
      def register(withSecret: Option[String]): Unit = {
        val c = shuffleClient(appId, withSecret)
        try c.registerWithShuffleServer("127.0.0.1", port, "1", info)
        finally c.close()
      }
      register(Some(secret))
      intercept[Exception](register(Some("a-wrong-secret")))
      intercept[Exception](register(None))

      s.stop()
      s = service(dir.resolve("recovery"), local, port, auth = true)
      register(Some(secret))
      intercept[Exception](register(Some("a-wrong-secret")))

      s.stopApplication(new ApplicationTerminationContext(app))
      intercept[Exception](register(Some(secret)))
    } finally s.stop()
  }

  test("a line service that cannot link (an Error) leaves the NodeManager up with " +
    "stopOnFailure=false, and stops it with true") {
    def entry(stopOnFailure: Boolean): KaeYarnShuffleService = {
      val s = new KaeYarnShuffleService("spark_shuffle", classOf[UnlinkableService].getName) {}
      val conf = new Configuration(false)
      conf.setBoolean(KaeYarnShuffleService.STOP_ON_FAILURE, stopOnFailure)
      s.init(conf)
      s
    }
    val up = entry(stopOnFailure = false)
    up.start()
    assert(up.port() == -1 && up.getMetaData.getInt(0) == -1)
    up.initializeApplication(new ApplicationInitializationContext(
      "u",
      ApplicationId.newInstance(1L, 1),
      ByteBuffer.allocate(0)))
    up.stop()
    val e = intercept[Exception](entry(stopOnFailure = true))
    assert(e.getMessage.contains("could not start") && e.getMessage.contains("Java 99"), e)
  }

  test("a JVM older than the jar's Spark classes is named before any of them loads") {
    // Class files of version 143 (Java 99): what Spark 4's classes are to a Java 11 JVM.
    val e = intercept[UnsupportedOperationException](KaeYarnShuffleService.checkJava(143))
    assert(
      e.getMessage.contains("need Java 99 or newer, and the NodeManager runs Java " +
        sys.props("java.specification.version")),
      e.getMessage)
    val spark =
      KaeYarnShuffleService.classFileMajor("org/apache/spark/network/TransportContext.class")
    assert(spark >= 52, s"Spark's class files are of version $spark")
    KaeYarnShuffleService.checkJava(spark)
  }

  test("an executor directory outside its application's directory is refused") {
    assume(
      LineBlockHandler.checksLocalDirs(),
      s"Spark ${org.apache.spark.SPARK_VERSION}'s shuffle handler has no local-dir check (4.2+)")
    val dir = tmpDir("kae-service-dirs")
    val local = Files.createDirectories(dir.resolve("local"))
    val port = freePort()
    val s = service(dir.resolve("recovery"), local, port)
    try {
      val app = ApplicationId.newInstance(System.currentTimeMillis(), 3).toString
      val other = ApplicationId.newInstance(System.currentTimeMillis(), 4).toString
      val c = shuffleClient(app, None)
      try {
        c.registerWithShuffleServer(
          "127.0.0.1",
          port,
          "1",
          new ExecutorShuffleInfo(executorDirs(local, app, "1"), 64, SortManager))
        intercept[Exception](c.registerWithShuffleServer(
          "127.0.0.1",
          port,
          "2",
          new ExecutorShuffleInfo(executorDirs(local, other, "2"), 64, SortManager)))
        intercept[Exception](c.registerWithShuffleServer(
          "127.0.0.1",
          port,
          "3",
          new ExecutorShuffleInfo(Array(dir.toString), 64, SortManager)))
      } finally c.close()
    } finally s.stop()
  }

  private def openFiles(): Int = {
    val fds = Files.list(java.nio.file.Paths.get("/proc/self/fd"))
    try fds.count().toInt
    finally fds.close()
  }

  test("load: concurrent fetches from several clients, no errors, no leaked file handles") {
    val dir = tmpDir("kae-service-load")
    val local = Files.createDirectories(dir.resolve("local"))
    val port = freePort()
    val app = ApplicationId.newInstance(System.currentTimeMillis(), 9).toString
    val executors = 4
    val maps = 8
    val reducers = 16
    val blockBytes = 64 * 1024
    // Shuffle files as Spark lays them out: data, and an index of reducers + 1 offsets.
    val random = new Random(42)
    val crcs = scala.collection.mutable.Map.empty[String, Long]
    val infos = (1 to executors).map { e =>
      val dirs = executorDirs(local, app, e.toString)
      for (m <- 0 until maps) {
        val name = s"shuffle_0_${e * 100 + m}_0"
        // Spark spreads files over hashed subdirectories: data and index land in different ones.
        def place(file: String): Path = {
          val p = java.nio.file.Paths.get(ExecutorDiskUtils.getFilePath(dirs, 64, file))
          Files.createDirectories(p.getParent)
          p
        }
        val index = ByteBuffer.allocate(8 * (reducers + 1))
        val out = Files.newOutputStream(place(name + ".data"))
        try {
          var offset = 0L
          index.putLong(0L)
          for (r <- 0 until reducers) {
            val bytes = new Array[Byte](blockBytes - random.nextInt(4096))
            random.nextBytes(bytes)
            out.write(bytes)
            val crc = new CRC32
            crc.update(bytes)
            crcs(s"shuffle_0_${e * 100 + m}_$r") = crc.getValue
            offset += bytes.length
            index.putLong(offset)
          }
        } finally out.close()
        Files.write(place(name + ".index"), index.array())
      }
      e.toString -> new ExecutorShuffleInfo(dirs, 64, SortManager)
    }
    val s = service(dir.resolve("recovery"), local, port)
    try {
      val setup = shuffleClient(app, None)
      try infos.foreach { case (e, info) =>
          setup.registerWithShuffleServer("127.0.0.1", port, e, info)
        }
      finally setup.close()
      val filesBefore = openFiles()

      val clients = 8
      val rounds = 3
      val bytes = new AtomicLong
      val errors = new ConcurrentLinkedQueue[String]()
      val start = System.nanoTime()
      val threads = (0 until clients).map { t =>
        new Thread(
          () => {
            val c = shuffleClient(app, None)
            try {
              for (_ <- 0 until rounds; (e, _) <- infos) {
                val ids = (0 until maps).flatMap(m =>
                  (0 until reducers)
                    .map(r => s"shuffle_0_${e.toInt * 100 + m}_$r")).toArray
                val done = new CountDownLatch(ids.length)
                c.fetchBlocks(
                  "127.0.0.1",
                  port,
                  e,
                  ids,
                  new BlockFetchingListener {
                    override def onBlockFetchSuccess(id: String, data: ManagedBuffer): Unit = {
                      val b = data.nioByteBuffer()
                      val crc = new CRC32
                      crc.update(b)
                      bytes.addAndGet(data.size())
                      if (crc.getValue != crcs(id)) errors.add(s"$id: wrong bytes")
                      done.countDown()
                    }
                    override def onBlockFetchFailure(id: String, ex: Throwable): Unit = {
                      errors.add(s"$id: $ex")
                      done.countDown()
                    }
                  },
                  null
                )
                if (!done.await(120, TimeUnit.SECONDS)) errors.add(s"client $t timed out")
              }
            } finally c.close()
          },
          s"fetch-client-$t"
        )
      }
      threads.foreach(_.start())
      threads.foreach(_.join())
      val seconds = (System.nanoTime() - start) / 1e9
      assert(errors.isEmpty, s"${errors.size} errors, e.g. ${errors.peek()}")
      val expected = clients.toLong * rounds * crcs.size
      val mib = bytes.get / 1048576.0
      // Closed clients and served files leave no descriptors behind (a little slack for the
      // JVM's own, which come and go).
      ClusterFaults.awaitCondition("file handles to be released", 30)(
        openFiles() <= filesBefore + 4)
      val line = f"KaeYarnShuffleService load: $clients clients x $rounds rounds x ${crcs.size}" +
        f" blocks = $expected fetches, $mib%.0f MiB in $seconds%.1f s = ${mib / seconds}%.0f" +
        f" MiB/s over loopback, 0 errors; open files before $filesBefore, after ${openFiles()}"
      info(line)
      Files.writeString(java.nio.file.Paths.get("target", "shuffle-service-load.txt"), line + "\n")
    } finally s.stop()
  }
}

/** A line service whose class this JVM cannot use, as Spark 4's on a Java 11 NodeManager. */
class UnlinkableService(name: String) extends AuxiliaryService(name) {
  throw new UnsupportedClassVersionError("simulated: class file version 143.0 (Java 99)")
  override def initializeApplication(c: ApplicationInitializationContext): Unit = ()
  override def stopApplication(c: ApplicationTerminationContext): Unit = ()
  override def getMetaData: ByteBuffer = ByteBuffer.allocate(0)
}
