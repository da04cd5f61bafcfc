// tessera-svg-worker: draws SVGs for Tessera in a process of its own (docs/vectors.md).
//
// librsvg runs here, not in `tessera`: a panic inside it (it aborts, since a Rust panic cannot
// unwind through C), a filter that renders for hours, or memory it runs out of end this process
// only. Tessera starts it under `prlimit` (address space, CPU seconds), kills it at each request's
// wall-clock limit, and fails that one asset; the other assets never share its fate.
//
// Requests arrive on stdin, answers leave on the descriptor that was stdout when the worker
// started. Before the first request, stdout is pointed at stderr, so nothing librsvg, GLib or
// cairo prints can land among the answers; each answer also repeats its request's nonce.
//
// Request:  "TSVQ", nonce[16], op u32, width u32, height u32, length u32, document[length]
// Answer:   "TSVA", nonce[16], status u32 (0 ok, 1 error), length u32, payload[length]
// (integers little-endian). Ops: 1 hello (payload: librsvg's version), 2 measure (payload: width
// and height as two little-endian IEEE doubles), 3 render (payload: width × height straight RGBA8).
#include "tessera_svg.h"
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OP_HELLO = 1, OP_MEASURE = 2, OP_RENDER = 3 };
// What Tessera ever sends: its own input limit is 16 MiB, its pixel limit 16384 × 16384.
static const uint32_t max_document = 64u << 20;
static const uint64_t max_pixels = 268435456u;

static int read_full(int fd, void *buffer, size_t count) {
    uint8_t *at = buffer;
    while (count > 0) {
        ssize_t got = read(fd, at, count);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return 0;
        at += got;
        count -= (size_t)got;
    }
    return 1;
}

static int write_full(int fd, const void *buffer, size_t count) {
    const uint8_t *at = buffer;
    while (count > 0) {
        ssize_t put = write(fd, at, count);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) return 0;
        at += put;
        count -= (size_t)put;
    }
    return 1;
}

static uint32_t word(const uint8_t *at) {
    return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static void put_word(uint8_t *at, uint32_t value) {
    for (int i = 0; i < 4; i++) at[i] = (uint8_t)(value >> (8 * i));
}

static int answer(int fd, const uint8_t *nonce, uint32_t status, const void *payload, uint32_t length) {
    uint8_t head[28];
    memcpy(head, "TSVA", 4);
    memcpy(head + 4, nonce, 16);
    put_word(head + 20, status);
    put_word(head + 24, length);
    return write_full(fd, head, sizeof head) && write_full(fd, payload, length);
}

static int fail(int fd, const uint8_t *nonce, const char *message) {
    return answer(fd, nonce, 1, message, (uint32_t)strlen(message));
}

int main(void) {
    // A dead Tessera closes the pipe: the write fails and the worker ends, with no signal.
    signal(SIGPIPE, SIG_IGN);
    int answers = dup(STDOUT_FILENO);
    if (answers < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return 2;
    uint8_t head[36];
    while (read_full(STDIN_FILENO, head, sizeof head)) {
        if (memcmp(head, "TSVQ", 4) != 0) return 3;
        const uint8_t *nonce = head + 4;
        uint32_t op = word(head + 20), width = word(head + 24), height = word(head + 28), length = word(head + 32);
        if (length > max_document) return 3;
        uint8_t *document = malloc(length ? length : 1);
        if (!document || !read_full(STDIN_FILENO, document, length)) return 4;
        char message[512] = {0};
        int alive = 1;
        if (op == OP_HELLO) {
            const char *version = tessera_svg_library_version();
            alive = answer(answers, nonce, 0, version, (uint32_t)strlen(version));
        } else if (op == OP_MEASURE) {
            double size[2] = {0, 0};
            if (tessera_svg_measure(document, length, &size[0], &size[1], message, sizeof message) != 0) {
                alive = fail(answers, nonce, message);
            } else {
                alive = answer(answers, nonce, 0, size, sizeof size);
            }
        } else if (op == OP_RENDER) {
            uint64_t pixels = (uint64_t)width * height;
            uint8_t *rgba = (width > 0 && height > 0 && pixels <= max_pixels) ? malloc((size_t)pixels * 4) : NULL;
            if (!rgba) {
                alive = fail(answers, nonce, "the render's size is out of range or its memory could not be had");
            } else if (tessera_svg_render(document, length, rgba, (int)width, (int)height, message, sizeof message) != 0) {
                alive = fail(answers, nonce, message);
            } else {
                alive = answer(answers, nonce, 0, rgba, (uint32_t)(pixels * 4));
            }
            free(rgba);
        } else {
            alive = fail(answers, nonce, "unknown request");
        }
        free(document);
        if (!alive) return 5;
    }
    return 0;
}
