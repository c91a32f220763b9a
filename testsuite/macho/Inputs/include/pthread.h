/* Darwin's pthread.h, what the test drivers use: threads created with
 * default attributes and joined. */
#ifndef _PTHREAD_H
#define _PTHREAD_H
typedef struct _opaque_pthread_t *pthread_t;
typedef struct _opaque_pthread_attr_t pthread_attr_t;
int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *), void *arg);
int pthread_join(pthread_t thread, void **value);
#endif
