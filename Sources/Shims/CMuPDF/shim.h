// MuPDF (AGPL-3.0-or-later): linked only with the PDFRasterizing trait (docs/vectors.md).
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
