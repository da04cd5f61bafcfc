// libheif is loaded with dlopen at the first HEIC file, not linked: it brings its codecs (x265,
// libde265, dav1d, aom, ...), and resolving them at every start of `tessera` cost about 1.8 MB
// of resident memory in commands that never see a HEIC. Its header gives the types; each
// function is looked up in it by name, with its declared type.
#include "tessera_heif.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/auxv.h>

#define TESSERA_HEIF_SONAME "libheif.so.1"

#define TESSERA_HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) X(heif_context_free) X(heif_context_set_maximum_image_size_limit) \
    X(heif_context_read_from_memory_without_copy) X(heif_context_get_primary_image_handle) \
    X(heif_image_handle_get_width) X(heif_image_handle_get_height) X(heif_image_handle_has_alpha_channel) \
    X(heif_image_handle_get_raw_color_profile_size) X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_luma_bits_per_pixel) X(heif_image_handle_release) X(heif_decode_image) \
    X(heif_image_get_width) X(heif_image_get_height) X(heif_image_get_plane_readonly) X(heif_image_release)

#define TESSERA_HEIF_POINTER(name) __typeof__(&name) name;
static struct {
    TESSERA_HEIF_FUNCTIONS(TESSERA_HEIF_POINTER)
    int loaded;
    char failure[256];
} heif;
static pthread_once_t heif_once = PTHREAD_ONCE_INIT;

// A statically linked tessera (the remote worker, scripts/build-static-worker.sh) has no dynamic
// loader: glibc's static dlopen would map a second libc with libheif and its dependencies, which is
// not safe, and the worker's sandbox holds no shared library anyway. Such a program has no
// PT_INTERP among its program headers; every dynamically linked one has.
static int heif_statically_linked(void) {
    const ElfW(Phdr) *header = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    size_t count = getauxval(AT_PHNUM);
    for (size_t index = 0; header && index < count; index++) {
        if (header[index].p_type == PT_INTERP) return 0;
    }
    return 1;
}

static void load_heif(void) {
    if (heif_statically_linked()) {
        snprintf(heif.failure, sizeof heif.failure,
                 "libheif cannot be loaded by a statically linked tessera (the remote worker build): HEIC/HEIF is not available");
        return;
    }
    void *library = dlopen(TESSERA_HEIF_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(heif.failure, sizeof heif.failure, "libheif could not be loaded (%s; Debian: libheif1)",
                 reason ? reason : TESSERA_HEIF_SONAME);
        return;
    }
#define TESSERA_HEIF_RESOLVE(name) \
    if (!(*(void **)&heif.name = dlsym(library, #name))) { \
        snprintf(heif.failure, sizeof heif.failure, "libheif has no %s (libheif 1.12 or later is needed)", #name); \
        return; \
    }
    TESSERA_HEIF_FUNCTIONS(TESSERA_HEIF_RESOLVE)
    heif.loaded = 1;
}

int tessera_heif_load(char *message, size_t size) {
    pthread_once(&heif_once, load_heif);
    if (!heif.loaded && message && size > 0) snprintf(message, size, "%s", heif.failure);
    return heif.loaded;
}

struct heif_context *tessera_heif_context_alloc(void) { return heif.heif_context_alloc(); }
void tessera_heif_context_free(struct heif_context *context) { heif.heif_context_free(context); }
void tessera_heif_context_set_maximum_image_size_limit(struct heif_context *context, int maximum_width) {
    heif.heif_context_set_maximum_image_size_limit(context, maximum_width);
}
struct heif_error tessera_heif_context_read_from_memory_without_copy(struct heif_context *context, const void *memory,
                                                                     size_t size, const struct heif_reading_options *options) {
    return heif.heif_context_read_from_memory_without_copy(context, memory, size, options);
}
struct heif_error tessera_heif_context_get_primary_image_handle(struct heif_context *context,
                                                                struct heif_image_handle **handle) {
    return heif.heif_context_get_primary_image_handle(context, handle);
}
int tessera_heif_image_handle_get_width(const struct heif_image_handle *handle) {
    return heif.heif_image_handle_get_width(handle);
}
int tessera_heif_image_handle_get_height(const struct heif_image_handle *handle) {
    return heif.heif_image_handle_get_height(handle);
}
int tessera_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle) {
    return heif.heif_image_handle_has_alpha_channel(handle);
}
size_t tessera_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle) {
    return heif.heif_image_handle_get_raw_color_profile_size(handle);
}
struct heif_error tessera_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *out_data) {
    return heif.heif_image_handle_get_raw_color_profile(handle, out_data);
}
int tessera_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *handle) {
    return heif.heif_image_handle_get_luma_bits_per_pixel(handle);
}
void tessera_heif_image_handle_release(const struct heif_image_handle *handle) { heif.heif_image_handle_release(handle); }
struct heif_error tessera_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **out_image,
                                            enum heif_colorspace colorspace, enum heif_chroma chroma,
                                            const struct heif_decoding_options *options) {
    return heif.heif_decode_image(handle, out_image, colorspace, chroma, options);
}
int tessera_heif_image_get_width(const struct heif_image *image, enum heif_channel channel) {
    return heif.heif_image_get_width(image, channel);
}
int tessera_heif_image_get_height(const struct heif_image *image, enum heif_channel channel) {
    return heif.heif_image_get_height(image, channel);
}
const uint8_t *tessera_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel,
                                                     int *out_stride) {
    return heif.heif_image_get_plane_readonly(image, channel, out_stride);
}
void tessera_heif_image_release(const struct heif_image *image) { heif.heif_image_release(image); }
