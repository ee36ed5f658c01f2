package io.github.kaeshuffle.it

import java.io.File
import java.nio.file.Files

import org.apache.spark.SparkConf
import org.apache.spark.sql.SparkSession

/** Spark sessions for the integration tests: KAE Shuffle with a codec, or Spark's own shuffle. */
object Sessions {
  val Kryo = "org.apache.spark.serializer.KryoSerializer"
  val Java = "org.apache.spark.serializer.JavaSerializer"

  /** The codecs every differential test runs; kaezip is served by the counting zlib stand-in. */
  val Codecs: Seq[String] = Seq("auto", "kaezip", "libdeflate", "zlib", "java", "lz4", "zstd")

  def standIn: String = {
    val p = sys.props.getOrElse("kae.test.kaezipStandIn",
      "../native-codec/target/test-native/libzstandin.so")
    require(new File(p).exists(), s"$p is missing: build native-codec's tests first (mvn verify)")
    p
  }

  def conf(codec: Option[String], serializer: String, master: String = "local[4]"): SparkConf = {
    val tmp = new File(System.getProperty("java.io.tmpdir"))
    tmp.mkdirs()
    val c = new SparkConf(false)
      .setMaster(master)
      .setAppName(s"kae-it-${codec.getOrElse("spark")}")
      .set("spark.ui.enabled", "false")
      .set("spark.driver.host", "127.0.0.1")
      .set("spark.driver.bindAddress", "127.0.0.1")
      .set("spark.serializer", serializer)
      .set("spark.unsafe.exceptionOnMemoryLeak", "true")
      .set("spark.local.dir", Files.createTempDirectory(tmp.toPath, "spark-local").toString)
      .set("spark.sql.shuffle.partitions", "8")
      .set("spark.sql.adaptive.enabled", "true")
      .set("spark.sql.adaptive.coalescePartitions.enabled", "true")
      .set("spark.sql.adaptive.skewJoin.enabled", "true")
      .set("spark.sql.adaptive.skewJoin.skewedPartitionFactor", "2")
      .set("spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes", "1k")
      .set("spark.sql.adaptive.advisoryPartitionSizeInBytes", "4k")
    codec.foreach { name =>
      c.set("spark.shuffle.manager", "org.apache.spark.shuffle.kae.KaeShuffleManager")
        .set("spark.shuffle.kae.codec", name)
        .set("spark.shuffle.kae.blockSize", "16k")
      if (name == "kaezip") {
        c.set("spark.shuffle.kae.kaezip.libraryPath", standIn)
          .set("spark.shuffle.kae.kaezip.skipHardwareCheck", "true")
      }
    }
    c
  }

  def withSession[T](conf: SparkConf)(f: SparkSession => T): T = {
    val spark = SparkSession.builder().config(conf).getOrCreate()
    try f(spark) finally spark.stop()
  }
}
