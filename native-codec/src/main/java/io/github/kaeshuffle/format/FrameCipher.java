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

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.CodecException;
import io.github.kaeshuffle.codec.CorruptBlockException;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Encrypts and decrypts frame payloads with AES in counter mode, the cipher of Spark's IO
 * encryption ({@code AES/CTR/NoPadding} with the application's key), under a fresh random IV per
 * frame stored in front of the ciphertext: every frame stays decodable on its own, so the index,
 * batch reads and decompression ahead work as without encryption. Counter mode keeps lengths, so an
 * encrypted payload is its plaintext plus {@link #IV_LENGTH} bytes.
 *
 * <p>Counter mode does not authenticate: the frame's CRC32C is taken over the plaintext, so a
 * payload decrypted with the wrong key, or damaged, fails that check (see {@link FrameHeader}). Not
 * thread-safe: one per encoder or decoder.
 */
public final class FrameCipher {
  /** Bytes of the IV in front of each encrypted payload (AES's block). */
  public static final int IV_LENGTH = 16;

  private static final String TRANSFORMATION = "AES/CTR/NoPadding";

  private final SecretKeySpec key;
  private final Cipher cipher;
  private final SecureRandom random;
  private final byte[] iv = new byte[IV_LENGTH];

  /**
   * @param key an AES key of 16, 24 or 32 bytes (Spark's {@code spark.io.encryption.keySizeBits}:
   *     128, 192 or 256)
   */
  public FrameCipher(byte[] key) {
    if (key == null || (key.length != 16 && key.length != 24 && key.length != 32)) {
      throw new IllegalArgumentException(
          "An AES key has 16, 24 or 32 bytes, not "
              + (key == null ? "none" : String.valueOf(key.length))
              + ".");
    }
    this.key = new SecretKeySpec(key, "AES");
    try {
      this.cipher = Cipher.getInstance(TRANSFORMATION);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("This JVM has no " + TRANSFORMATION + " cipher.", e);
    }
    this.random = new SecureRandom();
  }

  /**
   * Encrypts, in place, the {@code length} plaintext bytes at absolute index {@code at + IV_LENGTH}
   * of {@code buf}, and writes the IV used at {@code at}.
   */
  void encryptInPlace(ByteBuffer buf, int at, int length) throws CodecException {
    random.nextBytes(iv);
    ByteBuffers.putAt(buf, at, ByteBuffer.wrap(iv), 0, IV_LENGTH);
    ByteBuffer text = ByteBuffers.range(buf, at + IV_LENGTH, at + IV_LENGTH + length);
    run(Cipher.ENCRYPT_MODE, text, text.duplicate());
  }

  /**
   * Decrypts the payload {@code encrypted} (IV, then ciphertext) into {@code dst} from its
   * position, which advances by the plaintext's length.
   */
  void decrypt(ByteBuffer encrypted, ByteBuffer dst) throws CodecException {
    if (encrypted.remaining() <= IV_LENGTH) {
      throw new CorruptBlockException(
          "An encrypted payload of " + encrypted.remaining() + " bytes has no room for its IV.");
    }
    ByteBuffer in = encrypted.duplicate();
    in.get(iv);
    run(Cipher.DECRYPT_MODE, in, dst);
  }

  private void run(int mode, ByteBuffer in, ByteBuffer out) throws CodecException {
    try {
      cipher.init(mode, key, new IvParameterSpec(iv));
      cipher.doFinal(in, out);
    } catch (GeneralSecurityException e) {
      throw new CodecException("AES/CTR failed on a frame: " + e.getMessage(), e);
    }
  }
}
