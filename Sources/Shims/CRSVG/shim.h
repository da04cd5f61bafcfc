// librsvg (LGPL-2.1-or-later, linked dynamically) and cairo: what CSVGRender draws SVG with.
#include <librsvg/rsvg.h>
#include <cairo.h>
