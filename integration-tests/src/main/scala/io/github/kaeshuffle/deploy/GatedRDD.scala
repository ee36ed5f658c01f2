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
package io.github.kaeshuffle.deploy

import java.nio.file.Paths

import scala.reflect.ClassTag

import org.apache.spark.{Partition, TaskContext}
import org.apache.spark.rdd.RDD

/**
 * `prev`, each of whose tasks first reaches `reached` in the [[Gate]] at `dir` and waits for
 * `answer` before it computes its partition: on a shuffled RDD, before its reader fetches
 * anything, so a test can take a host away while the reduce stage waits.
 */
final class GatedRDD[T: ClassTag](prev: RDD[T], dir: String, reached: String, answer: String)
  extends RDD[T](prev) {

  override protected def getPartitions: Array[Partition] = prev.partitions

  override def compute(split: Partition, context: TaskContext): Iterator[T] = {
    new Gate(Paths.get(dir)).reachAndAwait(reached, answer)
    prev.iterator(split, context)
  }
}
