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
 * Error codes returned by libkaeshuffle. The C code never throws: every entry point returns
 * a value >= 0 on success and one of these negative codes on failure. The numbers are shared
 * with io.github.kaeshuffle.codec.NativeError and are never renumbered.
 */
#ifndef KAE_ERRORS_H
#define KAE_ERRORS_H

#define KAE_OK 0
#define KAE_E_ARG (-1)            /* an argument is out of range (null, negative, past the end) */
#define KAE_E_NOMEM (-2)          /* memory allocation failed */
#define KAE_E_DST_TOO_SMALL (-3)  /* the compressed block did not fit in the destination */
#define KAE_E_CORRUPT (-4)        /* the input is not a valid compressed block */
#define KAE_E_LENGTH (-5)         /* the block decompresses to a length other than expected */
#define KAE_E_TRAILING (-6)       /* the input has bytes after the end of the compressed block */
#define KAE_E_LIB_OPEN (-7)       /* dlopen of a codec library failed */
#define KAE_E_LIB_SYMBOL (-8)     /* a codec library lacks a required symbol */
#define KAE_E_LIB_INIT (-9)       /* a codec library failed its first initialisation */
#define KAE_E_INTERNAL (-10)      /* a codec library returned something it never should */
#define KAE_E_STATE (-11)         /* a handle is null, freed, or of the wrong kind */

#endif
