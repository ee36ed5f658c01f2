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
/*
 * Opening a codec library at run time: dlopen with RTLD_LOCAL (its symbols never replace the
 * process's own, e.g. the system zlib) and binding its functions by name, each failure with the
 * error code and a detail for kae_last_error(). Shared by the zlib-API and libdeflate backends.
 */
#ifndef KAE_LIBRARY_H
#define KAE_LIBRARY_H

/* A function of the library to bind: its name and where its address goes. */
typedef struct {
  const char *name;
  void **slot;
} kae_symbol;

/* dlopen(path, RTLD_NOW | RTLD_LOCAL); NULL with *err = KAE_E_LIB_OPEN and dlerror's text. */
void *kae_library_open(const char *path, int *err);

/* Binds every symbol; KAE_OK, or KAE_E_LIB_SYMBOL naming the first one path lacks. */
int kae_library_bind(void *handle, const char *path, const kae_symbol *symbols, int count);

#endif
