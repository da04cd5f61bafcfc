#include "codec_guards.h"
int tessera_codec_guards_placeholder(void) { return 0; }
