#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include "codec_guards.h"

typedef struct {
    tessera_buffer *output;
    char message[TESSERA_MESSAGE_SIZE];
} writer_state;

static void on_error(png_structp png, png_const_charp text) {
    writer_state *state = png_get_error_ptr(png);
    strncpy(state->message, text ? text : "unknown error", TESSERA_MESSAGE_SIZE - 1);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void write_to_memory(png_structp png, png_bytep bytes, size_t length) {
    writer_state *state = png_get_io_ptr(png);
    tessera_buffer *buffer = state->output;
    if (buffer->length + length > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 65536;
        while (capacity < buffer->length + length) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (grown == NULL) png_error(png, "out of memory while encoding");
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
}

static void flush_nothing(png_structp png) { (void)png; }

int tessera_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int color_type,
                       int compression_level, const uint8_t *icc, size_t icc_length, const char *icc_name,
                       tessera_buffer *output, char *message) {
    writer_state state = { .output = output };
    memset(output, 0, sizeof *output);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    if (png == NULL) {
        strncpy(message, "cannot create a libpng writer", TESSERA_MESSAGE_SIZE - 1);
        return -1;
    }
    png_infop info = png_create_info_struct(png);
    /* volatile: modified between setjmp and a possible longjmp. */
    png_bytep *volatile row_pointers = NULL;
    if (info == NULL || setjmp(png_jmpbuf(png))) {
        strncpy(message, info ? state.message : "cannot create PNG info", TESSERA_MESSAGE_SIZE - 1);
        free(row_pointers);
        png_destroy_write_struct(&png, &info);
        tessera_buffer_free(output);
        return -1;
    }
    png_set_write_fn(png, &state, write_to_memory, flush_nothing);
    /* Profiles are carried through as given: libpng's list of "known incorrect" sRGB profiles
       would otherwise refuse ones that cameras and editors really write. */
#ifdef PNG_SKIP_sRGB_CHECK_PROFILE
    png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
#endif
    png_set_benign_errors(png, 1);
    png_set_compression_level(png, compression_level);
    png_set_IHDR(png, info, width, height, 8, color_type, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (icc != NULL && icc_length > 0) {
        png_set_iCCP(png, info, icc_name && icc_name[0] ? icc_name : "ICC Profile", PNG_COMPRESSION_TYPE_BASE,
                     icc, (png_uint_32)icc_length);
    }
    png_write_info(png, info);
    row_pointers = malloc(sizeof(png_bytep) * height);
    if (row_pointers == NULL) png_error(png, "out of memory");
    for (uint32_t y = 0; y < height; y++) row_pointers[y] = (png_bytep)(pixels + (size_t)y * stride);
    png_write_image(png, row_pointers);
    png_write_end(png, NULL);
    free(row_pointers);
    png_destroy_write_struct(&png, &info);
    return 0;
}
