// SVG through librsvg onto a cairo image surface.
//
// The handle is made from a memory stream with no base file: librsvg resolves every href
// (images, <use> of other files, CSS @import, XInclude) against the base file, so without one it
// refuses to load anything but data: URLs and fragments of the document itself. That, not the
// Swift pre-scan, is what keeps a hostile SVG from reading a file or touching the network.
// No RSVG_HANDLE_FLAG_UNLIMITED: librsvg's XML limits (entity expansion, element counts) stay on.
#include "tessera_svg.h"
#include <librsvg/rsvg.h>
#include <cairo.h>
#include <stdio.h>
#include <string.h>

static void set_message(char *message, size_t size, const char *prefix, const GError *error) {
    if (!message || size == 0) return;
    snprintf(message, size, "%s%s", prefix, error && error->message ? error->message : "");
}

static RsvgHandle *open_handle(const uint8_t *data, size_t length, char *message, size_t size) {
    GInputStream *stream = g_memory_input_stream_new_from_data(data, (gssize)length, NULL);
    GError *error = NULL;
    RsvgHandle *handle = rsvg_handle_new_from_stream_sync(stream, NULL, RSVG_HANDLE_FLAGS_NONE, NULL, &error);
    g_object_unref(stream);
    if (!handle) {
        set_message(message, size, "librsvg cannot read it: ", error);
        if (error) g_error_free(error);
        return NULL;
    }
    // CSS units (in, cm, pt) resolve at 96 per inch, so one SVG px is one CSS px: one point.
    rsvg_handle_set_dpi(handle, 96.0);
    return handle;
}

int tessera_svg_measure(const uint8_t *data, size_t length, double *width, double *height,
                        char *message, size_t message_size) {
    RsvgHandle *handle = open_handle(data, length, message, message_size);
    if (!handle) return -1;
    gdouble w = 0, h = 0;
    int status = 0;
    if (!rsvg_handle_get_intrinsic_size_in_pixels(handle, &w, &h)) {
        // width/height missing or in percent: the viewBox gives the size, as Xcode takes it.
        gboolean has_width, has_height, has_viewbox;
        RsvgLength lw, lh;
        RsvgRectangle viewbox;
        rsvg_handle_get_intrinsic_dimensions(handle, &has_width, &lw, &has_height, &lh, &has_viewbox, &viewbox);
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
    g_object_unref(handle);
    return status;
}

int tessera_svg_render(const uint8_t *data, size_t length, uint8_t *rgba, int width, int height,
                       char *message, size_t message_size) {
    RsvgHandle *handle = open_handle(data, length, message, message_size);
    if (!handle) return -1;
    int stride = width * 4;
    memset(rgba, 0, (size_t)stride * (size_t)height);
    cairo_surface_t *surface = cairo_image_surface_create_for_data(rgba, CAIRO_FORMAT_ARGB32, width, height, stride);
    cairo_t *cr = cairo_create(surface);
    RsvgRectangle viewport = {0, 0, width, height};
    GError *error = NULL;
    int status = 0;
    if (!rsvg_handle_render_document(handle, cr, &viewport, &error)) {
        set_message(message, message_size, "librsvg cannot render it: ", error);
        if (error) g_error_free(error);
        status = -1;
    } else if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "cairo: %s", cairo_status_to_string(cairo_status(cr)));
        status = -1;
    }
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    cairo_surface_destroy(surface);
    g_object_unref(handle);
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

const char *tessera_svg_library_version(void) {
    return "librsvg " LIBRSVG_VERSION;
}
