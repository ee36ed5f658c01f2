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
#ifndef KAE_DL_H
#define KAE_DL_H

/*
 * dlopen and its siblings, bound to the first version of each that glibc defines on this
 * architecture. glibc 2.34 moved them from libdl into libc under a new version, GLIBC_2.34, and a
 * library linked on a newer glibc asks for that version by default: it would not load on the
 * glibc of openEuler 20.03 or Kylin V10 (2.28), or CentOS 7 (2.17), where KAEzip is most often
 * found. Every glibc still defines the old versions (in libdl.so.2 before 2.34, in libc after),
 * and build.sh links libdl.so.2 so that older ones load it. The symbol floor is checked by
 * GlibcFloorTest.
 */
#include <dlfcn.h>

#if defined(__GLIBC__)
#if defined(__x86_64__)
#define KAE_DL_VERSION "GLIBC_2.2.5"
#elif defined(__aarch64__)
#define KAE_DL_VERSION "GLIBC_2.17"
#endif
#endif

#ifdef KAE_DL_VERSION
__asm__(".symver dlopen,dlopen@" KAE_DL_VERSION);
__asm__(".symver dlsym,dlsym@" KAE_DL_VERSION);
__asm__(".symver dlerror,dlerror@" KAE_DL_VERSION);
__asm__(".symver dlclose,dlclose@" KAE_DL_VERSION);
#endif

#endif
