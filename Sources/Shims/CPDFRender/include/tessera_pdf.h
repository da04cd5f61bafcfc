#ifndef TESSERA_PDF_H
#define TESSERA_PDF_H
#include <stddef.h>
#include <stdint.h>

/// What Tessera learns about a PDF before rendering it.
typedef struct {
    /// The first page's size in points, rotation applied.
    double width;
    double height;
    int page_count;
    /// Bytes of the first ICC profile the document names (an output intent, or an ICCBased
    /// colour space of the first page), copied into the caller's buffer up to its size.
    size_t icc_length;
    /// 1 when MuPDF had to repair the file to open it (its cross-reference table rebuilt).
    int repaired;
} tessera_pdf_info;

/// Opens the PDF with MuPDF within `memory_limit` bytes of MuPDF allocations and describes it.
/// Returns 0, or -1 with a message (NUL-terminated, at most `message_size` bytes). A repaired
/// file returns 0 with `repaired` set and the first error the repair answered in the message.
int tessera_pdf_measure(const uint8_t *data, size_t length, size_t memory_limit, tessera_pdf_info *info,
                        uint8_t *icc, size_t icc_capacity, char *message, size_t message_size);

/// Renders the first page scaled into `width` × `height` straight-alpha RGBA8 pixels at `rgba`
/// (rows `width * 4` bytes apart, owned by the caller), within `memory_limit` bytes of MuPDF
/// allocations and `seconds` of wall time. Returns 0, -1 (failure) or -2 (over the time budget).
int tessera_pdf_render(const uint8_t *data, size_t length, size_t memory_limit, double seconds,
                       uint8_t *rgba, int width, int height, char *message, size_t message_size);

/// MuPDF's version, for `tessera version`.
const char *tessera_pdf_library_version(void);
#endif
