#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <png.h>
#include "codec_guards.h"

struct tessera_png_reader {
    png_structp png;
    png_infop info;
    const uint8_t *data;
    size_t size;
    size_t offset;
    int fd;
    /* A read-ahead buffer for file input: libpng asks for a few bytes at a time. */
    uint8_t *buffer;
    size_t buffer_size;
    size_t buffered;
    size_t consumed;
    char message[TESSERA_MESSAGE_SIZE];
    tessera_png_info *public_info;
    /* The last 8-byte read: libpng reads each chunk's length and type that way, so after
       png_read_info this is the first IDAT's header. */
    uint8_t last_header[8];
};

static void copy_message(char *destination, const char *source) {
    if (destination == NULL) return;
    strncpy(destination, source ? source : "unknown error", TESSERA_MESSAGE_SIZE - 1);
    destination[TESSERA_MESSAGE_SIZE - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    struct tessera_png_reader *reader = png_get_error_ptr(png);
    copy_message(reader->message, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    struct tessera_png_reader *reader = png_get_error_ptr(png);
    tessera_png_info *info = reader->public_info;
    if (info == NULL) return;
    if (info->warning_count == 0) copy_message(info->first_warning, text);
    info->warning_count += 1;
}

static void read_from_memory(png_structp png, png_bytep destination, size_t length) {
    struct tessera_png_reader *reader = png_get_io_ptr(png);
    if (reader->size - reader->offset < length) {
        png_error(png, "unexpected end of file (the file is truncated)");
    }
    memcpy(destination, reader->data + reader->offset, length);
    reader->offset += length;
    if (length == 8) memcpy(reader->last_header, destination, 8);
}

#define READ_AHEAD (256 * 1024)

static void read_from_file(png_structp png, png_bytep destination, size_t length) {
    struct tessera_png_reader *reader = png_get_io_ptr(png);
    size_t done = 0;
    while (done < length) {
        if (reader->consumed == reader->buffered) {
            ssize_t count = read(reader->fd, reader->buffer, reader->buffer_size);
            if (count < 0 && errno == EINTR) continue;
            if (count < 0) png_error(png, "read error");
            if (count == 0) png_error(png, "unexpected end of file (the file is truncated)");
            reader->buffered = (size_t)count;
            reader->consumed = 0;
        }
        size_t take = reader->buffered - reader->consumed;
        if (take > length - done) take = length - done;
        memcpy(destination + done, reader->buffer + reader->consumed, take);
        reader->consumed += take;
        done += take;
    }
    if (length == 8) memcpy(reader->last_header, destination, 8);
}

int tessera_png_open(const uint8_t *data, size_t size, int fd, tessera_png_reader **out, tessera_png_info *info,
                     char *message) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    if (data != NULL && (size < 8 || png_sig_cmp(data, 0, 8) != 0)) {
        copy_message(message, "not a PNG signature");
        return -1;
    }
    struct tessera_png_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        copy_message(message, "out of memory");
        return -1;
    }
    reader->data = data;
    reader->size = size;
    reader->fd = fd;
    if (data == NULL) {
        /* READ_AHEAD, or the whole file when it is smaller: a tiny master's buffer is not
           256 KiB, made and freed for each of 100,000 of them (issue 54, item 14). */
        struct stat status;
        reader->buffer_size = READ_AHEAD;
        if (fstat(fd, &status) == 0 && status.st_size > 0 && (size_t)status.st_size < READ_AHEAD) {
            reader->buffer_size = (size_t)status.st_size;
        }
        reader->buffer = malloc(reader->buffer_size);
        if (reader->buffer == NULL) {
            free(reader);
            copy_message(message, "out of memory");
            return -1;
        }
    }
    reader->public_info = info;
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, reader, on_error, on_warning);
    if (reader->png == NULL) {
        free(reader->buffer);
        free(reader);
        copy_message(message, "cannot create a libpng reader");
        return -1;
    }
    reader->info = png_create_info_struct(reader->png);
    if (reader->info == NULL || setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, reader->message);
        tessera_png_close(reader);
        return -1;
    }
    /* Dimensions are checked by the caller against its own pixel limit before any allocation;
       libpng's own limit would only get in the way of a clear message. */
    png_set_user_limits(reader->png, 0x7fffffff, 0x7fffffff);
    png_set_read_fn(reader->png, reader, data != NULL ? read_from_memory : read_from_file);
    png_read_info(reader->png, reader->info);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(reader->png, reader->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    info->width = width;
    info->height = height;
    info->bit_depth = bit_depth;
    info->color_type = color_type;
    info->interlaced = interlace == PNG_INTERLACE_ADAM7;
    info->has_transparency = (color_type & PNG_COLOR_MASK_ALPHA) != 0 ||
                             png_get_valid(reader->png, reader->info, PNG_INFO_tRNS) != 0;
    int intent;
    info->has_srgb_chunk = png_get_sRGB(reader->png, reader->info, &intent) != 0;

    png_charp name;
    int compression;
    png_bytep profile;
    png_uint_32 profile_length;
    if (png_get_iCCP(reader->png, reader->info, &name, &compression, &profile, &profile_length) != 0) {
        info->icc = profile;
        info->icc_length = profile_length;
        strncpy(info->icc_name, name, sizeof info->icc_name - 1);
    }
#ifdef PNG_eXIf_SUPPORTED
    png_bytep exif;
    png_uint_32 exif_length;
    if (png_get_eXIf_1(reader->png, reader->info, &exif_length, &exif) != 0) {
        info->exif = exif;
        info->exif_length = exif_length;
    }
#endif
    *out = reader;
    return 0;
}

