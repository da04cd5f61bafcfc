// libimagequant (GPL-3.0-or-later): linked only when Tessera is built with the LossyPalette
// trait (docs/png-encoding.md says what that implies).
#include <libimagequant.h>
#include <dlfcn.h>

// Debian's libimagequant runs its k-means and remapping loops under OpenMP, whose reductions add
// floating-point sums in an order that depends on the threads. Tessera calls this on the encoding
// thread before each quantisation so those loops run on one thread and the palette and indices
// are the same on every run and machine. omp_set_num_threads is found at run time in the libgomp
// that libimagequant already loaded, so nothing else is linked.
static inline void tessera_liq_single_thread(void) {
#ifdef RTLD_DEFAULT
    void *handle = RTLD_DEFAULT;
#else
    void *handle = 0;
#endif
    void (*set_threads)(int) = (void (*)(int))dlsym(handle, "omp_set_num_threads");
    if (set_threads) set_threads(1);
}
