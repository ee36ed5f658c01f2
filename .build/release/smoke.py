# The release smoke test's job (.build/release-smoke.sh): an RDD shuffle with map-side combine and
# a SQL aggregation, checked against results computed without a shuffle. Prints "result ok" or
# "result WRONG"; release-smoke.sh checks in the driver's log that KAE Shuffle wrote the stages.
import sys

from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("kae-release-smoke").getOrCreate()
sc = spark.sparkContext
n = 200000
pairs = sc.parallelize(range(n), 4).map(lambda i: (i % 97, 1)).reduceByKey(lambda a, b: a + b, 8)
rdd_ok = dict(pairs.collect()) == {k: len(range(k, n, 97)) for k in range(97)}
counts = spark.range(0, n, 1, 4).selectExpr("id % 101 AS k").groupBy("k").count().collect()
sql_ok = {r["k"]: r["count"] for r in counts} == {k: len(range(k, n, 101)) for k in range(101)}
print("shuffle manager", sc.getConf().get("spark.shuffle.manager"))
ok = rdd_ok and sql_ok
print("result", "ok" if ok else "WRONG", "rdd", rdd_ok, "sql", sql_ok)
spark.stop()
sys.exit(0 if ok else 1)
