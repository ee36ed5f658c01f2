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
/* Loads a built libkaeshuffle with dlopen and checks its exports: JNI_OnLoad and the JNI entry
 * points are there, internal symbols are not. Run on the library's own architecture (natively or
 * under qemu-user). Usage: load_check <path of libkaeshuffle-*.so> */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("load check: 0 passed, 1 failed (%s)\n", dlerror());
    return 1;
  }
  int passed = 0, failed = 0;
  const char *must[] = {"JNI_OnLoad", "Java_io_github_kaeshuffle_codec_NativeLib_compress",
                        "Java_io_github_kaeshuffle_codec_NativeLib_decompress"};
  const char *mustnot[] = {"kae_zlib_open", "kae_libdeflate_open", "kae_last_error"};
  for (int i = 0; i < 3; i++) dlsym(h, must[i]) ? passed++ : (failed++, printf("missing %s\n", must[i]));
  for (int i = 0; i < 3; i++) dlsym(h, mustnot[i]) ? (failed++, printf("exported %s\n", mustnot[i])) : passed++;
  printf("load check: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
