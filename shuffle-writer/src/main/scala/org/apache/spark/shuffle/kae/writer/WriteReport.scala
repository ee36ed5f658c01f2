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
package org.apache.spark.shuffle.kae
package writer

/**
 * What a map task's writer reports besides the codec's statistics: the shuffle doctor's
 * serialization and disk links (zero when the doctor is off), the raw bytes it parked on disk
 * and those auto's ladder wrote with a stronger codec.
 *
 * @param serializeNanos serializing records into block buffers (estimated from sampled records:
 *     [[io.github.kaeshuffle.diagnostics.RecordSample]]; the upstream's time, which for a blocking
 *     operator all comes before the first record, is not in it)
 * @param diskNanos writing spills and the map output, committing it (exact, codec calls left out)
 * @param parkedBytes raw bytes the block writer parked in its frame file to keep its large buffers
 *     within spark.shuffle.kae.writer.largeBufferMemory (each written and read back once)
 * @param strongerRawBytes raw bytes written with a codec above the first step of auto's ladder
 *     (all of the task's, or none: a task keeps the codec it started with)
 */
private[spark] case class WriteReport(
    serializeNanos: Long,
    diskNanos: Long,
    parkedBytes: Long,
    strongerRawBytes: Long = 0L)
