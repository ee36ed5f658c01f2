# The PySpark job of docs/benchmarks/pyspark-repartition/README.md, as a user would run it:
# 8M rows (an id, a key of 100,000 values, a 30-character string) repartitioned into 200
# partitions by key, then counted per key; local[2], a 1 GiB driver, AQE off. One run per process.
#   usage: python3 repartition_job.py <spark-lz4|kae-auto> <KAE Shuffle jar>
# Prints: RESULT <config> <job seconds> <driver JVM peak RSS MiB> <sum of key*count> <keys>
import sys
import time

from pyspark.sql import SparkSession, functions as F

config, jar = sys.argv[1], sys.argv[2]
builder = (SparkSession.builder.master("local[2]")
           .config("spark.driver.memory", "1g")
           .config("spark.sql.adaptive.enabled", "false")
           .config("spark.ui.enabled", "false")
           .config("spark.ui.showConsoleProgress", "false"))
if config == "kae-auto":
    builder = (builder.config("spark.jars", jar)
               .config("spark.shuffle.manager", "org.apache.spark.shuffle.kae.KaeShuffleManager"))
elif config != "spark-lz4":
    sys.exit(f"unknown configuration {config}: spark-lz4 or kae-auto")
spark = builder.getOrCreate()

rows = (spark.range(0, 8_000_000, 1, 4)
        .select(F.col("id"),
                (F.col("id") % 100_000).alias("key"),
                F.concat(F.lit("v-"), F.substring(F.sha1(F.col("id").cast("string")), 1, 28))
                .alias("s")))
start = time.time()
counts = rows.repartition(200, "key").groupBy("key").count()
checksum, keys = counts.agg(F.sum(F.col("key") * F.col("count")), F.count("*")).collect()[0]
seconds = time.time() - start

pid = spark.sparkContext._jvm.java.lang.ProcessHandle.current().pid()
with open(f"/proc/{pid}/status") as status:
    peak_kib = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
manager = spark.sparkContext.getConf().get("spark.shuffle.manager", "sort")
print(f"RESULT {config} {seconds:.2f} {peak_kib // 1024} {checksum} {keys} {manager}")
spark.stop()
