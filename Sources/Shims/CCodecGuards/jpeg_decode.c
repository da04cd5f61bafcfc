#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jpeglib.h>
#include <jerror.h>
#include "codec_guards.h"

struct tessera_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr error_manager;
    jmp_buf jump;
    char message[TESSERA_MESSAGE_SIZE];
    tessera_jpeg_info *public_info;
    uint8_t *icc;
    int cmyk_output;
    JSAMPROW cmyk_row;
    int started;
    FILE *file;
};

static void copy_message(char *destination, const char *source) {
    if (destination == NULL) return;
    strncpy(destination, source ? source : "unknown error", TESSERA_MESSAGE_SIZE - 1);
    destination[TESSERA_MESSAGE_SIZE - 1] = '\0';
}

static void on_error_exit(j_common_ptr cinfo) {
    struct tessera_jpeg_reader *reader = (struct tessera_jpeg_reader *)cinfo;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    copy_message(reader->message, text);
    longjmp(reader->jump, 1);
}

/* libjpeg reports a truncated file only as a warning and pads the image with gray. A padded
   image must never pass as good, so premature end of data is fatal here; other warnings
   (extraneous bytes before a marker) are counted and reported. */
static void on_message(j_common_ptr cinfo, int level) {
    if (level >= 0) return; /* trace messages */
    struct tessera_jpeg_reader *reader = (struct tessera_jpeg_reader *)cinfo;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
        copy_message(reader->message, "premature end of JPEG data (the file is truncated)");
        longjmp(reader->jump, 1);
    }
    tessera_jpeg_info *info = reader->public_info;
    if (info != NULL) {
        if (info->warning_count == 0) copy_message(info->first_warning, text);
        info->warning_count += 1;
    }
    cinfo->err->num_warnings++;
}

int tessera_jpeg_open(const uint8_t *data, size_t size, int fd, tessera_jpeg_reader **out, tessera_jpeg_info *info,
                      char *message) {
    *out = NULL;
    memset(info, 0, sizeof *info);
    struct tessera_jpeg_reader *reader = calloc(1, sizeof *reader);
    if (reader == NULL) {
        copy_message(message, "out of memory");
        return -1;
    }
    reader->public_info = info;
    reader->cinfo.err = jpeg_std_error(&reader->error_manager);
    reader->error_manager.error_exit = on_error_exit;
    reader->error_manager.emit_message = on_message;
    if (setjmp(reader->jump)) {
        copy_message(message, reader->message);
        tessera_jpeg_close(reader);
        return -1;
    }
    jpeg_create_decompress(&reader->cinfo);
    if (data != NULL) {
        jpeg_mem_src(&reader->cinfo, data, (unsigned long)size);
    } else {
        /* A duplicate descriptor, so closing the stream leaves the caller's open. */
        int copy = dup(fd);
        reader->file = copy >= 0 ? fdopen(copy, "rb") : NULL;
        if (reader->file == NULL) {
            if (copy >= 0) close(copy);
            copy_message(message, "cannot read the file");
            tessera_jpeg_close(reader);
            return -1;
        }
        jpeg_stdio_src(&reader->cinfo, reader->file);
    }
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 1, 0xffff);
    jpeg_save_markers(&reader->cinfo, JPEG_APP0 + 2, 0xffff);
    jpeg_read_header(&reader->cinfo, TRUE);

    info->width = reader->cinfo.image_width;
    info->height = reader->cinfo.image_height;
    info->components = reader->cinfo.num_components;
    info->color_space = reader->cinfo.jpeg_color_space;
    info->progressive = reader->cinfo.progressive_mode ? 1 : 0;
    /* Per component, whole-image blocks of 64 JCOEFs, rounded up to full iMCU rows as libjpeg
       allocates them: what a progressive decode holds however small its output is. */
    info->coefficient_bytes = 0;
    for (int ci = 0; ci < reader->cinfo.num_components; ci++) {
        jpeg_component_info *component = &reader->cinfo.comp_info[ci];
        size_t rows = component->height_in_blocks;
        size_t group = component->v_samp_factor > 0 ? (size_t)component->v_samp_factor : 1;
        rows = (rows + group - 1) / group * group;
        info->coefficient_bytes += (size_t)component->width_in_blocks * rows * DCTSIZE2 * sizeof(JCOEF);
    }
    info->adobe_inverted = reader->cinfo.saw_Adobe_marker ? 1 : 0;

    JOCTET *icc = NULL;
    unsigned int icc_length = 0;
    if (jpeg_read_icc_profile(&reader->cinfo, &icc, &icc_length)) {
        reader->icc = icc;
        info->icc = icc;
        info->icc_length = icc_length;
    }
    for (jpeg_saved_marker_ptr marker = reader->cinfo.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 &&
            memcmp(marker->data, "Exif\0\0", 6) == 0 && info->exif == NULL) {
            info->exif = marker->data + 6;
            info->exif_length = marker->data_length - 6;
        }
    }
    *out = reader;
    return 0;
}

