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
package io.github.kaeshuffle.writer;

import java.io.IOException;
import java.io.OutputStream;

/** The map output, one stream per partition, opened in increasing partition order. */
public interface PartitionStreams {
  OutputStream open(int partition) throws IOException;

  /** The partition's segment is written; {@code stream} may be closed now. */
  void close(int partition, OutputStream stream) throws IOException;
}
