// SVG through librsvg onto a cairo image surface.
//
// The handle is made from a memory stream with no base file: librsvg resolves every href
// (images, <use> of other files, CSS @import, XInclude) against the base file, so without one it
// refuses to load anything but data: URLs and fragments of the document itself. That, not the
// Swift pre-scan, is what keeps a hostile SVG from reading a file or touching the network.
// No RSVG_HANDLE_FLAG_UNLIMITED: librsvg's XML limits (entity expansion, element counts) stay on.
//
// librsvg is loaded with dlopen the first time an SVG is met, not linked: it brings 49 shared
// libraries (cairo, pango, glib, fontconfig, ...), and resolving them at every start of
// `tessera` was about half of its start-up, in commands that never see an SVG. So this file
// declares the little of librsvg's, GLib's and cairo's stable C API it calls (librsvg 2.52+),
// rather than including their headers, whose pkg-config entry would link them all.
#include "tessera_svg.h"
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <string.h>
#include <sys/types.h>

typedef int gboolean;
typedef struct RsvgHandle RsvgHandle;
typedef struct GInputStream GInputStream;
typedef struct { uint32_t domain; int code; char *message; } GError;
typedef struct { double x, y, width, height; } RsvgRectangle;
typedef struct { double length; int unit; } RsvgLength;
typedef struct cairo_surface cairo_surface_t;
typedef struct cairo cairo_t;
enum { RSVG_HANDLE_FLAGS_NONE = 0, CAIRO_FORMAT_ARGB32 = 0, CAIRO_STATUS_SUCCESS = 0 };

#define TESSERA_RSVG_SONAME "librsvg-2.so.2"

// What is called, looked up in librsvg and the libraries it depends on (glib, gio, gobject, cairo).
static struct {
    GInputStream *(*g_memory_input_stream_new_from_data)(const void *data, ssize_t length, void (*destroy)(void *));
    void (*g_object_unref)(void *object);
    void (*g_error_free)(GError *error);
    RsvgHandle *(*rsvg_handle_new_from_stream_sync)(GInputStream *stream, void *base_file, int flags,
                                                    void *cancellable, GError **error);
    void (*rsvg_handle_set_dpi)(RsvgHandle *handle, double dpi);
    gboolean (*rsvg_handle_get_intrinsic_size_in_pixels)(RsvgHandle *handle, double *width, double *height);
    void (*rsvg_handle_get_intrinsic_dimensions)(RsvgHandle *handle, gboolean *has_width, RsvgLength *width,
                                                 gboolean *has_height, RsvgLength *height,
                                                 gboolean *has_viewbox, RsvgRectangle *viewbox);
    gboolean (*rsvg_handle_render_document)(RsvgHandle *handle, cairo_t *cr, const RsvgRectangle *viewport,
                                            GError **error);
    cairo_surface_t *(*cairo_image_surface_create_for_data)(unsigned char *data, int format, int width,
                                                            int height, int stride);
    cairo_t *(*cairo_create)(cairo_surface_t *target);
    int (*cairo_status)(cairo_t *cr);
    const char *(*cairo_status_to_string)(int status);
    void (*cairo_destroy)(cairo_t *cr);
    void (*cairo_surface_flush)(cairo_surface_t *surface);
    void (*cairo_surface_destroy)(cairo_surface_t *surface);
    const unsigned *rsvg_major_version, *rsvg_minor_version, *rsvg_micro_version;
    char failure[256];
} rsvg;
static pthread_once_t rsvg_once = PTHREAD_ONCE_INIT;

// A statically linked tessera (the remote worker, scripts/build-static-worker.sh) has no dynamic
// loader: glibc's static dlopen would map a second libc with librsvg and its dependencies, which is
// not safe, and the worker's sandbox holds no shared library anyway. Such a program has no
// PT_INTERP among its program headers; every dynamically linked one has.
static int rsvg_statically_linked(void) {
    const ElfW(Phdr) *header = (const ElfW(Phdr) *)getauxval(AT_PHDR);
    size_t count = getauxval(AT_PHNUM);
    for (size_t index = 0; header && index < count; index++) {
        if (header[index].p_type == PT_INTERP) return 0;
    }
    return 1;
}

