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
 * Samples a quantity (heap in use, direct memory in use) every `periodMillis` on a daemon thread
 * until stopped, keeping the peak: memory peaks that no counter keeps for us.
 */
final class PeakSampler(periodMillis: Long, sample: () => Long) {
  @volatile var peak = 0L
  private val every = new Periodic(periodMillis, "peak-sampler")({
    peak = math.max(peak, sample())
  })

  def stop(): Unit = every.stop()
}
