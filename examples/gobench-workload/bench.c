/*
 * bench: the example workload of abfleet. Times a few file-system operations in the current
 * directory (the benchmark's volume: the guest's tmpfs /bench, or the host share /mnt/host) and
 * prints them as Go benchmark lines, which abfleet reads with "output: gobench":
 *
 *   BenchmarkStat-2            1843298    108.5 ns/op
 *   BenchmarkWriteRead64K-2       9517  21016.3 ns/op   6237.21 MB/s
 *
 * Each benchmark runs COUNT times for about MILLIS ms each (one line per run, as go test -count
 * does); abfleet takes the median of a boot's lines. Static, C11; build it with build.sh.
 *
 * Usage: bench [COUNT [MILLIS]]   (default: 3 runs of 200 ms)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define FILE_NAME "bench-file"
#define DATA_NAME "bench-data"
#define CHUNK (64 * 1024)
/* Operations between two clock reads: under TCG clock_gettime may be a real syscall. */
#define OPS_PER_CLOCK_CHECK 32

static char chunk[CHUNK];
static int data_fd = -1;

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int op_stat(long i)
{
    (void)i;
    struct stat st;
    return stat(FILE_NAME, &st);
}

static int op_open_close(long i)
{
    (void)i;
    int fd = open(FILE_NAME, O_RDONLY | O_CLOEXEC);
    return fd < 0 ? -1 : close(fd);
}

static int op_create_unlink(long i)
{
    char name[64];
    snprintf(name, sizeof name, "bench-tmp-%ld", i);
    int fd = open(name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0 || close(fd) != 0)
        return -1;
    return unlink(name);
}

/* One 64 KiB write and read back at offset 0: 128 KiB moved per op. */
static int op_write_read(long i)
{
    (void)i;
    if (pwrite(data_fd, chunk, CHUNK, 0) != CHUNK || pread(data_fd, chunk, CHUNK, 0) != CHUNK)
        return -1;
    return 0;
}

struct benchmark {
    const char *name;
    int (*op)(long i);
    long bytes_per_op; /* 0 = no MB/s column */
};

static const struct benchmark BENCHMARKS[] = {
    {"Stat", op_stat, 0},
    {"OpenClose", op_open_close, 0},
    {"CreateUnlink", op_create_unlink, 0},
    {"WriteRead64K", op_write_read, 2L * CHUNK},
};

static void run(const struct benchmark *b, long millis, long procs)
{
    long n = 0;
    int64_t start = now_ns();
    int64_t deadline = start + millis * 1000000LL;
    do {
        for (int k = 0; k < OPS_PER_CLOCK_CHECK; k++, n++) {
            if (b->op(n) != 0) {
                fprintf(stderr, "bench: %s: %s\n", b->name, strerror(errno));
                exit(1);
            }
        }
    } while (now_ns() < deadline);
    double ns = (double)(now_ns() - start);
    printf("Benchmark%s-%ld\t%ld\t%.1f ns/op", b->name, procs, n, ns / (double)n);
    if (b->bytes_per_op > 0)
        printf("\t%.2f MB/s", (double)b->bytes_per_op * (double)n / 1e6 / (ns / 1e9));
    printf("\n");
    fflush(stdout);
}

static long arg(const char *s, long min, long max, const char *what)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "bench: %s must be %ld..%ld, got '%s'\nusage: bench [COUNT [MILLIS]]\n", what, min, max, s);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? arg(argv[1], 1, 100, "COUNT") : 3;
    long millis = argc > 2 ? arg(argv[2], 1, 60000, "MILLIS") : 200;
    long procs = sysconf(_SC_NPROCESSORS_ONLN);
    int fd = open(FILE_NAME, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
    data_fd = open(DATA_NAME, O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (fd < 0 || close(fd) != 0 || data_fd < 0) {
        fprintf(stderr, "bench: cannot create its files in the current directory: %s\n", strerror(errno));
        return 1;
    }
    memset(chunk, 'x', sizeof chunk);
    struct utsname u;
    printf("goos: linux\ngoarch: %s\n", uname(&u) == 0 ? u.machine : "unknown");
    for (size_t b = 0; b < sizeof BENCHMARKS / sizeof BENCHMARKS[0]; b++)
        for (long c = 0; c < count; c++)
            run(&BENCHMARKS[b], millis, procs < 1 ? 1 : procs);
    printf("PASS\n");
    close(data_fd);
    unlink(FILE_NAME);
    unlink(DATA_NAME);
    return 0;
}