int tessera_jpeg_start_rgba8(tessera_jpeg_reader *reader, int scale_denominator, uint32_t *output_width,
                             uint32_t *output_height, char *message) {
    if (setjmp(reader->jump)) {
        copy_message(message, reader->message);
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        /* libjpeg turns YCCK into CMYK; CMYK to RGB is done row by row below. */
        cinfo->out_color_space = JCS_CMYK;
        reader->cmyk_output = 1;
    } else {
        cinfo->out_color_space = JCS_EXT_RGBA;
    }
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned int)scale_denominator;
    jpeg_start_decompress(cinfo);
    reader->started = 1;
    if (reader->cmyk_output) {
        reader->cmyk_row = malloc((size_t)cinfo->output_width * 4);
        if (reader->cmyk_row == NULL) {
            copy_message(message, "out of memory");
            return -1;
        }
    }
    *output_width = cinfo->output_width;
    *output_height = cinfo->output_height;
    return 0;
}

static void cmyk_to_rgba(const uint8_t *cmyk, uint8_t *rgba, uint32_t width, int inverted) {
    for (uint32_t x = 0; x < width; x++) {
        unsigned c = cmyk[4 * x], m = cmyk[4 * x + 1], y = cmyk[4 * x + 2], k = cmyk[4 * x + 3];
        if (!inverted) {
            c = 255 - c;
            m = 255 - m;
            y = 255 - y;
            k = 255 - k;
        }
        /* Adobe stores 255 - ink, so the stored value is already "how much light passes". */
        rgba[4 * x] = (uint8_t)((c * k + 127) / 255);
        rgba[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
        rgba[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
        rgba[4 * x + 3] = 255;
    }
}

int tessera_jpeg_read_rows(tessera_jpeg_reader *reader, uint8_t *rows, size_t stride, uint32_t count,
                           uint32_t *rows_read, char *message) {
    *rows_read = 0;
    if (setjmp(reader->jump)) {
        copy_message(message, reader->message);
        return -1;
    }
    struct jpeg_decompress_struct *cinfo = &reader->cinfo;
    uint32_t done = 0;
    while (done < count && cinfo->output_scanline < cinfo->output_height) {
        uint8_t *target = rows + (size_t)done * stride;
        JSAMPROW row = reader->cmyk_output ? reader->cmyk_row : target;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            copy_message(message, "the decoder returned no row (suspended data source)");
            return -1;
        }
        if (reader->cmyk_output) {
            cmyk_to_rgba(reader->cmyk_row, target, cinfo->output_width, reader->public_info->adobe_inverted);
        }
        done += 1;
        *rows_read = done;
    }
    return 0;
}

int tessera_jpeg_finish(tessera_jpeg_reader *reader, char *message) {
    if (setjmp(reader->jump)) {
        copy_message(message, reader->message);
        return -1;
    }
    jpeg_finish_decompress(&reader->cinfo);
    reader->started = 0;
    return 0;
}

int tessera_jpeg_warning_count(const tessera_jpeg_reader *reader) {
    return (int)reader->error_manager.num_warnings;
}

void tessera_jpeg_close(tessera_jpeg_reader *reader) {
    if (reader == NULL) return;
    /* jpeg_destroy never longjmps in practice, but guard it like every other call. */
    if (setjmp(reader->jump) == 0) {
        jpeg_destroy_decompress(&reader->cinfo);
    }
    if (reader->file != NULL) fclose(reader->file);
    free(reader->icc);
    free(reader->cmyk_row);
    free(reader);
}
