/* Per-thread detail of the last failed backend open, so Java can log why a library did not load. */
#include <stdarg.h>
#include <stdio.h>

#include "kae_backend.h"

static _Thread_local char last_error[512];

const char *kae_last_error(void) { return last_error; }

void kae_set_last_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof(last_error), fmt, ap);
  va_end(ap);
}
