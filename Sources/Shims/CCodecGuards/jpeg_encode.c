#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include "codec_guards.h"

typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[TESSERA_MESSAGE_SIZE];
} encode_errors;

static void on_error_exit(j_common_ptr cinfo) {
    encode_errors *errors = (encode_errors *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    strncpy(errors->message, text, TESSERA_MESSAGE_SIZE - 1);
    longjmp(errors->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    (void)cinfo;
    (void)level;
}

int tessera_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int components,
                        int quality, int progressive, int optimize_coding, int chroma_444, const uint8_t *icc,
                        size_t icc_length, tessera_buffer *output, char *message) {
    struct jpeg_compress_struct cinfo;
    encode_errors errors;
    memset(&errors, 0, sizeof errors);
    memset(output, 0, sizeof *output);
    /* libjpeg owns this buffer until jpeg_destroy_compress; volatile because it changes after setjmp. */
    unsigned char *volatile destination = NULL;
    unsigned long destination_size = 0;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = on_error_exit;
    errors.manager.emit_message = on_message;
    if (setjmp(errors.jump)) {
        strncpy(message, errors.message, TESSERA_MESSAGE_SIZE - 1);
        jpeg_destroy_compress(&cinfo);
        free(destination);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&destination, &destination_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    switch (components) {
    case 1:
        cinfo.input_components = 1;
        cinfo.in_color_space = JCS_GRAYSCALE;
        break;
    case 3:
        cinfo.input_components = 3;
        cinfo.in_color_space = JCS_RGB;
        break;
    default:
        cinfo.input_components = 4;
        cinfo.in_color_space = JCS_EXT_RGBX;
        break;
    }
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = optimize_coding ? TRUE : FALSE;
    if (chroma_444 && cinfo.num_components == 3) {
        for (int i = 0; i < 3; i++) {
            cinfo.comp_info[i].h_samp_factor = 1;
            cinfo.comp_info[i].v_samp_factor = 1;
        }
    }
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (icc != NULL && icc_length > 0) jpeg_write_icc_profile(&cinfo, icc, (unsigned int)icc_length);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    output->bytes = destination;
    output->length = destination_size;
    output->capacity = destination_size;
    destination = NULL;
    jpeg_destroy_compress(&cinfo);
    return 0;
}
