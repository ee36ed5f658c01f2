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
package io.github.kaeshuffle.reader;

import io.github.kaeshuffle.codec.ByteBuffers;
import io.github.kaeshuffle.codec.DirectMemory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The bounded memory decoded blocks wait in between the decompressor and the deserializer: a fixed
 * number of slots, each big enough for one block, off the Java heap. Two backings: direct buffers,
 * or slices of a file in the executor's local dirs mapped into memory. Either way the memory is
 * released explicitly on {@link #close()} (freed or unmapped), never left to the garbage collector.
 */
public final class DecodeWindow implements AutoCloseable {
  /** How the slots are backed. */
  public enum Kind {
    DIRECT,
    MAPPED
  }

  private final ByteBuffer[] slots;
  private final ByteBuffer backing;
  private final Path file;
  private final long bytes;
  private boolean closed;

  private DecodeWindow(ByteBuffer backing, Path file, int slots, int slotSize) {
    this.backing = backing;
    this.file = file;
    this.slots = new ByteBuffer[slots];
    for (int i = 0; i < slots; i++) {
      this.slots[i] = ByteBuffers.slice(backing, i * slotSize, slotSize);
    }
    this.bytes = (long) slots * slotSize;
  }

  /**
   * A window of {@code slots} slots of {@code slotSize} bytes. {@code dir} is where a mapped
   * window's file goes (deleted on close); unused for direct windows.
   */
  public static DecodeWindow allocate(Kind kind, int slots, int slotSize, Path dir)
      throws IOException {
    if (slots < 2 || slotSize < 1 || (long) slots * slotSize > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "A window needs at least 2 slots and under 2 GiB: "
              + slots
              + " x "
              + slotSize
              + " bytes.");
    }
    int total = slots * slotSize;
    if (kind == Kind.DIRECT) {
      return new DecodeWindow(DirectMemory.allocateDirect(total), null, slots, slotSize);
    }
    Path f = Files.createTempFile(dir, "kae-window-", ".bin");
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_WRITE, 0, total);
      return new DecodeWindow(m, f, slots, slotSize);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(f);
      throw e;
    }
  }

  public int slots() {
    return slots.length;
  }

  public int slotSize() {
    return slots[0].capacity();
  }

  /**
   * A fresh view of slot {@code i} (position 0, limit its capacity): each user gets its own, so the
   * decompressor and the reader never share a buffer's position.
   */
  public ByteBuffer slot(int i) {
    return ByteBuffers.clear(slots[i].duplicate());
  }

  /** Bytes of memory the window holds. */
  public long bytes() {
    return bytes;
  }

  /** Frees the memory (unmaps and deletes a mapped window's file). Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    DirectMemory.free(backing);
    if (file != null) {
      Files.deleteIfExists(file);
    }
  }
}
