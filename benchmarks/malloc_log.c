/* A malloc interposer for benchmarks/autograd_objects.py: loaded with LD_PRELOAD, it records every malloc,
 * calloc, realloc, posix_memalign and free the process makes between malloc_log_start(path) and
 * malloc_log_stop(), as binary records (kind, pointer, size); a realloc is recorded as the free of the old
 * block and the allocation of the new one. The calls themselves go to glibc unchanged. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

struct record {
    uint64_t kind; /* 1 malloc, 2 posix_memalign, 3 free */
    uint64_t pointer;
    uint64_t size;
};

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);
static int log_fd = -1;
static __thread int inside;
static int resolving;
/* dlsym itself may calloc before real_calloc is known: those few bytes come from here, never freed. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void resolve(void) {
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_free = dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

static void note(uint64_t kind, void *pointer, size_t size) {
    if (log_fd < 0 || inside) return;
    inside = 1;
    struct record r = {kind, (uint64_t)(uintptr_t)pointer, size};
    if (write(log_fd, &r, sizeof r) != (ssize_t)sizeof r) log_fd = -1;
    inside = 0;
}

void *malloc(size_t size) {
    if (!real_malloc) resolve();
    void *p = real_malloc(size);
    note(1, p, size);
    return p;
}

void *calloc(size_t count, size_t size) {
    if (!real_calloc) {
        if (resolving) {
            size_t n = (count * size + 15) & ~(size_t)15;
            if (bootstrap_used + n > sizeof bootstrap) return NULL;
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += n;
            return p;
        }
        resolve();
    }
    void *p = real_calloc(count, size);
    note(1, p, count * size);
    return p;
}

void *realloc(void *old, size_t size) {
    if (!real_realloc) resolve();
    void *p = real_realloc(old, size);
    if (old) note(3, old, 0);
    if (p) note(1, p, size);
    return p;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (!real_posix_memalign) resolve();
    int failed = real_posix_memalign(out, alignment, size);
    if (!failed) note(2, *out, size);
    return failed;
}

void free(void *pointer) {
    if ((char *)pointer >= bootstrap && (char *)pointer < bootstrap + sizeof bootstrap) return;
    if (!real_free) resolve();
    if (pointer) note(3, pointer, 0);
    real_free(pointer);
}

int malloc_log_start(const char *path) {
    log_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    return log_fd < 0 ? -1 : 0;
}

void malloc_log_stop(void) {
    int fd = log_fd;
    log_fd = -1;
    if (fd >= 0) close(fd);
}
