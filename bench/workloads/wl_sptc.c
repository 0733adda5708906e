/* wl_sptc.c — the `sptc` workload: a sparse tensor contraction (WarpSpeed
 * §6.7, spec §2.8) on synthetic tensors, with a CPU reference that checks
 * the result exactly.
 *
 * X (I x J) and Y (J x K), nnz nonzeros each (--n), coordinates uniform and
 * seeded (duplicates allowed: a coordinate given twice counts twice), values
 * 1..7; Z = X . Y contracted over J (Z[i,k] = sum_j X[i,j] Y[j,k]), with
 * J = nnz / 4 (about 4 matches a nonzero of X) and I = K such that the
 * output coordinates span about 16 x nnz.  Y is sorted by j beforehand (its
 * nonzeros of one j are consecutive, WarpSpeed's growable vector).  Timed:
 *   build       hive_insert (KEEP) of every Y nonzero: key j, value the
 *               offset of j's first nonzero (repeats report EXISTED);
 *   probe       hive_find of every X nonzero's j;
 *   accumulate  hive_insert (ADD) of every product: key i x K + k, value
 *               X[i,j] Y[j,k], into a table of products / BENCH_SPTC_OUT_LF
 *               slots.
 * Between probe and accumulate the matches are expanded on the host
 * (untimed): the table calls are what is compared.  The reference sums the
 * products by sorting them; the check: every probe hit names j's offset and
 * every miss has no Y nonzero at j, the build table holds the distinct j, and
 * the output table's export equals the reference's (key, sum) pairs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads.h"

typedef struct nz {
    uint64_t a, b, v; /* row, column, value */
} nz;

static int cmp_nz_a(const void *p, const void *q)
{
    const nz *x = p, *y = q;
    return x->a < y->a ? -1 : x->a > y->a;
}

