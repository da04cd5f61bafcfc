// PDF through MuPDF. Each call has its own fz_context, so renders on different threads share
// nothing (MuPDF needs no locks then). Hostile input is bounded three ways:
// - memory: the context's allocator refuses to go past a byte limit, and MuPDF turns the
//   refused allocation into an ordinary error that unwinds the render;
// - time: a watchdog thread sets the cookie's abort flag at the deadline, which the content
//   stream interpreter checks between operators;
// - damage: a file whose cross-reference table MuPDF rebuilt while opening it (no `startxref`, a
//   broken table) is drawn, as `mutool draw` and Apple's renderer draw it, and said so (the caller
//   warns, naming the first error the repair answered); errors inside the page's content stream
//   still fail the render.
#include "tessera_pdf.h"
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>

// ---- an allocator with a ceiling -------------------------------------------------------------

typedef struct {
    size_t used;
    size_t limit;
    int refused;
} memory_budget;

// Each block carries its size in a 16-byte header (keeping the alignment malloc gives).
enum { HEADER = 16 };

static void *budget_malloc(void *opaque, size_t size) {
    memory_budget *budget = opaque;
    if (size > budget->limit - budget->used) { budget->refused = 1; return NULL; }
    unsigned char *block = malloc(size + HEADER);
    if (!block) return NULL;
    memcpy(block, &size, sizeof size);
    budget->used += size;
    return block + HEADER;
}

static void *budget_realloc(void *opaque, void *old, size_t size) {
    memory_budget *budget = opaque;
    if (!old) return budget_malloc(opaque, size);
    unsigned char *block = (unsigned char *)old - HEADER;
    size_t old_size;
    memcpy(&old_size, block, sizeof old_size);
    if (size > old_size && size - old_size > budget->limit - budget->used) { budget->refused = 1; return NULL; }
    unsigned char *grown = realloc(block, size + HEADER);
    if (!grown) return NULL;
    memcpy(grown, &size, sizeof size);
    budget->used = budget->used - old_size + size;
    return grown + HEADER;
}

static void budget_free(void *opaque, void *pointer) {
    memory_budget *budget = opaque;
    if (!pointer) return;
    unsigned char *block = (unsigned char *)pointer - HEADER;
    size_t size;
    memcpy(&size, block, sizeof size);
    budget->used -= size;
    free(block);
}

// MuPDF prints warnings to stderr by default; a build log should hold Tessera's messages only.
static void quiet(void *user, const char *message) { (void)user; (void)message; }

// The first error MuPDF reported (every thrown error is reported, also those it recovers from,
// as `cannot find startxref` before a repair): what a repaired file's warning names.
typedef struct {
    char first[200];
} first_error;

static void keep_first(void *user, const char *message) {
    first_error *kept = user;
    if (kept->first[0] == 0) snprintf(kept->first, sizeof kept->first, "%s", message);
}

static fz_context *new_context(memory_budget *budget, fz_alloc_context *allocator, first_error *errors) {
    allocator->user = budget;
    allocator->malloc = budget_malloc;
    allocator->realloc = budget_realloc;
    allocator->free = budget_free;
    // The resource store (decoded images, fonts) gets a quarter of the budget: past that it
    // evicts rather than refusing.
    fz_context *ctx = fz_new_context(allocator, NULL, budget->limit / 4);
    if (!ctx) return NULL;
    fz_set_warning_callback(ctx, quiet, NULL);
    if (errors) fz_set_error_callback(ctx, keep_first, errors);
    else fz_set_error_callback(ctx, quiet, NULL);
    return ctx;
}

static void failure(fz_context *ctx, memory_budget *budget, char *message, size_t size, const char *what) {
    if (budget->refused) {
        snprintf(message, size, "%s: it needs more than the memory limit of %zu bytes", what, budget->limit);
    } else {
        snprintf(message, size, "%s: %s", what, fz_caught_message(ctx));
    }
}

// ---- colour: the first ICC profile the file names -------------------------------------------

static size_t copy_icc(fz_context *ctx, pdf_obj *space, uint8_t *icc, size_t capacity) {
    if (!pdf_is_array(ctx, space) || !pdf_name_eq(ctx, pdf_array_get(ctx, space, 0), PDF_NAME(ICCBased))) return 0;
    pdf_obj *stream = pdf_array_get(ctx, space, 1);
    if (!pdf_is_stream(ctx, stream)) return 0;
    fz_buffer *buffer = pdf_load_stream(ctx, stream);
    unsigned char *bytes = NULL;
    size_t length = fz_buffer_storage(ctx, buffer, &bytes);
    size_t copied = length < capacity ? length : capacity;
    memcpy(icc, bytes, copied);
    fz_drop_buffer(ctx, buffer);
    return copied;
}

