package io.github.kaeshuffle.format;

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
