/* input.h — the fuzz input read as a stream of bytes.  Reading past the end
 * gives 0, so that every byte string is a valid input and a mutation that
 * cuts one short still means something. */
#ifndef FZ_INPUT_H
#define FZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct fz_input {
    const uint8_t *data;
    size_t size;
    size_t at; /* next byte */
} fz_input;

static inline uint8_t fz_byte(fz_input *in)
{
    return in->at < in->size ? in->data[in->at++] : 0;
}

static inline int fz_more(const fz_input *in) { return in->at < in->size; }

#endif
