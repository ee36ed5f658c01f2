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
package io.github.kaeshuffle.codec;

/**
 * The bytes given to a decompressor or a block reader are not a valid block: bad magic, checksum,
 * length or compressed stream. Shuffle readers turn it into a fetch failure so the map output is
 * recomputed; it never means a bug in the caller.
 */
public class CorruptBlockException extends CodecException {
  private static final long serialVersionUID = 1L;

  public CorruptBlockException(String message) {
    super(message);
  }

  public CorruptBlockException(String message, Throwable cause) {
    super(message, cause);
  }
}
