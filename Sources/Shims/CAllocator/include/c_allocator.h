#ifndef TESSERA_C_ALLOCATOR_H
#define TESSERA_C_ALLOCATOR_H

/// Sets glibc's mmap threshold (M_MMAP_THRESHOLD) to `bytes`, which also stops glibc from
/// raising it as large blocks are freed. Returns 1 when set, 0 where the C library has no such
/// setting (not glibc).
int tessera_set_mmap_threshold(int bytes);

/// Sets glibc's trim threshold (M_TRIM_THRESHOLD): how much free memory at the top of a heap
/// glibc keeps before it gives pages back to the kernel. Returns 1 when set, 0 where the C
/// library has no such setting (not glibc).
int tessera_set_trim_threshold(int bytes);

/// Gives every heap's free pages back to the kernel (glibc's malloc_trim(0), which also releases
/// free pages inside a heap, not only at its top). Returns 1 when memory was released, 0 when
/// none was, -1 where the C library cannot (not glibc).
int tessera_trim_heap(void);

#endif
