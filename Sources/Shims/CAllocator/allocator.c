#include "c_allocator.h"

// Any C library header defines __GLIBC__ on glibc; test it only after one.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

int tessera_set_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int tessera_set_trim_threshold(int bytes) {
    return mallopt(M_TRIM_THRESHOLD, bytes);
}

int tessera_trim_heap(void) {
    return malloc_trim(0);
}
#else
int tessera_set_mmap_threshold(int bytes) {
    (void)bytes;
    return 0;
}

int tessera_set_trim_threshold(int bytes) {
    (void)bytes;
    return 0;
}

int tessera_trim_heap(void) {
    return -1;
}
#endif
