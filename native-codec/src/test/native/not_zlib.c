/* A library that loads fine but is not zlib-compatible: the kaezip backend must reject it. */
int not_zlib_at_all(void) { return 42; }
