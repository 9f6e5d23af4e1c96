/* Shared by both spike servers: the answer, the limits and the "store" thread that produces
 * answers for the async mode (one dedicated thread with a FIFO queue, as a store reader is). */
#ifndef SPIKE_COMMON_H
#define SPIKE_COMMON_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PROTOCOL.md's limits, enforced by both servers with the same status codes as HTTPCore. */
#define MAX_TARGET_BYTES (64 * 1024) /* request target → 414 */
#define MAX_HEADER_BYTES (16 * 1024) /* header fields → 431 */

/* A legacy query answer of 10 notes, 600 bytes. */
static const char answer_body[] =
    "{\"result\":0,\"notes\":["
    "{\"ID\":1,\"date\":\"2026-11-11 00:00\",\"content\":\"Note 1\"},"
    "{\"ID\":2,\"date\":\"2026-11-12 00:00\",\"content\":\"Note 2\"},"
    "{\"ID\":3,\"date\":\"2026-11-13 00:00\",\"content\":\"Note 3\"},"
    "{\"ID\":4,\"date\":\"2026-11-14 00:00\",\"content\":\"Note 4\"},"
    "{\"ID\":5,\"date\":\"2026-11-15 00:00\",\"content\":\"Note 5\"},"
    "{\"ID\":6,\"date\":\"2026-11-16 00:00\",\"content\":\"Note 6\"},"
    "{\"ID\":7,\"date\":\"2026-11-17 00:00\",\"content\":\"Note 7\"},"
    "{\"ID\":8,\"date\":\"2026-11-18 00:00\",\"content\":\"Note 8\"},"
    "{\"ID\":9,\"date\":\"2026-11-19 00:00\",\"content\":\"Note 9\"},"
    "{\"ID\":10,\"date\":\"2026-11-20 00:00\",\"content\":\"Note 10\"}"
    "],\"count\":10,\"padding\":\"xxxxxxxxxxx\"}\n";
#define ANSWER_LENGTH (sizeof(answer_body) - 1)

/* The work a store thread does for one request: here, copying the answer into a buffer the
 * job owns (a real store reads and serializes), so that both servers pay the same. */
struct job {
    struct job *next;
    void (*done)(struct job *); /* called on the store thread when the answer is ready */
    char answer[ANSWER_LENGTH];
};

struct store_thread {
    pthread_mutex_t lock;
    pthread_cond_t ready;
    struct job *head, *tail;
    pthread_t thread;
};

static void *store_thread_main(void *arg)
{
    struct store_thread *store = arg;
    for (;;) {
        pthread_mutex_lock(&store->lock);
        while (store->head == NULL)
            pthread_cond_wait(&store->ready, &store->lock);
        struct job *batch = store->head;
        store->head = store->tail = NULL;
        pthread_mutex_unlock(&store->lock);
        while (batch != NULL) {
            struct job *job = batch;
            batch = job->next;
            memcpy(job->answer, answer_body, ANSWER_LENGTH);
            job->done(job);
        }
    }
    return NULL;
}

static void store_thread_start(struct store_thread *store)
{
    pthread_mutex_init(&store->lock, NULL);
    pthread_cond_init(&store->ready, NULL);
    store->head = store->tail = NULL;
    if (pthread_create(&store->thread, NULL, store_thread_main, store) != 0) {
        perror("pthread_create");
        exit(1);
    }
}

static void store_thread_submit(struct store_thread *store, struct job *job)
{
    job->next = NULL;
    pthread_mutex_lock(&store->lock);
    int was_empty = store->head == NULL;
    if (store->tail != NULL)
        store->tail->next = job;
    else
        store->head = job;
    store->tail = job;
    pthread_mutex_unlock(&store->lock);
    if (was_empty)
        pthread_cond_signal(&store->ready);
}

enum mode { MODE_INLINE, MODE_ASYNC };

static void parse_arguments(int argc, char **argv, int *port, enum mode *mode)
{
    if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "async") != 0 && strcmp(argv[2], "inline") != 0)) {
        fprintf(stderr, "usage: %s PORT [inline|async]\n", argv[0]);
        exit(2);
    }
    *port = atoi(argv[1]);
    *mode = argc == 3 && strcmp(argv[2], "async") == 0 ? MODE_ASYNC : MODE_INLINE;
}

#endif