static size_t find_icc(fz_context *ctx, pdf_document *pdf, pdf_obj *page, uint8_t *icc, size_t capacity) {
    pdf_obj *intents = pdf_dict_get(ctx, pdf_dict_get(ctx, pdf_trailer(ctx, pdf), PDF_NAME(Root)), PDF_NAME(OutputIntents));
    for (int i = 0, n = pdf_array_len(ctx, intents); i < n && i < 8; i++) {
        pdf_obj *profile = pdf_dict_get(ctx, pdf_array_get(ctx, intents, i), PDF_NAME(DestOutputProfile));
        if (pdf_is_stream(ctx, profile)) {
            pdf_obj *wrapped = pdf_new_array(ctx, pdf, 2);
            pdf_array_push(ctx, wrapped, PDF_NAME(ICCBased));
            pdf_array_push(ctx, wrapped, profile);
            size_t length = copy_icc(ctx, wrapped, icc, capacity);
            pdf_drop_obj(ctx, wrapped);
            if (length) return length;
        }
    }
    pdf_obj *resources = pdf_dict_get_inheritable(ctx, page, PDF_NAME(Resources));
    pdf_obj *spaces = pdf_dict_get(ctx, resources, PDF_NAME(ColorSpace));
    for (int i = 0, n = pdf_dict_len(ctx, spaces); i < n && i < 64; i++) {
        size_t length = copy_icc(ctx, pdf_dict_get_val(ctx, spaces, i), icc, capacity);
        if (length) return length;
    }
    pdf_obj *objects = pdf_dict_get(ctx, resources, PDF_NAME(XObject));
    for (int i = 0, n = pdf_dict_len(ctx, objects); i < n && i < 64; i++) {
        size_t length = copy_icc(ctx, pdf_dict_get(ctx, pdf_dict_get_val(ctx, objects, i), PDF_NAME(ColorSpace)), icc, capacity);
        if (length) return length;
    }
    return 0;
}

// ---- measuring -----------------------------------------------------------------------------

int tessera_pdf_measure(const uint8_t *data, size_t length, size_t memory_limit, tessera_pdf_info *info,
                        uint8_t *icc, size_t icc_capacity, char *message, size_t message_size) {
    memory_budget budget = {0, memory_limit, 0};
    fz_alloc_context allocator;
    first_error errors = {{0}};
    fz_context *ctx = new_context(&budget, &allocator, &errors);
    if (!ctx) { snprintf(message, message_size, "MuPDF could not start within %zu bytes", memory_limit); return -1; }
    fz_stream *stream = NULL;
    fz_document *doc = NULL;
    fz_page *page = NULL;
    int status = 0;
    fz_var(stream); fz_var(doc); fz_var(page); fz_var(status);
    memset(info, 0, sizeof *info);
    fz_try(ctx) {
        fz_register_document_handlers(ctx);
        stream = fz_open_memory(ctx, data, length);
        doc = fz_open_document_with_stream(ctx, "application/pdf", stream);
        info->page_count = fz_count_pages(ctx, doc);
        if (info->page_count < 1) fz_throw(ctx, FZ_ERROR_GENERIC, "the document has no pages");
        page = fz_load_page(ctx, doc, 0);
        fz_rect box = fz_bound_page(ctx, page);
        info->width = box.x1 - box.x0;
        info->height = box.y1 - box.y0;
        pdf_document *pdf = pdf_specifics(ctx, doc);
        if (pdf && pdf_was_repaired(ctx, pdf)) info->repaired = 1;
        pdf_page *pdfPage = pdf_page_from_fz_page(ctx, page);
        if (pdf && pdfPage && icc && icc_capacity) info->icc_length = find_icc(ctx, pdf, pdfPage->obj, icc, icc_capacity);
    }
    fz_always(ctx) {
        fz_drop_page(ctx, page);
        fz_drop_document(ctx, doc);
        fz_drop_stream(ctx, stream);
    }
    fz_catch(ctx) {
        failure(ctx, &budget, message, message_size, "MuPDF cannot read it");
        status = -1;
    }
    // A repaired file opened: the message says what the repair answered (the status stays 0).
    if (status == 0 && info->repaired) snprintf(message, message_size, "%s", errors.first[0] ? errors.first : "a broken cross-reference table");
    fz_drop_context(ctx);
    return status;
}

// ---- rendering under a deadline --------------------------------------------------------------

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t done_signal;
    int done;
    double seconds;
    fz_cookie *cookie;
} watchdog;