static void load_rsvg(void) {
    if (rsvg_statically_linked()) {
        snprintf(rsvg.failure, sizeof rsvg.failure,
                 "librsvg cannot be loaded by a statically linked tessera (the remote worker build): SVG is not available");
        return;
    }
    void *library = dlopen(TESSERA_RSVG_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(rsvg.failure, sizeof rsvg.failure, "librsvg could not be loaded (%s; Debian: librsvg2-2)",
                 reason ? reason : TESSERA_RSVG_SONAME);
        return;
    }
#define TESSERA_RSVG_LOAD(name) \
    if (!(*(void **)&rsvg.name = dlsym(library, #name))) { \
        snprintf(rsvg.failure, sizeof rsvg.failure, "librsvg has no %s (librsvg 2.52 or later is needed)", #name); \
        return; \
    }
    TESSERA_RSVG_LOAD(g_memory_input_stream_new_from_data) TESSERA_RSVG_LOAD(g_object_unref)
    TESSERA_RSVG_LOAD(g_error_free) TESSERA_RSVG_LOAD(rsvg_handle_new_from_stream_sync)
    TESSERA_RSVG_LOAD(rsvg_handle_set_dpi) TESSERA_RSVG_LOAD(rsvg_handle_get_intrinsic_size_in_pixels)
    TESSERA_RSVG_LOAD(rsvg_handle_get_intrinsic_dimensions) TESSERA_RSVG_LOAD(rsvg_handle_render_document)
    TESSERA_RSVG_LOAD(cairo_image_surface_create_for_data) TESSERA_RSVG_LOAD(cairo_create)
    TESSERA_RSVG_LOAD(cairo_status) TESSERA_RSVG_LOAD(cairo_status_to_string) TESSERA_RSVG_LOAD(cairo_destroy)
    TESSERA_RSVG_LOAD(cairo_surface_flush) TESSERA_RSVG_LOAD(cairo_surface_destroy)
    TESSERA_RSVG_LOAD(rsvg_major_version) TESSERA_RSVG_LOAD(rsvg_minor_version) TESSERA_RSVG_LOAD(rsvg_micro_version)
#undef TESSERA_RSVG_LOAD
}

/// 0 once librsvg is loaded; -1 with the reason in `message` when it cannot be.
static int need_rsvg(char *message, size_t size) {
    pthread_once(&rsvg_once, load_rsvg);
    if (rsvg.failure[0] == 0) return 0;
    if (message && size > 0) snprintf(message, size, "%s", rsvg.failure);
    return -1;
}

static void set_message(char *message, size_t size, const char *prefix, const GError *error) {
    if (!message || size == 0) return;
    snprintf(message, size, "%s%s", prefix, error && error->message ? error->message : "");
}

static RsvgHandle *open_handle(const uint8_t *data, size_t length, char *message, size_t size) {
    if (need_rsvg(message, size) != 0) return NULL;
    GInputStream *stream = rsvg.g_memory_input_stream_new_from_data(data, (ssize_t)length, NULL);
    GError *error = NULL;
    RsvgHandle *handle = rsvg.rsvg_handle_new_from_stream_sync(stream, NULL, RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    rsvg.g_object_unref(stream);
    if (!handle) {
        set_message(message, size, "librsvg cannot read it: ", error);
        if (error) rsvg.g_error_free(error);
        return NULL;
    }
    // CSS units (in, cm, pt) resolve at 96 per inch, so one SVG px is one CSS px: one point.
    rsvg.rsvg_handle_set_dpi(handle, 96.0);
    return handle;
}

int tessera_svg_measure(const uint8_t *data, size_t length, double *width, double *height,
                        char *message, size_t message_size) {
    RsvgHandle *handle = open_handle(data, length, message, message_size);
    if (!handle) return -1;
    double w = 0, h = 0;
    int status = 0;
    if (!rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h)) {
        // width/height missing or in percent: the viewBox gives the size, as Xcode takes it.
        gboolean has_width, has_height, has_viewbox;
        RsvgLength lw, lh;
        RsvgRectangle viewbox;
        rsvg.rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &lw, &has_height, &lh, &has_viewbox, &viewbox);
        if (has_viewbox) {
            w = viewbox.width;
            h = viewbox.height;
        } else {
            snprintf(message, message_size, "the SVG has neither an absolute width and height nor a viewBox");
            status = -1;
        }
    }
    *width = w;
    *height = h;
    rsvg.g_object_unref(handle);
    return status;
}

int tessera_svg_render(const uint8_t *data, size_t length, uint8_t *rgba, int width, int height,
                       char *message, size_t message_size) {
    RsvgHandle *handle = open_handle(data, length, message, message_size);
    if (!handle) return -1;
    int stride = width * 4;
    memset(rgba, 0, (size_t)stride * (size_t)height);
    cairo_surface_t *surface = rsvg.cairo_image_surface_create_for_data(rgba, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_t *cr = rsvg.cairo_create(surface);
    RsvgRectangle viewport = {0, 0, width, height};
    GError *error = NULL;
    int status = 0;
    if (!rsvg.rsvg_handle_render_document(handle, cr, &viewport, &error)) {
        set_message(message, message_size, "librsvg cannot render it: ", error);
        if (error) rsvg.g_error_free(error);
        status = -1;
    } else if (rsvg.cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo: %s", rsvg.cairo_status_to_string(rsvg.cairo_status(cr)));
        status = -1;
    }
    rsvg.cairo_destroy(cr);
    rsvg.cairo_surface_flush(surface);
    rsvg.cairo_surface_destroy(surface);
    rsvg.g_object_unref(handle);
    if (status != 0) return status;
    // cairo's ARGB32 is premultiplied, native-endian 32-bit: B, G, R, A bytes on little-endian
    // machines. Tessera's bitmaps are straight RGBA, as the decoders return them.
    for (size_t i = 0, n = (size_t)width * (size_t)height; i < n; i++) {
        uint8_t *p = rgba + i * 4;
        uint32_t pixel;
        memcpy(&pixel, p, 4);
        uint32_t a = pixel >> 24, r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;
        if (a != 0 && a != 255) {
            r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a;
            if (r > 255) r = 255;
            if (g > 255) g = 255;
            if (b > 255) b = 255;
        }
        p[0] = (uint8_t)r; p[1] = (uint8_t)g; p[2] = (uint8_t)b; p[3] = (uint8_t)a;
    }
    return 0;
}

static char rsvg_version[64];

static void format_version(void) {
    pthread_once(&rsvg_once, load_rsvg);
    if (rsvg_statically_linked()) {
        snprintf(rsvg_version, sizeof rsvg_version, "librsvg: none (a static tessera loads no library: no SVG)");
    } else if (rsvg.failure[0] != 0) {
        snprintf(rsvg_version, sizeof rsvg_version, "librsvg (not installed)");
    } else {
        snprintf(rsvg_version, sizeof rsvg_version, "librsvg %u.%u.%u", *rsvg.rsvg_major_version,
                 *rsvg.rsvg_minor_version, *rsvg.rsvg_micro_version);
    }
}

const char *tessera_svg_library_version(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, format_version);
    return rsvg_version;
}
