/*
 * zlib's own throughput on a data file, block by block, the way the block codec drives it
 * (one deflateInit, deflateReset + one deflate(Z_FINISH) per block; same for inflate), so the
 * Java benchmark can show what JNI and the Java side add. Prints one line:
 *   <compress MB/s> <decompress MB/s> <stored bytes>
 * Usage: zlib_throughput <file> <block size> <level> <repetitions>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s <file> <block size> <level> <repetitions>\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "rb");
  if (f == NULL) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *data = malloc(n);
  if (data == NULL || fread(data, 1, n, f) != (size_t)n) { fprintf(stderr, "read failed\n"); return 1; }
  fclose(f);
  long block = atol(argv[2]);
  int level = atoi(argv[3]);
  int reps = atoi(argv[4]);
  long blocks = (n + block - 1) / block;
  uLong bound = compressBound(block);
  unsigned char *out = malloc(blocks * bound);
  long *sizes = malloc(blocks * sizeof(long));
  unsigned char *back = malloc(block);
  /* One extra pass first: warm-up, and the only one that checks the output (untimed). */
  double *ct = malloc((reps + 1) * sizeof(double)), *dt = malloc((reps + 1) * sizeof(double));
  z_stream d, i;
  memset(&d, 0, sizeof d);
  memset(&i, 0, sizeof i);
  if (deflateInit2(&d, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK ||
      inflateInit2(&i, 15) != Z_OK) {
    fprintf(stderr, "zlib init failed\n");
    return 1;
  }
  long stored = 0;
  for (int r = 0; r <= reps; r++) {
    double t0 = now();
    stored = 0;
    for (long b = 0; b < blocks; b++) {
      long len = (b == blocks - 1) ? n - b * block : block;
      deflateReset(&d);
      d.next_in = data + b * block;
      d.avail_in = len;
      d.next_out = out + b * bound;
      d.avail_out = bound;
      if (deflate(&d, Z_FINISH) != Z_STREAM_END) { fprintf(stderr, "deflate failed\n"); return 1; }
      sizes[b] = bound - d.avail_out;
      stored += sizes[b];
    }
    ct[r] = now() - t0;
    t0 = now();
    for (long b = 0; b < blocks; b++) {
      long len = (b == blocks - 1) ? n - b * block : block;
      inflateReset(&i);
      i.next_in = out + b * bound;
      i.avail_in = sizes[b];
      i.next_out = back;
      i.avail_out = len;
      if (inflate(&i, Z_FINISH) != Z_STREAM_END ||
          (r == 0 && memcmp(back, data + b * block, len) != 0)) {
        fprintf(stderr, "inflate failed\n");
        return 1;
      }
    }
    dt[r] = now() - t0;
  }
  qsort(ct + 1, reps, sizeof(double), cmp);
  qsort(dt + 1, reps, sizeof(double), cmp);
  double mb = n / 1e6;
  printf("%.1f %.1f %ld\n", mb / ct[1 + reps / 2], mb / dt[1 + reps / 2], stored);
  return 0;
}
