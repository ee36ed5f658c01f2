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
package org.apache.spark.shuffle.kae.reader;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A stream found bad before its first byte fails every read with the damage found, the first read
 * being where Spark's fetcher diagnoses a block, and closing it closes the fetched stream.
 */
class FailedStreamTest {
  private static final IOException DAMAGE = new IOException("damaged frame header at offset 0");

  @Test
  void everyReadFailsWithTheDamageFound() {
    InputStream in = new FailedStream(DAMAGE, new ByteArrayInputStream(new byte[16]));
    List<Executable> reads = new ArrayList<>();
    reads.add(in::read);
    reads.add(() -> in.read(new byte[8]));
    reads.add(() -> in.read(new byte[8], 2, 4));
    reads.add(in::available);
    reads.add(() -> in.skip(4));
    reads.add(in::readAllBytes);
    for (Executable read : reads) {
      assertSame(DAMAGE, assertThrows(IOException.class, read));
    }
  }

  @Test
  void closingItClosesTheFetchedStream() throws IOException {
    AtomicBoolean closed = new AtomicBoolean();
    InputStream fetched =
        new ByteArrayInputStream(new byte[16]) {
          @Override
          public void close() {
            closed.set(true);
          }
        };
    new FailedStream(DAMAGE, fetched).close();
    assertTrue(closed.get());
  }
}
