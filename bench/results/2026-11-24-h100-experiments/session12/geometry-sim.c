/* First-fit two-choice fill to load 0.9 (keys arrive in random order), for S-slot buckets:
 * the share of keys that find both buckets full (deferred), and where keys land. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }
int main(int argc, char **argv) {
    int S = atoi(argv[1]); uint64_t slots = 1ull << 24; uint64_t B = slots / S; uint64_t n = (uint64_t)(0.9 * B * S);
    uint8_t *fill = calloc(B, 1); uint64_t deferred = 0, in_b1 = 0, in_b2 = 0, b1_first_sector = 0, b2_first_sector = 0;
    int first_sector = S == 7 ? 3 : S == 8 ? 4 : S;  /* slots of the first sector */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t b1 = rnd() % B, b2 = rnd() % B;
        if (fill[b1] < S) { b1_first_sector += fill[b1] < first_sector; fill[b1]++; in_b1++; }
        else if (fill[b2] < S) { b2_first_sector += fill[b2] < first_sector; fill[b2]++; in_b2++; }
        else deferred++;
    }
    uint64_t full = 0; for (uint64_t b = 0; b < B; b++) full += fill[b] == S;
    printf("S=%d: deferred %.2f%%, in b1 %.1f%% (first sector %.1f%% of them), in b2 %.1f%%, full buckets %.1f%%\n", S,
           100.0 * deferred / n, 100.0 * in_b1 / n, 100.0 * b1_first_sector / (in_b1 ? in_b1 : 1), 100.0 * in_b2 / n, 100.0 * full / B);
    return 0;
}