int tessera_png_image_data(const tessera_png_reader *reader, const uint8_t **pending, size_t *pending_length,
                           uint32_t *idat_length) {
    if (memcmp(reader->last_header + 4, "IDAT", 4) != 0) return -1;
    *idat_length = (uint32_t)reader->last_header[0] << 24 | (uint32_t)reader->last_header[1] << 16 |
                   (uint32_t)reader->last_header[2] << 8 | reader->last_header[3];
    if (reader->data != NULL) {
        *pending = reader->data + reader->offset;
        *pending_length = reader->size - reader->offset;
    } else {
        *pending = reader->buffer + reader->consumed;
        *pending_length = reader->buffered - reader->consumed;
    }
    return 0;
}

int tessera_png_transparent_color(const tessera_png_reader *reader, uint16_t samples[3]) {
    png_bytep alpha;
    int count;
    png_color_16p color;
    if (png_get_tRNS(reader->png, reader->info, &alpha, &count, &color) == 0 || color == NULL) return 0;
    int color_type = png_get_color_type(reader->png, reader->info);
    if (color_type == PNG_COLOR_TYPE_GRAY) {
        samples[0] = samples[1] = samples[2] = color->gray;
    } else if (color_type == PNG_COLOR_TYPE_RGB) {
        samples[0] = color->red;
        samples[1] = color->green;
        samples[2] = color->blue;
    } else {
        return 0;
    }
    return 1;
}

int tessera_png_start_rgba8(tessera_png_reader *reader, char *message) {
    if (setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, reader->message);
        return -1;
    }
    png_structp png = reader->png;
    int color_type = png_get_color_type(png, reader->info);
    int bit_depth = png_get_bit_depth(png, reader->info);
    if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, reader->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    /* Scale, not strip: (v * 255 + 32895) >> 16 rounds correctly where stripping truncates. */
    if (bit_depth == 16) png_set_scale_16(png);
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, reader->info);
    if (png_get_rowbytes(png, reader->info) != (size_t)png_get_image_width(png, reader->info) * 4) {
        copy_message(message, "libpng did not produce 8-bit RGBA rows");
        return -1;
    }
    return 0;
}

int tessera_png_read_rows(tessera_png_reader *reader, uint8_t *rows, size_t stride, uint32_t count,
                          char *message) {
    if (setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, reader->message);
        return -1;
    }
    for (uint32_t index = 0; index < count; index++) {
        png_read_row(reader->png, rows + (size_t)index * stride, NULL);
    }
    return 0;
}

int tessera_png_read_image(tessera_png_reader *reader, uint8_t *pixels, size_t stride, char *message) {
    uint32_t height = png_get_image_height(reader->png, reader->info);
    png_bytep *row_pointers = malloc(sizeof(png_bytep) * (height ? height : 1));
    if (row_pointers == NULL) {
        copy_message(message, "out of memory");
        return -1;
    }
    for (uint32_t y = 0; y < height; y++) row_pointers[y] = pixels + (size_t)y * stride;
    if (setjmp(png_jmpbuf(reader->png))) {
        free(row_pointers);
        copy_message(message, reader->message);
        return -1;
    }
    png_read_image(reader->png, row_pointers);
    free(row_pointers);
    return 0;
}

int tessera_png_finish(tessera_png_reader *reader, char *message) {
    if (setjmp(png_jmpbuf(reader->png))) {
        copy_message(message, reader->message);
        return -1;
    }
    png_read_end(reader->png, NULL);
    return 0;
}

void tessera_png_close(tessera_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, reader->info ? &reader->info : NULL, NULL);
    free(reader->buffer);
    free(reader);
}
