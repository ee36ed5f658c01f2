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
package io.github.kaeshuffle.workloads;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import scala.Tuple2;
import scala.Tuple3;

/**
 * Record generators for the workloads of docs/workloads.md, one slice (input partition) at a time,
 * returning Scala tuples so Spark jobs use them directly: {@code sc.parallelize(0 until slices,
 * slices).flatMap(i => Workloads.sort(seed, i, n).asScala)}.
 */
public final class Workloads {
  private Workloads() {}

  /** Records per slice for each size, per workload, chosen for ~the shuffle volume named. */
  public enum Size {
    TINY(2_000, 200),
    /**
     * A tenth of small: the KAEzip model benchmark, whose study baseline pays one modelled hardware
     * request per serializer write.
     */
    XSMALL(25_000, 1_200),
    SMALL(250_000, 12_000),
    MEDIUM(2_500_000, 120_000),
    LARGE(25_000_000, 1_200_000);

    /** Lines per slice for sort / wordcount; documents per slice for lda-edges. */
    public final int linesPerSlice;

    public final int documentsPerSlice;

    Size(int lines, int documents) {
      this.linesPerSlice = lines;
      this.documentsPerSlice = documents;
    }

    public static Size of(String name) {
      return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }
  }

  /** {@code sort}: (first word + line id, line of 10 words). */
  public static Iterator<Tuple2<String, String>> sort(long seed, int slice, int lines) {
    Random r = TextCorpus.random(seed, slice);
    TextCorpus corpus = TextCorpus.get();
    return generate(
        lines,
        new Supplier<>() {
          long id = (long) slice * lines;

          @Override
          public Tuple2<String, String> get() {
            String line = corpus.line(r, 10);
            int space = line.indexOf(' ');
            return new Tuple2<>(line.substring(0, space) + id++, line);
          }
        });
  }

  /** The text of {@code sort}, as lines, for {@code wordcount}. */
  public static Iterator<String> lines(long seed, int slice, int lines) {
    Random r = TextCorpus.random(seed, slice);
    TextCorpus corpus = TextCorpus.get();
    return generate(lines, () -> corpus.line(r, 10));
  }

  /**
   * {@code lda-edges}: documents as bags of words; one record per (document, distinct word):
   * (wordId, (docId, wordId, weight)) with weight the word's count in the document.
   */
  public static Iterator<Tuple2<Object, Tuple3<Object, Object, Object>>> ldaEdges(
      long seed, int slice, int documents) {
    Random r = TextCorpus.random(seed, slice);
    TextCorpus corpus = TextCorpus.get();
    List<Tuple2<Object, Tuple3<Object, Object, Object>>> buffer = new ArrayList<>();
    return new Iterator<>() {
      int doc;
      int next;

      @Override
      public boolean hasNext() {
        while (next == buffer.size() && doc < documents) {
          buffer.clear();
          next = 0;
          long docId = (long) slice * documents + doc++;
          document(r, corpus)
              .forEach(
                  (word, count) ->
                      buffer.add(new Tuple2<>(word, new Tuple3<>(docId, word, (double) count))));
        }
        return next < buffer.size();
      }

      @Override
      public Tuple2<Object, Tuple3<Object, Object, Object>> next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        return buffer.get(next++);
      }
    };
  }

  /** A document of 50 to 199 words as a bag of words: word rank to its count. */
  public static TreeMap<Integer, Integer> document(Random r, TextCorpus corpus) {
    TreeMap<Integer, Integer> bag = new TreeMap<>();
    for (int i = 50 + r.nextInt(150); i > 0; i--) {
      bag.merge(corpus.sampleRank(r), 1, Integer::sum);
    }
    return bag;
  }

  private static <T> Iterator<T> generate(long count, Supplier<T> next) {
    return new Iterator<>() {
      long left = count;

      @Override
      public boolean hasNext() {
        return left > 0;
      }

      @Override
      public T next() {
        if (left-- <= 0) {
          throw new java.util.NoSuchElementException();
        }
        return next.get();
      }
    };
  }
}