static void *watch(void *argument) {
    watchdog *dog = argument;
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    double whole = (double)(long)dog->seconds;
    deadline.tv_sec += (time_t)whole;
    deadline.tv_nsec += (long)((dog->seconds - whole) * 1e9);
    if (deadline.tv_nsec >= 1000000000L) { deadline.tv_sec += 1; deadline.tv_nsec -= 1000000000L; }
    pthread_mutex_lock(&dog->lock);
    while (!dog->done) {
        if (pthread_cond_timedwait(&dog->done_signal, &dog->lock, &deadline) == ETIMEDOUT) {
            // The interpreter polls this between operators; an int store is all it needs.
            __atomic_store_n(&dog->cookie->abort, 1, __ATOMIC_SEQ_CST);
            break;
        }
    }
    pthread_mutex_unlock(&dog->lock);
    return NULL;
}

int tessera_pdf_render(const uint8_t *data, size_t length, size_t memory_limit, double seconds,
                       uint8_t *rgba, int width, int height, char *message, size_t message_size) {
    memory_budget budget = {0, memory_limit, 0};
    fz_alloc_context allocator;
    fz_context *ctx = new_context(&budget, &allocator, NULL);
    if (!ctx) { snprintf(message, message_size, "MuPDF could not start within %zu bytes", memory_limit); return -1; }
    fz_cookie cookie;
    memset(&cookie, 0, sizeof cookie);
    watchdog dog = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, seconds, &cookie};
    pthread_t thread;
    int watching = pthread_create(&thread, NULL, watch, &dog) == 0;

    fz_stream *stream = NULL;
    fz_document *doc = NULL;
    fz_page *page = NULL;
    fz_pixmap *pixmap = NULL;
    fz_device *device = NULL;
    int status = 0;
    fz_var(stream); fz_var(doc); fz_var(page); fz_var(pixmap); fz_var(device); fz_var(status);
    memset(rgba, 0, (size_t)width * 4 * (size_t)height);
    fz_try(ctx) {
        fz_register_document_handlers(ctx);
        stream = fz_open_memory(ctx, data, length);
        doc = fz_open_document_with_stream(ctx, "application/pdf", stream);
        page = fz_load_page(ctx, doc, 0);
        fz_rect box = fz_bound_page(ctx, page);
        fz_matrix ctm = fz_scale(width / (box.x1 - box.x0), height / (box.y1 - box.y0));
        ctm = fz_pre_translate(ctm, -box.x0, -box.y0);
        // MuPDF draws into Tessera's buffer directly: premultiplied RGBA, made straight below.
        pixmap = fz_new_pixmap_with_data(ctx, fz_device_rgb(ctx), width, height, NULL, 1, width * 4, rgba);
        device = fz_new_draw_device(ctx, ctm, pixmap);
        fz_run_page(ctx, page, device, fz_identity, &cookie);
        fz_close_device(ctx, device);
        if (cookie.abort) fz_throw(ctx, FZ_ERROR_GENERIC, "over the time budget");
        // Errors inside the content stream are skipped by the interpreter and counted here: a
        // page drawn with parts missing is a misread, not a render.
        if (cookie.errors > 0) fz_throw(ctx, FZ_ERROR_GENERIC, "%d errors in the page's content stream", cookie.errors);
    }
    fz_always(ctx) {
        fz_drop_device(ctx, device);
        fz_drop_pixmap(ctx, pixmap);
        fz_drop_page(ctx, page);
        fz_drop_document(ctx, doc);
        fz_drop_stream(ctx, stream);
    }
    fz_catch(ctx) {
        if (cookie.abort) {
            snprintf(message, message_size, "rendering took longer than the time budget of %g s (renderSeconds)", seconds);
            status = -2;
        } else {
            failure(ctx, &budget, message, message_size, "MuPDF cannot render it");
            status = -1;
        }
    }
    fz_drop_context(ctx);
    if (watching) {
        pthread_mutex_lock(&dog.lock);
        dog.done = 1;
        pthread_cond_signal(&dog.done_signal);
        pthread_mutex_unlock(&dog.lock);
        pthread_join(thread, NULL);
    }
    if (status != 0) return status;
    for (size_t i = 0, n = (size_t)width * (size_t)height; i < n; i++) {
        uint8_t *p = rgba + i * 4;
        unsigned a = p[3];
        if (a != 0 && a != 255) {
            for (int c = 0; c < 3; c++) {
                unsigned v = (p[c] * 255u + a / 2) / a;
                p[c] = (uint8_t)(v > 255 ? 255 : v);
            }
        }
    }
    return 0;
}

const char *tessera_pdf_library_version(void) {
    return "MuPDF " FZ_VERSION;
}
