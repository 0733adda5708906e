/* tiered_lane.c — the handle's second thread (tiered.h, "the lane").
 *
 * A find step is split into chunks; while the calling thread answers one
 * chunk on the CPU (its hits out, the cold tier's finds, the promotions
 * chosen), the lane runs the hot tier's calls of its neighbours: the chunk
 * before's promotions and the chunk after's lookup.  The hot tier's calls
 * of a CUDA hot tier mostly wait for the GPU, so the two overlap.  One job
 * at a time, posted and then waited for; the hot tier is only ever called
 * from one thread at a time.  A job's failure carries its error text back
 * to the calling thread, whose last error it becomes. */
#include <stdio.h>

#include "base/check.h"
#include "tiered/tiered.h"

static void *lane_main(void *arg)
{
    hive_tiered_lane *lane = arg;
    pthread_mutex_lock(&lane->lock);
    for (;;) {
        while (!lane->stop && lane->job == NULL)
            pthread_cond_wait(&lane->cond, &lane->lock);
        if (lane->stop)
            break;
        hive_status (*job)(void *) = lane->job;
        void *job_arg = lane->arg;
        pthread_mutex_unlock(&lane->lock);
        hive_clear_error();
        hive_status s = job(job_arg);
        pthread_mutex_lock(&lane->lock);
        lane->status = s;
        snprintf(lane->error, sizeof lane->error, "%s", s == HIVE_SUCCESS ? "" : hive_last_error());
        lane->job = NULL;
        pthread_cond_broadcast(&lane->cond);
    }
    pthread_mutex_unlock(&lane->lock);
    return NULL;
}

hive_status hive_tiered_lane_start(hive_tiered_lane *lane)
{
    if (pthread_mutex_init(&lane->lock, NULL) != 0)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive_tiered_create", "cannot initialise the lane's lock");
    if (pthread_cond_init(&lane->cond, NULL) != 0) {
        pthread_mutex_destroy(&lane->lock);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive_tiered_create", "cannot initialise the lane's condition");
    }
    int err = pthread_create(&lane->thread, NULL, lane_main, lane);
    if (err != 0) {
        pthread_cond_destroy(&lane->cond);
        pthread_mutex_destroy(&lane->lock);
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, "hive_tiered_create", "cannot start the lane's thread: error %d",
                         err);
    }
    lane->started = 1;
    return HIVE_SUCCESS;
}

void hive_tiered_lane_stop(hive_tiered_lane *lane)
{
    if (!lane->started)
        return;
    pthread_mutex_lock(&lane->lock);
    lane->stop = 1;
    pthread_cond_broadcast(&lane->cond);
    pthread_mutex_unlock(&lane->lock);
    pthread_join(lane->thread, NULL);
    pthread_cond_destroy(&lane->cond);
    pthread_mutex_destroy(&lane->lock);
    lane->started = 0;
}

void hive_tiered_lane_post(hive_tiered_lane *lane, hive_status (*job)(void *), void *arg)
{
    pthread_mutex_lock(&lane->lock);
    lane->job = job;
    lane->arg = arg;
    pthread_cond_broadcast(&lane->cond);
    pthread_mutex_unlock(&lane->lock);
}

hive_status hive_tiered_lane_wait(hive_tiered_lane *lane, const char *call)
{
    pthread_mutex_lock(&lane->lock);
    while (lane->job != NULL)
        pthread_cond_wait(&lane->cond, &lane->lock);
    hive_status s = lane->status;
    char error[sizeof lane->error];
    snprintf(error, sizeof error, "%s", lane->error);
    pthread_mutex_unlock(&lane->lock);
    return s == HIVE_SUCCESS ? s : hive_fail(s, call, "%s", error);
}