static int cmp_pair(const void *p, const void *q)
{
    const uint64_t *x = p, *y = q;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

int wl_sptc(bench_ctx *c)
{
    bench_begin(c, "sptc");
    uint64_t nnz = c->n ? c->n : c->def->sptc_nnz;
    uint64_t J = nnz / 4 ? nnz / 4 : 1;
    uint64_t side = 1;
    while (side * side < 16 * nnz)
        side <<= 1;
    uint32_t bits = c->bits;
    uint64_t mask = bits == 32 ? 0xFFFFFFFFull : ~0ull;
    if (bits == 32 && side * side > (1ull << 31)) { /* output keys i x K + k: 32 bits, none reserved */
        fprintf(stderr, "sptc: %llu nonzeros need output keys of more than 32 bits: use --kv 64\n",
                (unsigned long long)nnz);
        bench_end(c);
        return -1;
    }
    int rc = 0, ok = 1;
    double tb[BENCH_MAX_RUNS] = {0}, tp[BENCH_MAX_RUNS] = {0}, ta[BENCH_MAX_RUNS] = {0},
           tt[BENCH_MAX_RUNS] = {0};
    uint64_t nprod = 0, nout = 0, ydistinct = 0, out_slots = 0, bytes = 0;
    hive_table *ty = NULL, *tz = NULL;
    nz *X = malloc(nnz * sizeof *X), *Y = malloc(nnz * sizeof *Y);
    uint64_t *first = malloc(nnz * sizeof *first); /* Y's sorted position of its j's first */
    void *keys = bench_alloc(c, nnz * c->kbytes), *vals = bench_alloc(c, nnz * c->kbytes);
    uint8_t *found = bench_alloc(c, nnz), *hfound = malloc(nnz);
    void *hk = malloc(nnz * c->kbytes), *hv = malloc(nnz * c->kbytes);
    uint64_t *prod = NULL;   /* pairs (key, value) of every product */
    void *pk = NULL, *pv = NULL, *ph = NULL, *pw = NULL;
    if (!X || !Y || !first || !keys || !vals || !found || !hfound || !hk || !hv) {
        fprintf(stderr, "sptc: no memory for %llu nonzeros\n", (unsigned long long)nnz);
        rc = -1;
        goto out;
    }
    for (int r = -1; r < c->runs && rc == 0; r++) {
        int ri = r < 0 ? 0 : r;
        uint64_t seed = bench_seed(c, 0, r);
        for (uint64_t i = 0; i < nnz; i++) {
            X[i].a = (uint64_t)(bench_uniform(seed, 6 * i) * (double)side);
            X[i].b = (uint64_t)(bench_uniform(seed, 6 * i + 1) * (double)J);
            X[i].v = 1 + (uint64_t)(bench_uniform(seed, 6 * i + 2) * 7.0);
            Y[i].a = (uint64_t)(bench_uniform(seed, 6 * i + 3) * (double)J);
            Y[i].b = (uint64_t)(bench_uniform(seed, 6 * i + 4) * (double)side);
            Y[i].v = 1 + (uint64_t)(bench_uniform(seed, 6 * i + 5) * 7.0);
        }
        qsort(Y, nnz, sizeof *Y, cmp_nz_a); /* by j */
        ydistinct = 0;
        for (uint64_t i = 0; i < nnz; i++) {
            first[i] = i > 0 && Y[i].a == Y[i - 1].a ? first[i - 1] : i;
            ydistinct += first[i] == i;
        }
        /* build */
        if (bench_create_pinned(c, (uint64_t)ceil((double)ydistinct / BENCH_SPTC_Y_LF), &ty) != 0) {
            rc = -1;
            break;
        }
        for (uint64_t i = 0; i < nnz; i++) {
            bench_word_put(hk, bits, i, Y[i].a);
            bench_word_put(hv, bits, i, first[i]);
        }
        BENCH_STEP(bench_to_table_memory(c, keys, hk, nnz * c->kbytes), ok, fail);
        BENCH_STEP(bench_to_table_memory(c, vals, hv, nnz * c->kbytes), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tb[ri], "hive_insert (build)",
                               hive_insert(ty, nnz, keys, vals, HIVE_COMBINE_KEEP, NULL, c->stream)),
                   ok, fail);
        uint64_t size = 0;
        BENCH_STEP(bench_status(c, hive_size(ty, &size), "hive_size"), ok, fail);
        if (size != ydistinct) {
            bench_fail(c, "sptc: the build table holds %llu keys, Y has %llu distinct j",
                       (unsigned long long)size, (unsigned long long)ydistinct);
            ok = 0;
        }
        /* probe */
        for (uint64_t i = 0; i < nnz; i++)
            bench_word_put(hk, bits, i, X[i].b);
        BENCH_STEP(bench_to_table_memory(c, keys, hk, nnz * c->kbytes), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &tp[ri], "hive_find (probe)",
                               hive_find(ty, nnz, keys, vals, found, c->stream)),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, hfound, found, nnz), ok, fail);
        BENCH_STEP(bench_to_host(c, hv, vals, nnz * c->kbytes), ok, fail);
        /* expand (host, untimed), checking each probe against a binary search of Y */
        uint64_t bad = 0;
        for (int pass = 0; pass < 2; pass++) { /* 0: count the products, 1: write them */
            uint64_t np = 0;
            for (uint64_t i = 0; i < nnz; i++) {
                uint64_t lo = 0, hi = nnz; /* the first Y nonzero with j >= X's j */
                while (lo < hi) {
                    uint64_t mid = (lo + hi) / 2;
                    if (Y[mid].a < X[i].b)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                int has = lo < nnz && Y[lo].a == X[i].b;
                if (pass == 0) {
                    bad += has != (hfound[i] != 0) || (has && bench_word_get(hv, bits, i) != (lo & mask));
                    for (uint64_t y = lo; has && y < nnz && Y[y].a == X[i].b; y++)
                        np++;
                } else {
                    for (uint64_t y = lo; has && y < nnz && Y[y].a == X[i].b; y++, np++) {
                        prod[2 * np] = X[i].a * side + Y[y].b;
                        prod[2 * np + 1] = X[i].v * Y[y].v;
                        bench_word_put(ph, bits, np, prod[2 * np]);
                        bench_word_put(pw, bits, np, prod[2 * np + 1]);
                    }
                }
            }
            if (pass == 0) { /* room for this run's products */
                free(prod);
                free(ph);
                free(pw);
                bench_free(c, pk);
                bench_free(c, pv);
                prod = malloc((np + 1) * 2 * sizeof *prod);
                ph = malloc((np + 1) * c->kbytes);
                pw = malloc((np + 1) * c->kbytes);
                pk = bench_alloc(c, (np + 1) * c->kbytes);
                pv = bench_alloc(c, (np + 1) * c->kbytes);
                if (!prod || !ph || !pw || !pk || !pv) {
                    fprintf(stderr, "sptc: no memory for %llu products\n", (unsigned long long)np);
                    goto fail;
                }
                nprod = np;
            }
        }
        if (bad) {
            bench_fail(c, "sptc: %llu probes of X disagree with Y", (unsigned long long)bad);
            ok = 0;
        }
        /* accumulate */
        out_slots = (uint64_t)ceil((double)(nprod + 1) / BENCH_SPTC_OUT_LF);
        if (bench_create_pinned(c, out_slots, &tz) != 0)
            goto fail;
        BENCH_STEP(bench_to_table_memory(c, pk, ph, nprod * c->kbytes), ok, fail);
        BENCH_STEP(bench_to_table_memory(c, pv, pw, nprod * c->kbytes), ok, fail);
        BENCH_STEP(BENCH_TIMED(c, &ta[ri], "hive_insert (accumulate)",
                               hive_insert(tz, nprod, pk, pv, HIVE_COMBINE_ADD, NULL, c->stream)),
                   ok, fail);
        tt[ri] = tb[ri] + tp[ri] + ta[ri];
        /* the reference: sort the products, sum runs of one key */
        qsort(prod, nprod, 2 * sizeof *prod, cmp_pair);
        nout = 0;
        for (uint64_t i = 0; i < nprod; i++) {
            if (nout > 0 && prod[2 * (nout - 1)] == prod[2 * i]) {
                prod[2 * (nout - 1) + 1] += prod[2 * i + 1];
            } else {
                prod[2 * nout] = prod[2 * i];
                prod[2 * nout + 1] = prod[2 * i + 1];
                nout++;
            }
        }
        uint64_t count = 0;
        BENCH_STEP(bench_status(c, hive_export(tz, nprod + 1, pk, pv, &count, c->stream),
                                "hive_export"),
                   ok, fail);
        BENCH_STEP(bench_to_host(c, ph, pk, count * c->kbytes), ok, fail);
        BENCH_STEP(bench_to_host(c, pw, pv, count * c->kbytes), ok, fail);
        uint64_t *got = malloc((count + 1) * 2 * sizeof *got);
        if (got == NULL)
            goto fail;
        for (uint64_t i = 0; i < count; i++) {
            got[2 * i] = bench_word_get(ph, bits, i);
            got[2 * i + 1] = bench_word_get(pw, bits, i);
        }
        qsort(got, count, 2 * sizeof *got, cmp_pair);
        uint64_t wrong = count != nout;
        for (uint64_t i = 0; !wrong && i < count; i++)
            wrong += got[2 * i] != prod[2 * i] || got[2 * i + 1] != (prod[2 * i + 1] & mask);
        free(got);
        if (wrong) {
            bench_fail(c, "sptc: the output has %llu entries, the reference %llu, or their sums "
                          "differ", (unsigned long long)count, (unsigned long long)nout);
            ok = 0;
        }
        hive_stats st;
        if (bench_stats(c, tz, &st) != 0)
            goto fail;
        bytes = st.bytes_held;
        hive_destroy(ty);
        hive_destroy(tz);
        ty = tz = NULL;
        continue;
    fail:
        rc = -1;
    }
    if (rc == 0) {
        double ylf = (double)ydistinct / ceil((double)ydistinct / BENCH_SPTC_Y_LF);
        double zlf = (double)nout / (double)out_slots;
        double x = (double)nprod / (double)nnz; /* products per nonzero */
        bench_row_timed(c, "build", nnz, ylf, x, tb, c->runs, 0, ok);
        bench_row_timed(c, "probe", nnz, ylf, x, tp, c->runs, 0, ok);
        bench_row_timed(c, "accumulate", nprod, zlf, x, ta, c->runs, bytes, ok);
        double s[BENCH_MAX_RUNS];
        memcpy(s, tt, sizeof s);
        bench_spread sp = bench_spread_sort(s, c->runs);
        bench_row *r = bench_row_value(c, "total", nnz, zlf, x, sp.median, "s", bytes, c->runs, ok);
        r->value_min = sp.min;
        r->value_max = sp.max;
    }
out:
    if (ty != NULL)
        hive_destroy(ty);
    if (tz != NULL)
        hive_destroy(tz);
    free(X);
    free(Y);
    free(first);
    bench_free(c, keys);
    bench_free(c, vals);
    bench_free(c, found);
    free(hfound);
    free(hk);
    free(hv);
    free(prod);
    free(ph);
    free(pw);
    bench_free(c, pk);
    bench_free(c, pv);
    if (bench_end(c) != 0)
        rc = -1;
    return rc;
}
