#include <stdlib.h>
#include "codec_guards.h"

void tessera_buffer_free(tessera_buffer *buffer) {
    free(buffer->bytes);
    buffer->bytes = NULL;
    buffer->length = 0;
    buffer->capacity = 0;
}
