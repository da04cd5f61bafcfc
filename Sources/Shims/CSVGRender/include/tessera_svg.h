#ifndef TESSERA_SVG_H
#define TESSERA_SVG_H
#include <stddef.h>
#include <stdint.h>

/// The SVG's size in CSS pixels (which Xcode takes as points): from width/height, else the viewBox.
/// Returns 0, or -1 with a message in `message` (NUL-terminated, at most `message_size` bytes).
int tessera_svg_measure(const uint8_t *data, size_t length, double *width, double *height,
                        char *message, size_t message_size);

/// Renders the whole SVG scaled into `width` × `height` pixels of straight-alpha RGBA8 at
/// `rgba` (rows `width * 4` bytes apart; the caller allocates and owns it). Returns 0 or -1.
int tessera_svg_render(const uint8_t *data, size_t length, uint8_t *rgba, int width, int height,
                       char *message, size_t message_size);

/// librsvg's version, for `tessera version`.
const char *tessera_svg_library_version(void);
#endif
