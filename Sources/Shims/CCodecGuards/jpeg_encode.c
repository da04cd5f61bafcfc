#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>
#include "codec_guards.h"

/* Each entry point sets the jump before calling libjpeg: a longjmp may only return to a frame
   that is still live. */
struct tessera_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    struct jpeg_error_mgr manager;
    struct jpeg_destination_mgr destination;
    jmp_buf jump;
    char message[TESSERA_MESSAGE_SIZE];
    /* The file so far, ours throughout (libjpeg's own memory destination frees buffers it
       grew from, which an error path cannot tell apart); handed over by finish. */
    tessera_buffer file;
    int created;
};

static void destination_init(j_compress_ptr cinfo) {
    tessera_jpeg_writer *writer = (tessera_jpeg_writer *)cinfo->client_data;
    cinfo->dest->next_output_byte = writer->file.bytes + writer->file.length;
    cinfo->dest->free_in_buffer = writer->file.capacity - writer->file.length;
}

/* The buffer is full: double it. */
static boolean destination_full(j_compress_ptr cinfo) {
    tessera_jpeg_writer *writer = (tessera_jpeg_writer *)cinfo->client_data;
    size_t capacity = writer->file.capacity * 2;
    uint8_t *grown = realloc(writer->file.bytes, capacity);
    if (grown == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    writer->file.length = writer->file.capacity;
    writer->file.bytes = grown;
    writer->file.capacity = capacity;
    destination_init(cinfo);
    return TRUE;
}

static void destination_term(j_compress_ptr cinfo) {
    tessera_jpeg_writer *writer = (tessera_jpeg_writer *)cinfo->client_data;
    writer->file.length = writer->file.capacity - cinfo->dest->free_in_buffer;
}

static void on_error_exit(j_common_ptr cinfo) {
    tessera_jpeg_writer *writer = (tessera_jpeg_writer *)cinfo->client_data;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    strncpy(writer->message, text, TESSERA_MESSAGE_SIZE - 1);
    longjmp(writer->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

static int failed(tessera_jpeg_writer *writer, char *message) {
    strncpy(message, writer->message, TESSERA_MESSAGE_SIZE - 1);
    return -1;
}

int tessera_jpeg_writer_start(uint32_t width, uint32_t height, int components, int quality, int progressive,
                              int optimize_coding, int chroma_444, const uint8_t *icc, size_t icc_length,
                              tessera_jpeg_writer **result, char *message) {
    tessera_jpeg_writer *writer = calloc(1, sizeof *writer);
    *result = writer;
    if (writer == NULL) {
        strncpy(message, "out of memory", TESSERA_MESSAGE_SIZE - 1);
        return -1;
    }
    struct jpeg_compress_struct *cinfo = &writer->cinfo;
    cinfo->err = jpeg_std_error(&writer->manager);
    writer->manager.error_exit = on_error_exit;
    writer->manager.emit_message = on_message;
    if (setjmp(writer->jump)) return failed(writer, message);
    jpeg_create_compress(cinfo);
    cinfo->client_data = writer;
    writer->created = 1;
    writer->file.capacity = 64 * 1024;
    writer->file.bytes = malloc(writer->file.capacity);
    if (writer->file.bytes == NULL) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    writer->destination.init_destination = destination_init;
    writer->destination.empty_output_buffer = destination_full;
    writer->destination.term_destination = destination_term;
    cinfo->dest = &writer->destination;
    cinfo->image_width = width;
    cinfo->image_height = height;
    switch (components) {
    case 1:
        cinfo->input_components = 1;
        cinfo->in_color_space = JCS_GRAYSCALE;
        break;
    case 3:
        cinfo->input_components = 3;
        cinfo->in_color_space = JCS_RGB;
        break;
    default:
        cinfo->input_components = 4;
        cinfo->in_color_space = JCS_EXT_RGBX;
        break;
    }
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    cinfo->optimize_coding = optimize_coding ? TRUE : FALSE;
    if (chroma_444 && cinfo->num_components == 3) {
        for (int i = 0; i < 3; i++) {
            cinfo->comp_info[i].h_samp_factor = 1;
            cinfo->comp_info[i].v_samp_factor = 1;
        }
    }
    if (progressive) jpeg_simple_progression(cinfo);
    jpeg_start_compress(cinfo, TRUE);
    if (icc != NULL && icc_length > 0) jpeg_write_icc_profile(cinfo, icc, (unsigned int)icc_length);
    return 0;
}

int tessera_jpeg_writer_rows(tessera_jpeg_writer *writer, const uint8_t *rows, size_t stride, uint32_t count,
                             char *message) {
    if (setjmp(writer->jump)) return failed(writer, message);
    for (uint32_t index = 0; index < count && writer->cinfo.next_scanline < writer->cinfo.image_height; index++) {
        JSAMPROW row = (JSAMPROW)(rows + (size_t)index * stride);
        jpeg_write_scanlines(&writer->cinfo, &row, 1);
    }
    return 0;
}

int tessera_jpeg_writer_finish(tessera_jpeg_writer *writer, tessera_buffer *output, char *message) {
    memset(output, 0, sizeof *output);
    if (setjmp(writer->jump)) return failed(writer, message);
    jpeg_finish_compress(&writer->cinfo);
    *output = writer->file;
    memset(&writer->file, 0, sizeof writer->file);
    return 0;
}

void tessera_jpeg_writer_close(tessera_jpeg_writer *writer) {
    if (writer == NULL) return;
    if (writer->created) jpeg_destroy_compress(&writer->cinfo);
    free(writer->file.bytes);
    free(writer);
}

int tessera_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components,
                        int quality, int progressive, int optimize_coding, int chroma_444, const uint8_t *icc,
                        size_t icc_length, tessera_buffer *output, char *message) {
    tessera_jpeg_writer *writer = NULL;
    memset(output, 0, sizeof *output);
    int status = tessera_jpeg_writer_start(width, height, components, quality, progressive, optimize_coding,
                                           chroma_444, icc, icc_length, &writer, message);
    if (status == 0) status = tessera_jpeg_writer_rows(writer, pixels, stride, height, message);
    if (status == 0) status = tessera_jpeg_writer_finish(writer, output, message);
    tessera_jpeg_writer_close(writer);
    return status;
}
