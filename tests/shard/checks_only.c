/* checks_only.c — what check.c needs of target.c, for the programs that
 * take only the checks of the support library (the shard tests: they link
 * libhive.so through libhive_shard, and target.c comes with the static
 * libhive_testing).  They allocate with cudaMalloc themselves and free what
 * they allocate, so there are no support-library buffers to count. */
long long ht_live_buffers(void);

long long ht_live_buffers(void)
{
    return 0;
}
