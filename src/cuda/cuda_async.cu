/* cuda_async.cu — the ordering of a table's asynchronous work (hive.h:
 * hive_find_async and the rest, and device views) against what changes its
 * layout, and the device view itself.  Each asynchronous call, and each
 * release of a device view, records an event on its stream after its work,
 * in a ring of the table's events; a resize step, a clear, a settle of the
 * size or the table's destruction first waits for every event recorded
 * since the last such wait.  A call captured in a CUDA
 * Graph records nothing: its work runs at the graph's launches, which the
 * caller orders (hive.h). */
#include <string.h>

#include "core/device_table.h"
#include "cuda_device.h"
#include "cuda_table.h"

extern "C" hive_status hive_dict_async_enqueued(hive_dict *d, cudaStream_t s, const char *call)
{
    cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
    HIVE_TRY(hive_cuda_status(cudaStreamIsCapturing(s, &capturing), call, "cudaStreamIsCapturing"));
    return capturing != cudaStreamCaptureStatusNone ? HIVE_SUCCESS : hive_dict_async_track(d, s, call);
}

extern "C" hive_status hive_dict_async_track(hive_dict *d, cudaStream_t s, const char *call)
{
    hive_status st = HIVE_SUCCESS;
    pthread_mutex_lock(&d->async_lock);
    for (int i = 0; i < HIVE_ASYNC_EVENTS && d->async_done[HIVE_ASYNC_EVENTS - 1] == NULL; i++)
        if (d->async_done[i] == NULL && cudaEventCreateWithFlags(&d->async_done[i], cudaEventDisableTiming) !=
                                            cudaSuccess) {
            cudaGetLastError();
            d->async_done[i] = NULL;
            break;
        }
    cudaEvent_t e = d->async_done[d->async_next % HIVE_ASYNC_EVENTS];
    if (e == NULL) {
        /* No events to be had: the work is waited for here instead. */
        st = hive_cuda_status(cudaStreamSynchronize(s), call, "cudaStreamSynchronize");
    } else {
        /* The work the event marked last time is waited for before the
         * event marks this call's: at most HIVE_ASYNC_EVENTS calls in flight
         * go untracked by a wait of their own. */
        st = hive_cuda_status(cudaEventSynchronize(e), call, "cudaEventSynchronize");
        if (st == HIVE_SUCCESS)
            st = hive_cuda_status(cudaEventRecord(e, s), call, "cudaEventRecord");
        if (st == HIVE_SUCCESS) {
            d->async_next++;
            d->async_pending = 1;
        }
    }
    pthread_mutex_unlock(&d->async_lock);
    return st;
}

extern "C" void hive_dict_async_wait(hive_dict *d)
{
    pthread_mutex_lock(&d->async_lock);
    if (d->async_pending) {
        for (int i = 0; i < HIVE_ASYNC_EVENTS; i++)
            if (d->async_done[i] != NULL && cudaEventSynchronize(d->async_done[i]) != cudaSuccess)
                cudaGetLastError(); /* the work's own failure is its stream's to report */
        d->async_pending = 0;
    }
    pthread_mutex_unlock(&d->async_lock);
}

extern "C" void hive_dict_async_free(hive_dict *d)
{
    hive_dict_async_wait(d);
    for (int i = 0; i < HIVE_ASYNC_EVENTS; i++)
        if (d->async_done[i] != NULL)
            cudaEventDestroy(d->async_done[i]);
    pthread_mutex_destroy(&d->async_lock);
}

extern "C" hive_status hive_dict_device_view(void *impl, void *view)
{
    hive_dict *d = (hive_dict *)impl;
    hive_device_words w;
    memset(&w, 0, sizeof w);
    w.table.view = d->view;
    w.table.S = d->bucket_slots;
    w.table.width = d->slot_words == 2 ? 64 : 32;
    w.table.counts = d->unsettled;
    memcpy(view, &w.view, sizeof w.view);
    return HIVE_SUCCESS;
}

extern "C" hive_status hive_dict_device_view_done(void *impl, hive_stream stream)
{
    hive_dict *d = (hive_dict *)impl;
    RETURN_ON_DEVICE(d, "hive_device_view_release (CUDA)",
                     hive_dict_async_enqueued(d, (cudaStream_t)stream, "hive_device_view_release (CUDA)"));
}
