/* group_lock.c — see group_lock.h. */
#include "cache/group_lock.h"

int hive_group_lock_init(hive_group_lock *l)
{
    *l = (hive_group_lock){0};
    if (pthread_mutex_init(&l->mutex, NULL) != 0)
        return -1;
    for (int g = 0; g < HIVE_GROUPS; g++) {
        if (pthread_cond_init(&l->turn[g], NULL) != 0) {
            while (g-- > 0)
                pthread_cond_destroy(&l->turn[g]);
            pthread_mutex_destroy(&l->mutex);
            return -1;
        }
    }
    return 0;
}

void hive_group_lock_destroy(hive_group_lock *l)
{
    for (int g = 0; g < HIVE_GROUPS; g++)
        pthread_cond_destroy(&l->turn[g]);
    pthread_mutex_destroy(&l->mutex);
}

static int shared(int g) { return g != HIVE_GROUP_ALONE; }

static uint64_t waiting_outside(const hive_group_lock *l, int g)
{
    uint64_t n = 0;
    for (int h = 0; h < HIVE_GROUPS; h++)
        n += h == g ? 0 : l->waiting[h];
    return n;
}

/* Lets waiters of group g in (all of them, or one for the alone group),
 * counted as holders on their behalf, so that no caller arriving meanwhile
 * can take their turn. */
static void admit(hive_group_lock *l, int g)
{
    uint64_t n = shared(g) ? l->waiting[g] : 1;
    l->inside = g;
    l->holders = n;
    l->waiting[g] -= n;
    l->admitted[g] += n;
    pthread_cond_broadcast(&l->turn[g]);
}

void hive_group_enter(hive_group_lock *l, hive_group g)
{
    pthread_mutex_lock(&l->mutex);
    if (l->holders == 0 || (shared(g) && l->inside == (int)g && waiting_outside(l, g) == 0)) {
        l->inside = g;
        l->holders++;
    } else {
        uint64_t ticket = l->tickets[g]++;
        l->waiting[g]++;
        while (l->admitted[g] <= ticket)
            pthread_cond_wait(&l->turn[g], &l->mutex);
    }
    pthread_mutex_unlock(&l->mutex);
}

void hive_group_leave(hive_group_lock *l, hive_group g)
{
    pthread_mutex_lock(&l->mutex);
    if (--l->holders == 0) {
        /* The groups after this one first, then its own waiters (who came
         * while another group was waiting). */
        for (int k = 1; k <= HIVE_GROUPS; k++) {
            int next = ((int)g + k) % HIVE_GROUPS;
            if (l->waiting[next] > 0) {
                admit(l, next);
                break;
            }
        }
    }
    pthread_mutex_unlock(&l->mutex);
}
