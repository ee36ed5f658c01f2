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
#include "kae_library.h"

#include <stddef.h>

#include "kae_backend.h"
#include "kae_dl.h"
#include "kae_errors.h"

void *kae_library_open(const char *path, int *err) {
  dlerror();
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (handle == NULL) {
    const char *why = dlerror();
    kae_set_last_error("%s", why != NULL ? why : path);
    *err = KAE_E_LIB_OPEN;
  }
  return handle;
}

int kae_library_bind(void *handle, const char *path, const kae_symbol *symbols, int count) {
  for (int i = 0; i < count; i++) {
    *symbols[i].slot = dlsym(handle, symbols[i].name);
    if (*symbols[i].slot == NULL) {
      kae_set_last_error("%s has no symbol %s", path, symbols[i].name);
      return KAE_E_LIB_SYMBOL;
    }
  }
  return KAE_OK;
}
