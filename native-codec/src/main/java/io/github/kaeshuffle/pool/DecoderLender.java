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
package io.github.kaeshuffle.pool;

import io.github.kaeshuffle.format.BlockDecoder;
import java.util.function.Supplier;

/** Where a reader gets a decoder for one stream and gives it back: a pool, or fresh ones. */
public interface DecoderLender {
  /** A decoder with cleared statistics, for one owner until {@link #giveBack}. */
  BlockDecoder borrow();

  /** Returns a decoder once its owner has read its statistics; it must not be used after. */
  void giveBack(BlockDecoder decoder);

  /** A new decoder per borrow, closed when given back: no reuse (tests, tools). */
  static DecoderLender fresh(Supplier<BlockDecoder> make) {
    return new DecoderLender() {
      @Override
      public BlockDecoder borrow() {
        return make.get();
      }

      @Override
      public void giveBack(BlockDecoder decoder) {
        decoder.close();
      }
    };
  }
}
