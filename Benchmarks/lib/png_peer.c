/* PNG re-encoders the PNG encode benchmark compares Tessera against, built by the script.
 *
 *   png_peer libpng LEVEL IN.png OUT.png   libpng + zlib LEVEL, libpng's adaptive row filters:
 *                                          exactly Tessera's PNG encoder before issue #14
 *   png_peer spng LEVEL IN.png OUT.png     libspng + zlib LEVEL (its default adaptive filters)
 *
 * Decodes IN with libpng to 8-bit RGB or RGBA (as Tessera does), encodes, writes OUT, and prints
 * "decode_s encode_s bytes" so the encode alone can be read off as well. */
#include <png.h>
#include <spng.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { unsigned char *bytes; size_t length, capacity; } buffer;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void append(png_structp png, png_bytep data, size_t length) {
    buffer *out = png_get_io_ptr(png);
    if (out->length + length > out->capacity) {
        out->capacity = (out->length + length) * 2;
        out->bytes = realloc(out->bytes, out->capacity);
    }
    memcpy(out->bytes + out->length, data, length);
    out->length += length;
}
static void flush(png_structp png) { (void)png; }

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: png_peer libpng|spng LEVEL IN OUT\n"); return 64; }
    int level = atoi(argv[2]);
    double start = now();
    png_image image = { .version = PNG_IMAGE_VERSION };
    if (!png_image_begin_read_from_file(&image, argv[3])) { fprintf(stderr, "%s\n", image.message); return 1; }
    image.format = (image.format & PNG_FORMAT_FLAG_ALPHA) ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    int channels = PNG_IMAGE_SAMPLE_CHANNELS(image.format);
    size_t stride = (size_t)image.width * channels;
    unsigned char *pixels = malloc(stride * image.height);
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) { fprintf(stderr, "%s\n", image.message); return 1; }
    double decoded = now();
    buffer out = { 0 };
    if (strcmp(argv[1], "libpng") == 0) {
        png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
        png_infop info = png_create_info_struct(png);
        png_set_write_fn(png, &out, append, flush);
        png_set_compression_level(png, level);
        png_set_IHDR(png, info, image.width, image.height, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_write_info(png, info);
        for (png_uint_32 y = 0; y < image.height; y++) png_write_row(png, pixels + y * stride);
        png_write_end(png, NULL);
        png_destroy_write_struct(&png, &info);
    } else {
        spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
        spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
        spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, level);
        struct spng_ihdr ihdr = { image.width, image.height, 8, channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA
                                                                                : SPNG_COLOR_TYPE_TRUECOLOR, 0, 0, 0 };
        spng_set_ihdr(ctx, &ihdr);
        int error = spng_encode_image(ctx, pixels, stride * image.height, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
        if (error) { fprintf(stderr, "spng: %s\n", spng_strerror(error)); return 1; }
        out.bytes = spng_get_png_buffer(ctx, &out.length, &error);
        spng_ctx_free(ctx);
    }
    double encoded = now();
    FILE *file = fopen(argv[4], "wb");
    if (!file || fwrite(out.bytes, 1, out.length, file) != out.length || fclose(file)) { perror(argv[4]); return 1; }
    printf("%.4f %.4f %zu\n", decoded - start, encoded - decoded, out.length);
    return 0;
}
