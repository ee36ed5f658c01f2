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
package io.github.kaeshuffle.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * Both of our CRC32C implementations agree with the JDK's, on arrays and on both kinds of buffer.
 */
class Crc32cTest {
  @Test
  void theJdkImplementationIsUsedFromJava9() {
    assertTrue(Crc32c.usesJdk());
  }

  @Test
  void theKnownCheckValue() {
    byte[] b = "123456789".getBytes(StandardCharsets.US_ASCII);
    for (boolean jdk : new boolean[] {true, false}) {
      Crc32c c = new Crc32c(jdk);
      c.update(b, 0, b.length);
      assertEquals(0xE3069283L, c.getValue(), "jdk=" + jdk);
    }
  }

  @Test
  void theTableAgreesWithTheJdkOnEveryLengthAndOffset() {
    Random r = new Random(7);
    byte[] data = new byte[70_000];
    r.nextBytes(data);
    Crc32c table = new Crc32c(false);
    CRC32C jdk = new CRC32C();
    for (int i = 0; i < 2_000; i++) {
      int off = r.nextInt(64);
      int len = i < 100 ? i : r.nextInt(data.length - off);
      jdk.reset();
      jdk.update(data, off, len);
      table.reset();
      table.update(data, off, len);
      assertEquals(jdk.getValue(), table.getValue(), "off " + off + " len " + len);
    }
  }

  @Test
  void buffersOfEveryKindAreReadFromPositionToLimitAndConsumed() {
    byte[] data = new byte[20_000];
    new Random(11).nextBytes(data);
    CRC32C expected = new CRC32C();
    expected.update(data, 100, 19_000);
    ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data);
    ByteBuffer[] kinds = {ByteBuffer.wrap(data), direct, ByteBuffer.wrap(data).asReadOnlyBuffer()};
    for (ByteBuffer kind : kinds) {
      for (boolean jdk : new boolean[] {true, false}) {
        ByteBuffer b = kind.duplicate();
        b.limit(19_100).position(100);
        Crc32c c = new Crc32c(jdk);
        c.update(b);
        assertEquals(expected.getValue(), c.getValue(), kind + " jdk=" + jdk);
        assertEquals(b.limit(), b.position());
      }
    }
  }
}
