package io.github.kaeshuffle.codec;

import java.util.Arrays;

/** Run in a child JVM by NativeLoaderTest: loads what it can and prints what it got. */
public final class LoaderProbe {
  private LoaderProbe() {}

  public static void main(String[] args) throws Exception {
    NativeLoader.Status status = NativeLoader.load();
    System.out.println("loaded=" + status.loaded());
    System.out.println("detail=" + status.detail());
    BlockCodec c = Codecs.select(CodecOptions.builder().codec(args[0]).build()).codec();
    System.out.println("codec=" + c.name());
    byte[] raw = TestCodecs.data("text", 100_000, 1);
    byte[] z = new byte[c.maxCompressedLength(raw.length)];
    byte[] back = new byte[raw.length];
    try (BlockCompressor comp = c.newCompressor(); BlockDecompressor d = c.newDecompressor()) {
      int n = comp.compress(raw, 0, raw.length, z, 0, z.length);
      d.decompress(z, 0, n, back, 0, raw.length);
    }
    System.out.println("roundtrip=" + (Arrays.equals(raw, back) ? "ok" : "WRONG"));
  }
}
