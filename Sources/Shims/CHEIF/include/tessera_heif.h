#ifndef TESSERA_HEIF_H
#define TESSERA_HEIF_H

// libheif's types and constants, and the few of its functions Tessera calls, reached through a
// copy of libheif loaded with dlopen at the first HEIC file (heif_loader.c). Each function is
// libheif's own under a tessera_ prefix.
#include <libheif/heif.h>

// Loads libheif once; 0 when it is not installed, with the reason in `message`.
int tessera_heif_load(char *message, size_t size);

struct heif_context *tessera_heif_context_alloc(void);
void tessera_heif_context_free(struct heif_context *context);
void tessera_heif_context_set_maximum_image_size_limit(struct heif_context *context, int maximum_width);
struct heif_error tessera_heif_context_read_from_memory_without_copy(struct heif_context *context, const void *memory,
                                                                     size_t size, const struct heif_reading_options *options);
struct heif_error tessera_heif_context_get_primary_image_handle(struct heif_context *context,
                                                                struct heif_image_handle **handle);
int tessera_heif_image_handle_get_width(const struct heif_image_handle *handle);
int tessera_heif_image_handle_get_height(const struct heif_image_handle *handle);
int tessera_heif_image_handle_has_alpha_channel(const struct heif_image_handle *handle);
size_t tessera_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *handle);
struct heif_error tessera_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *handle, void *out_data);
int tessera_heif_image_handle_get_luma_bits_per_pixel(const struct heif_image_handle *handle);
void tessera_heif_image_handle_release(const struct heif_image_handle *handle);
struct heif_error tessera_heif_decode_image(const struct heif_image_handle *handle, struct heif_image **out_image,
                                            enum heif_colorspace colorspace, enum heif_chroma chroma,
                                            const struct heif_decoding_options *options);
int tessera_heif_image_get_width(const struct heif_image *image, enum heif_channel channel);
int tessera_heif_image_get_height(const struct heif_image *image, enum heif_channel channel);
const uint8_t *tessera_heif_image_get_plane_readonly(const struct heif_image *image, enum heif_channel channel,
                                                     int *out_stride);
void tessera_heif_image_release(const struct heif_image *image);

#endif
