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
package doctor

/**
 * How fast a codec ran on reference data on some machine, for the doctor to print next to a
 * stage's own codec rate. Measured by the event-log command (`CodecRates`, kae-shuffle-doctor);
 * the runtime never measures.
 *
 * @param codec the codec and its level, as logged
 */
private[spark] case class ReferenceRates(
    codec: String,
    rawBytes: Long,
    storedBytes: Long,
    compressNanos: Long,
    decompressNanos: Long)
