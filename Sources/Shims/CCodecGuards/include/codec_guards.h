#ifndef TESSERA_CODEC_GUARDS_H
#define TESSERA_CODEC_GUARDS_H

/*
 * Safe entry points into libpng and libjpeg-turbo.
 *
 * Both libraries report fatal errors by longjmp. A longjmp across Swift frames skips Swift's
 * cleanup and corrupts its state, so every call that can fail runs inside a C function that has
 * set the jump buffer itself. Each function returns 0 on success or -1 on failure, with the
 * library's own message copied into `message` (at most TESSERA_MESSAGE_SIZE bytes).
 */

#include <stddef.h>
#include <stdint.h>

#define TESSERA_MESSAGE_SIZE 256

/* A growable output buffer that the encoders fill; free it with tessera_buffer_free. */
typedef struct {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
} tessera_buffer;

void tessera_buffer_free(tessera_buffer *buffer);

/* ---------- PNG decoding ---------- */

typedef struct tessera_png_reader tessera_png_reader;

typedef struct {
    uint32_t width;
    uint32_t height;
    int bit_depth;
    int color_type;          /* PNG_COLOR_TYPE_* */
    int interlaced;          /* 1 for Adam7 */
    int has_transparency;    /* alpha channel or tRNS */
    int has_srgb_chunk;
    const uint8_t *icc;      /* points into the reader; valid until close */
    size_t icc_length;
    char icc_name[80];
    const uint8_t *exif;     /* eXIf payload, valid until close */
    size_t exif_length;
    int warning_count;
    char first_warning[TESSERA_MESSAGE_SIZE];
} tessera_png_info;

/* Reads the signature and every chunk up to the image data. Input is either `data` (which must
   outlive the reader) or, when `data` is NULL, the open file descriptor `fd`, read as needed so a
   huge file is never held in memory (the reader closes nothing; the caller owns `fd`). */
int tessera_png_open(const uint8_t *data, size_t size, int fd, tessera_png_reader **reader, tessera_png_info *info,
                     char *message);
/* For a decoder that reads the image data itself (Decoding's PNGRowReader), after tessera_png_open:
   the first IDAT's length, and the bytes read ahead past its header (for memory input, the rest of
   the input); a file descriptor continues after them. Returns -1 when libpng did not stop at an IDAT. */
int tessera_png_image_data(const tessera_png_reader *reader, const uint8_t **pending, size_t *pending_length,
                           uint32_t *idat_length);
/* The tRNS colour of a gray or RGB image (samples as stored; gray in all three): 1, or 0 when it has none. */
int tessera_png_transparent_color(const tessera_png_reader *reader, uint16_t samples[3]);
/* Sets the transforms to 8-bit RGBA (palette expanded, tRNS to alpha, gray to RGB, 16-bit scaled
   with rounding) and prepares interlace handling. */
int tessera_png_start_rgba8(tessera_png_reader *reader, char *message);
/* Reads the next `count` rows of a non-interlaced image into `rows`, `stride` bytes apart. */
int tessera_png_read_rows(tessera_png_reader *reader, uint8_t *rows, size_t stride, uint32_t count,
                          char *message);
/* Reads the whole image (any interlace) into `pixels`, `stride` bytes a row. */
int tessera_png_read_image(tessera_png_reader *reader, uint8_t *pixels, size_t stride, char *message);
/* Reads the chunks after the image data, so a corrupt or truncated tail is reported. */
int tessera_png_finish(tessera_png_reader *reader, char *message);
void tessera_png_close(tessera_png_reader *reader);

/* ---------- JPEG decoding ---------- */

typedef struct tessera_jpeg_reader tessera_jpeg_reader;

typedef struct {
    uint32_t width;
    uint32_t height;
    int components;          /* in the file: 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK */
    int color_space;         /* J_COLOR_SPACE of the file */
    int progressive;
    size_t coefficient_bytes; /* DCT coefficients of the whole image (libjpeg buffers them for progressive files) */
    int adobe_inverted;      /* Adobe APP14 marker present: CMYK stored inverted */
    const uint8_t *icc;      /* assembled ICC profile, valid until close */
    size_t icc_length;
    const uint8_t *exif;     /* APP1 Exif payload after "Exif\0\0", valid until close */
    size_t exif_length;
    int warning_count;
    char first_warning[TESSERA_MESSAGE_SIZE];
} tessera_jpeg_info;

/* Input is `data`, or when `data` is NULL the file descriptor `fd`, streamed (the caller owns `fd`). */
int tessera_jpeg_open(const uint8_t *data, size_t size, int fd, tessera_jpeg_reader **reader, tessera_jpeg_info *info,
                      char *message);
/* Starts decompression to 8-bit RGBA at 1/scale_denominator size (1, 2, 4 or 8); reports the
   output size, which libjpeg rounds up. */
int tessera_jpeg_start_rgba8(tessera_jpeg_reader *reader, int scale_denominator, uint32_t *output_width,
                             uint32_t *output_height, char *message);
/* Reads up to `count` rows; `rows_read` tells how many arrived. */
int tessera_jpeg_read_rows(tessera_jpeg_reader *reader, uint8_t *rows, size_t stride, uint32_t count,
                           uint32_t *rows_read, char *message);
int tessera_jpeg_finish(tessera_jpeg_reader *reader, char *message);
/* Warnings seen so far (updated while reading rows). */
int tessera_jpeg_warning_count(const tessera_jpeg_reader *reader);
void tessera_jpeg_close(tessera_jpeg_reader *reader);

/* ---------- JPEG encoding ---------- */

/* components: 1 gray, 3 RGB, 4 RGBA (alpha ignored). */
int tessera_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components,
                        int quality, int progressive, int optimize_coding, int chroma_444, const uint8_t *icc,
                        size_t icc_length, tessera_buffer *output, char *message);

/* The same file made from rows given a few at a time, so the image need never be whole:
   start, write every row in order, finish (which hands over the file), then close. */
typedef struct tessera_jpeg_writer tessera_jpeg_writer;

int tessera_jpeg_writer_start(uint32_t width, uint32_t height, int components, int quality, int progressive,
                              int optimize_coding, int chroma_444, const uint8_t *icc, size_t icc_length,
                              tessera_jpeg_writer **writer, char *message);
int tessera_jpeg_writer_rows(tessera_jpeg_writer *writer, const uint8_t *rows, size_t stride, uint32_t count,
                             char *message);
int tessera_jpeg_writer_finish(tessera_jpeg_writer *writer, tessera_buffer *output, char *message);
void tessera_jpeg_writer_close(tessera_jpeg_writer *writer);

#endif
