/* Behaves like KAE builds that abort the process on a CPU without the accelerator: if a test ever
 * loads it, the test JVM dies. The hardware check must keep it from being loaded on this host. */
#include <stdlib.h>
__attribute__((constructor)) static void die(void) { abort(); }
int deflate(void) { return 0; }
