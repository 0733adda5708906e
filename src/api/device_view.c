/* device_view.c — hive_device_view_acquire and _release (hive.h): a view of
 * the table for the caller's kernels, and the pin that keeps the table's
 * layout while one is out (policy.c reads it). */
#include "api/table.h"
#include "base/check.h"

static hive_status acquire_entered(hive_table *t, hive_device_view *view)
{
    static const char call[] = "hive_device_view_acquire";
    HIVE_CHECK_ARG(view != NULL, call, "view is NULL");
    if (t->ops->device_view == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call, "a %s table has no device view (CUDA tables only)",
                         t->ops->name);
    /* Under the resize lock, so that no resize is under way while the view
     * is taken, and none starts before the pin is seen. */
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_status s = hive_refuse_if_broken(t, call);
    if (s == HIVE_SUCCESS)
        s = t->ops->device_view(t->impl, view);
    if (s == HIVE_SUCCESS)
        __atomic_fetch_add(&t->pins, 1, __ATOMIC_SEQ_CST);
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_device_view_acquire(hive_table *table, hive_device_view *view)
{
    HIVE_ENTERED(table, "hive_device_view_acquire", acquire_entered(table, view));
}

static hive_status release_entered(hive_table *t, hive_stream stream)
{
    static const char call[] = "hive_device_view_release";
    if (t->ops->device_view_done == NULL)
        return hive_fail(HIVE_ERROR_UNSUPPORTED, call, "a %s table has no device view (CUDA tables only)",
                         t->ops->name);
    pthread_rwlock_rdlock(&t->resize_lock);
    hive_status s = HIVE_SUCCESS;
    if (__atomic_load_n(&t->pins, __ATOMIC_SEQ_CST) == 0)
        s = hive_fail(HIVE_ERROR_INVALID_ARGUMENT, call, "no device view of this table is out");
    if (s == HIVE_SUCCESS)
        s = t->ops->device_view_done(t->impl, stream);
    if (s == HIVE_SUCCESS) {
        /* The kernels' counts are unbounded: the next asynchronous insert settles. */
        __atomic_store_n(&t->view_unsettled, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_add(&t->unsettled, 1, __ATOMIC_SEQ_CST);
        __atomic_fetch_sub(&t->pins, 1, __ATOMIC_SEQ_CST);
    }
    pthread_rwlock_unlock(&t->resize_lock);
    return s;
}

hive_status hive_device_view_release(hive_table *table, hive_stream stream)
{
    HIVE_ENTERED(table, "hive_device_view_release", release_entered(table, stream));
}
