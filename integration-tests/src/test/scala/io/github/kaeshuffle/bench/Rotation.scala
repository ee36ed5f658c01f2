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
package io.github.kaeshuffle.bench

/**
 * The order of the configurations in one repetition of a benchmark: rotated by one from each
 * repetition to the next, so that over as many repetitions as there are configurations each runs
 * in each place once. A run takes part of its time from its place (the first run of a query after
 * a switch was slower: docs/benchmarks/README.md, on the TPC-H benchmark); reversing the order
 * every other repetition leaves the middle one of three never first.
 */
object Rotation {
  def of[T](configs: Seq[T], rep: Int): Seq[T] = {
    val by = Math.floorMod(rep, configs.size)
    configs.drop(by) ++ configs.take(by)
  }
}
