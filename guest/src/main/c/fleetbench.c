/*
 * fleetbench: the in-guest benchmark harness of abfleet.
 *
 * Built static (gcc -static -O2 -pthread) by the worker and run as /bin/fleetbench from the
 * initramfs /init. Each metric runs warm-up then measured iterations of about
 * --iteration-ms each, timed with CLOCK_MONOTONIC, and prints one JSON object per line
 * on --out (the guest protocol, parsed by worker/.../guest/GuestProtocol.java):
 *
 *   {"event":"start","harness":"fleetbench","version":"2","kernel":...,"arch":...,"uptime_ms":N}
 *   {"metric":"metadata_stat","value":50300.0,"unit":"ops/s","better":"higher","iteration":0,"warmup":false}
 *   {"event":"error","metric":"seq_read","message":"..."}
 *   {"event":"telemetry","metric":"metadata_stat","work":123456.0,"work_unit":"ops",
 *    "interrupts":{"RES":1203,"virtio1-requests":118,...},"context_switches":2410,
 *    "interrupts_total":5120,"interrupts_per_cpu":{"RES":[601,602],...},
 *    "softirqs_per_cpu":{"SCHED":[40,38],"RCU":[12,9],...},"wakeups_per_cpu":[700,690],
 *    "thread_rates":[25100.0,25200.0]}
 *   {"event":"done","elapsed_ms":N}
 *
 * With --workload FILE it runs a user's command instead of the metrics (see "workload" below):
 *
 *   {"event":"workload","line":"BenchmarkStat-2  1000  1234 ns/op"}
 *   {"event":"workload_end","exit_status":0,"signal":0,"timed_out":false,"flooded":false,
 *    "timeout_s":600,"lines":12,"elapsed_ms":N}
 *   {"event":"telemetry","metric":"workload","work":1.000,"work_unit":"run",...}
 *
 * --threads N threads (default: one per online CPU) run each metric at once, thread i in
 * DIR/t<i> on its own files (its own seq_read file, metadata files and tree; the find_recursive /
 * rm_rf tree sizes add up to --files). An iteration starts them together and ends when every
 * thread is done; its sample is the aggregate rate: all threads' units over the iteration's
 * time.
 *
 * Iterations are numbered from 0 within a metric; warm-up iterations come first. After a
 * metric's measured iterations, one telemetry line gives what the guest kernel counted during
 * their timed parts only (untimed preparation such as rm_rf's tree creation is left out):
 * each /proc/interrupts row summed over CPUs (named rows such as RES, CAL, TLB or IPI0 by their
 * name, numbered IRQs by their device, e.g. virtio1-requests; rows that did not move are left
 * out), and the ctxt and intr counters of /proc/stat. work is what the measured iterations did
 * in the metric's unit (ops, or MiB for seq_read), so a row's count per unit of work compares
 * across arms. The same rows per CPU (in column order, CPU0 first; ERR and MIS have no split),
 * /proc/softirqs rows per CPU, and wake-ups per CPU (/proc/schedstat ttwu_count, version 15 or
 * later; the key is absent without schedstat; kernel.sched_schedstats is switched on at start)
 * show where the work landed. thread_rates is each thread's units per second over its own
 * running time in the measured iterations, in the metric's unit.
 * Exit status: 0 all metrics ran (or the workload exited 0), 1 at least one metric failed (or the
 * workload failed, or --out unusable), 2 bad arguments.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define HARNESS_VERSION "2"
#define META_FILES 256
/* Files per leaf directory of the find_recursive / rm_rf tree, and leaf directories per
 * first-level directory: a tree of N files has N/20 leaves under N/200 parents. */
#define TREE_FILES_PER_DIR 20
#define TREE_DIRS_PER_DIR 10
#define IRQ_ROWS 512
#define IRQ_NAME 64
/* CPU columns kept per /proc row, and the most --threads. */
#define MAX_CPUS 256
#define MAX_THREADS 256
#define SEQ_DEFAULT_MIB 16
#define SEQ_MAX_MIB 4096
#define FILE_SIZE_MAX (16L * 1024 * 1024)
#define SEQ_CHUNK (128 * 1024)
/* Operations between two clock reads: under TCG clock_gettime may be a real syscall. */
#define OPS_PER_CLOCK_CHECK 32

struct options {
    const char *out;
    const char *dir;
    char metrics[256];
    long iterations;
    long iteration_ms;
    long warmup;
    long files; /* files in the find_recursive / rm_rf trees, all threads together */
    long threads;   /* 0 = the online CPUs */
    long seq_mib;   /* seq_read's file per thread */
    long file_size; /* bytes in each file the metadata and tree metrics create */
    int cold;   /* drop the page, dentry and inode caches before each iteration */
    const char *workload;  /* file holding a shell command to run instead of the metrics */
    long workload_timeout; /* seconds before the workload's process group is killed */
};

struct worker;

/* One metric, run by every harness thread at once in its own directory: setup runs once before
 * its iterations; prepare (may be NULL) before each iteration, untimed; run performs operations
 * until the thread's deadline (or, for a one-shot metric, once) and returns the number of units
 * done (ops or bytes), or -1 with errno and a message in the thread's err. */
struct metric {
    const char *name;
    const char *unit;
    const char *work_unit; /* what one reported unit counts: "ops" or "MiB" */
    double unit_divisor;   /* units per reported unit, e.g. bytes per MiB */
    int (*setup)(struct worker *w);
    int (*prepare)(struct worker *w);
    long long (*run)(struct worker *w);
};

static FILE *out;
static long tree_files = 2000;                  /* --files */
static long seq_bytes = SEQ_DEFAULT_MIB << 20;  /* --seq-size */
static long file_size;                          /* --file-size */
static int nthreads = 1;                        /* --threads, resolved */
static char fill_buf[SEQ_CHUNK];                /* what files are filled with; read-only once set */

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Writes the n bytes at s as a JSON string literal (quotes included); returns the bytes written. */
static size_t json_bytes(const char *s, size_t n)
{
    size_t written = 2;
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; p < (const unsigned char *)s + n; p++) {
        if (*p == '"' || *p == '\\') {
            fprintf(out, "\\%c", *p);
            written += 2;
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(out, "\\u%04x", *p);
            written += 6;
        } else {
            fputc(*p, out);
            written++;
        }
    }
    fputc('"', out);
    return written;
}

/* Writes s as a JSON string literal (quotes included). */
static void json_string(const char *s)
{
    json_bytes(s, strlen(s));
}

static void end_line(void)
{
    fputc('\n', out);
    fflush(out);
}

static void emit_error(const char *metric, const char *message)
{
    fputs("{\"event\":\"error\",\"metric\":", out);
    json_string(metric);
    fputs(",\"message\":", out);
    json_string(message);
    fputc('}', out);
    end_line();
}

static void format_err(char *err, size_t errlen, const char *fmt, ...)
{
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < errlen)
        snprintf(err + n, errlen - (size_t)n, ": %s", strerror(saved));
}

/* ---- metrics ------------------------------------------------------------------ */

/* One harness thread: its directory DIR/t<index>, its share of the tree, and what its last phase
 * did. Metric functions get their thread and return -1 with errno and a message in err. */
struct worker {
    int index;
    char dir[PATH_MAX / 2 + 16]; /* --dir is at most PATH_MAX / 2 */
    long tree_files;             /* this thread's share of --files */
    unsigned long long serial;   /* create_delete: unique names across iterations */
    const struct metric *m;
    int phase;
    int64_t deadline;
    long long units;  /* what the phase returned; -1 = failed, err says why */
    int64_t elapsed;  /* ns the phase took on this thread */
    long long measured_units; /* run phases of the measured iterations */
    int64_t measured_ns;
    char err[512];
};

/* mkdir that accepts an existing directory; 0, or -1 with err set. */
static int ensure_dir(const char *path, char *err, size_t errlen)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        format_err(err, errlen, "mkdir %s", path);
        return -1;
    }
    return 0;
}

/* Writes --file-size bytes of the fill pattern to fd; 0, or -1 with err set. */
static int write_fill(int fd, long long bytes, const char *path, char *err, size_t errlen)
{
    while (bytes > 0) {
        size_t n = bytes < SEQ_CHUNK ? (size_t)bytes : SEQ_CHUNK;
        ssize_t w = write(fd, fill_buf, n);
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            format_err(err, errlen, "write %s", path);
            return -1;
        }
        bytes -= w;
    }
    return 0;
}

/* Creates path (O_EXCL when excl) holding --file-size bytes; 0, or -1 with err set. */
static int create_file(const char *path, int excl, char *err, size_t errlen)
{
    int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC | (excl ? O_EXCL : 0), 0644);
    if (fd < 0) {
        format_err(err, errlen, "create %s", path);
        return -1;
    }
    if (write_fill(fd, file_size, path, err, errlen) != 0) {
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        format_err(err, errlen, "close %s", path);
        return -1;
    }
    return 0;
}

static void meta_path(char *buf, size_t len, const char *dir, const char *prefix, long i)
{
    snprintf(buf, len, "%s/fleetbench-meta/%s%05ld", dir, prefix, i);
}

static int setup_meta(struct worker *w)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/fleetbench-meta", w->dir);
    if (ensure_dir(path, w->err, sizeof w->err) != 0)
        return -1;
    for (long i = 0; i < META_FILES; i++) {
        meta_path(path, sizeof path, w->dir, "f", i);
        if (create_file(path, 0, w->err, sizeof w->err) != 0)
            return -1;
    }
    return 0;
}

static long long run_metadata_stat(struct worker *w)
{
    char path[PATH_MAX];
    struct stat st;
    long long ops = 0;
    do {
        for (int k = 0; k < OPS_PER_CLOCK_CHECK; k++, ops++) {
            meta_path(path, sizeof path, w->dir, "f", (long)(ops % META_FILES));
            if (stat(path, &st) != 0) {
                format_err(w->err, sizeof w->err, "stat %s", path);
                return -1;
            }
        }
    } while (now_ns() < w->deadline);
    return ops;
}

static long long run_negative_lookup(struct worker *w)
{
    char path[PATH_MAX];
    struct stat st;
    long long ops = 0;
    do {
        for (int k = 0; k < OPS_PER_CLOCK_CHECK; k++, ops++) {
            meta_path(path, sizeof path, w->dir, "missing-", (long)(ops % META_FILES));
            if (stat(path, &st) == 0) {
                errno = EEXIST;
                format_err(w->err, sizeof w->err, "stat %s unexpectedly succeeded", path);
                return -1;
            }
            if (errno != ENOENT) {
                format_err(w->err, sizeof w->err, "stat %s", path);
                return -1;
            }
        }
    } while (now_ns() < w->deadline);
    return ops;
}

static int setup_create_delete(struct worker *w)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/fleetbench-cd", w->dir);
    return ensure_dir(path, w->err, sizeof w->err);
}

static long long run_create_delete(struct worker *w)
{
    char path[PATH_MAX];
    long long ops = 0;
    pid_t pid = getpid();
    do {
        for (int k = 0; k < OPS_PER_CLOCK_CHECK; k++, ops++) {
            snprintf(path, sizeof path, "%s/fleetbench-cd/c%ld-%llu", w->dir, (long)pid, w->serial++);
            if (create_file(path, 1, w->err, sizeof w->err) != 0)
                return -1;
            if (unlink(path) != 0) {
                format_err(w->err, sizeof w->err, "unlink %s", path);
                return -1;
            }
        }
    } while (now_ns() < w->deadline);
    return ops;
}

/* Each thread reads into its own buffer. */
static _Thread_local char seq_buf[SEQ_CHUNK];

static void seq_path(char *buf, size_t len, const char *dir)
{
    snprintf(buf, len, "%s/fleetbench-seq.dat", dir);
}

static int setup_seq_read(struct worker *w)
{
    char path[PATH_MAX];
    seq_path(path, sizeof path, w->dir);
    int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) {
        format_err(w->err, sizeof w->err, "create %s", path);
        return -1;
    }
    if (write_fill(fd, seq_bytes, path, w->err, sizeof w->err) != 0) {
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        format_err(w->err, sizeof w->err, "close %s", path);
        return -1;
    }
    return 0;
}

static long long run_seq_read(struct worker *w)
{
    char path[PATH_MAX];
    seq_path(path, sizeof path, w->dir);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        format_err(w->err, sizeof w->err, "open %s", path);
        return -1;
    }
    long long bytes = 0;
    for (;;) {
        ssize_t n = read(fd, seq_buf, SEQ_CHUNK);
        if (n < 0) {
            format_err(w->err, sizeof w->err, "read %s", path);
            close(fd);
            return -1;
        }
        bytes += n;
        if (n == 0 && lseek(fd, 0, SEEK_SET) != 0) {
            format_err(w->err, sizeof w->err, "rewind %s", path);
            close(fd);
            return -1;
        }
        if (now_ns() >= w->deadline)
            break;
    }
    close(fd);
    return bytes;
}

/* The tree: ROOT/dI/eJ/fK, files spread TREE_FILES_PER_DIR to a leaf directory. */
static void tree_root(char *buf, size_t len, const char *dir)
{
    snprintf(buf, len, "%s/fleetbench-tree", dir);
}

static int make_tree(struct worker *w)
{
    char path[PATH_MAX];
    char root[PATH_MAX / 2 + 48];
    tree_root(root, sizeof root, w->dir);
    if (ensure_dir(root, w->err, sizeof w->err) != 0)
        return -1;
    long files = w->tree_files;
    long leaves = (files + TREE_FILES_PER_DIR - 1) / TREE_FILES_PER_DIR;
    for (long leaf = 0; leaf < leaves; leaf++) {
        if (leaf % TREE_DIRS_PER_DIR == 0) {
            snprintf(path, sizeof path, "%s/d%ld", root, leaf / TREE_DIRS_PER_DIR);
            if (ensure_dir(path, w->err, sizeof w->err) != 0)
                return -1;
        }
        snprintf(path, sizeof path, "%s/d%ld/e%ld", root, leaf / TREE_DIRS_PER_DIR, leaf);
        if (ensure_dir(path, w->err, sizeof w->err) != 0)
            return -1;
        for (long f = leaf * TREE_FILES_PER_DIR; f < files && f < (leaf + 1) * TREE_FILES_PER_DIR; f++) {
            snprintf(path, sizeof path, "%s/d%ld/e%ld/f%ld", root, leaf / TREE_DIRS_PER_DIR, leaf, f);
            if (create_file(path, 0, w->err, sizeof w->err) != 0)
                return -1;
        }
    }
    return 0;
}


/* Visits every entry below path (lstat each, recurse into directories); remove = unlink and
 * rmdir on the way back. Returns entries visited, or -1 with err set. */
static long long walk(char *path, size_t len, int remove, char *err, size_t errlen)
{
    DIR *d = opendir(path);
    if (d == NULL) {
        format_err(err, errlen, "opendir %s", path);
        return -1;
    }
    long long n = 0;
    size_t base = strlen(path);
    struct dirent *e;
    errno = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path + base, len - base, "/%s", e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0) {
            format_err(err, errlen, "lstat %s", path);
            closedir(d);
            return -1;
        }
        n++;
        if (S_ISDIR(st.st_mode)) {
            long long sub = walk(path, len, remove, err, errlen);
            if (sub < 0) {
                closedir(d);
                return -1;
            }
            n += sub;
            if (remove && rmdir(path) != 0) {
                format_err(err, errlen, "rmdir %s", path);
                closedir(d);
                return -1;
            }
        } else if (remove && unlink(path) != 0) {
            format_err(err, errlen, "unlink %s", path);
            closedir(d);
            return -1;
        }
        path[base] = '\0';
        errno = 0;
    }
    int failed = errno != 0;
    path[base] = '\0';
    closedir(d);
    if (failed) {
        format_err(err, errlen, "readdir %s", path);
        return -1;
    }
    return n;
}


static long long run_find_recursive(struct worker *w)
{
    char path[PATH_MAX];
    long long entries = 0;
    do {
        tree_root(path, sizeof path, w->dir);
        long long n = walk(path, sizeof path, 0, w->err, sizeof w->err);
        if (n < 0)
            return -1;
        entries += n;
    } while (now_ns() < w->deadline);
    return entries;
}

/* rm_rf: the tree is built before each iteration, untimed; one iteration removes it once. */
static int setup_none(struct worker *w)
{
    (void)w;
    return 0;
}

static long long run_rm_rf(struct worker *w)
{
    char path[PATH_MAX];
    tree_root(path, sizeof path, w->dir);
    long long n = walk(path, sizeof path, 1, w->err, sizeof w->err);
    if (n < 0)
        return -1;
    if (rmdir(path) != 0) {
        format_err(w->err, sizeof w->err, "rmdir %s", path);
        return -1;
    }
    return n + 1;
}

static const struct metric METRICS[] = {
    {"metadata_stat", "ops/s", "ops", 1.0, setup_meta, NULL, run_metadata_stat},
    {"negative_lookup", "ops/s", "ops", 1.0, setup_meta, NULL, run_negative_lookup},
    {"create_delete", "ops/s", "ops", 1.0, setup_create_delete, NULL, run_create_delete},
    {"seq_read", "MiB/s", "MiB", 1024.0 * 1024.0, setup_seq_read, NULL, run_seq_read},
    {"find_recursive", "ops/s", "ops", 1.0, make_tree, NULL, run_find_recursive},
    {"rm_rf", "ops/s", "ops", 1.0, setup_none, make_tree, run_rm_rf},
};
#define METRIC_COUNT (sizeof METRICS / sizeof METRICS[0])


/* ---- telemetry --------------------------------------------------------------- */

/* A /proc table of rows by CPU columns (/proc/interrupts, /proc/softirqs): each row summed over
 * CPUs and per CPU, in column order. rows = -1: the file could not be read. */
struct table {
    int rows;
    int cpus; /* columns, at most MAX_CPUS */
    char name[IRQ_ROWS][IRQ_NAME];
    unsigned long long count[IRQ_ROWS];
    unsigned long long per_cpu[IRQ_ROWS][MAX_CPUS];
    unsigned char partial[IRQ_ROWS]; /* fewer columns than CPUs (ERR, MIS): no per-CPU split */
};

/* What the guest kernel has counted: the two tables, wake-ups per CPU (/proc/schedstat
 * ttwu_count), and the ctxt and intr lines of /proc/stat. A source that cannot be read is
 * marked absent (-1). */
struct counters {
    struct table irq;
    struct table softirq;
    int wake_cpus; /* -1 = no usable /proc/schedstat */
    unsigned long long wakeups[MAX_CPUS];
    long long ctxt; /* -1 = unknown */
    long long intr;
};

static const char *interrupts_path = "/proc/interrupts";
static const char *softirqs_path = "/proc/softirqs";
static const char *schedstat_path = "/proc/schedstat";

/* The row's name: a named row (RES, IPI0, NMI) by its label, a numbered IRQ by its device (the
 * last word of the line), so the same device keeps its name across kernels. */
static void row_name(char *dst, const char *label, const char *rest)
{
    int numbered = 1;
    for (const char *p = label; *p; p++)
        if (*p < '0' || *p > '9')
            numbered = 0;
    const char *name = label;
    char last[IRQ_NAME] = "";
    if (numbered) {
        const char *end = rest + strlen(rest);
        while (end > rest && (end[-1] == ' ' || end[-1] == '\n' || end[-1] == '\t'))
            end--;
        const char *start = end;
        while (start > rest && start[-1] != ' ' && start[-1] != '\t')
            start--;
        snprintf(last, sizeof last, "%.*s", (int)(end - start < IRQ_NAME - 1 ? end - start : IRQ_NAME - 1), start);
        if (*last != '\0' && !(*last >= '0' && *last <= '9'))
            name = last;
    }
    snprintf(dst, IRQ_NAME, "%.*s", IRQ_NAME - 1, name);
}

static int row_index(const struct table *t, const char *name)
{
    for (int i = 0; i < t->rows; i++)
        if (strcmp(t->name[i], name) == 0)
            return i;
    return -1;
}

/* Adds n (and per_cpu[0..cpus)) to the row called name, creating it; rows past IRQ_ROWS are
 * dropped. */
static void add_row(struct table *t, const char *name, unsigned long long n, const unsigned long long *per_cpu,
                    int cpus, int partial)
{
    int i = row_index(t, name);
    if (i < 0) {
        if (t->rows >= IRQ_ROWS)
            return;
        i = t->rows++;
        snprintf(t->name[i], IRQ_NAME, "%s", name);
        t->count[i] = 0;
        memset(t->per_cpu[i], 0, sizeof t->per_cpu[i]);
        t->partial[i] = 0;
    }
    t->count[i] += n;
    for (int c = 0; c < cpus; c++)
        t->per_cpu[i][c] += per_cpu[c];
    t->partial[i] |= (unsigned char)partial;
}

static void read_table(const char *path, struct table *t)
{
    t->rows = -1;
    t->cpus = 0;
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return;
    t->rows = 0;
    static char line[16384]; /* read on the main thread only */
    int cpus = 0;
    if (fgets(line, sizeof line, f) != NULL) {
        for (char *p = line; (p = strstr(p, "CPU")) != NULL; p += 3)
            cpus++;
    }
    t->cpus = cpus < MAX_CPUS ? cpus : MAX_CPUS;
    while (fgets(line, sizeof line, f) != NULL) {
        char *colon = strchr(line, ':');
        if (colon == NULL)
            continue;
        *colon = '\0';
        char *label = line;
        while (*label == ' ')
            label++;
        char *p = colon + 1;
        unsigned long long sum = 0, per_cpu[MAX_CPUS];
        int columns = 0;
        for (int i = 0; i < cpus; i++) {
            char *end;
            unsigned long long v = strtoull(p, &end, 10);
            if (end == p)
                break; /* ERR: and MIS: have one column */
            sum += v;
            if (i < MAX_CPUS)
                per_cpu[i] = v;
            columns++;
            p = end;
        }
        for (int i = columns; i < t->cpus; i++)
            per_cpu[i] = 0;
        char name[IRQ_NAME];
        row_name(name, label, p);
        add_row(t, name, sum, per_cpu, t->cpus, columns < cpus);
    }
    fclose(f);
}

/* ttwu_count of each "cpuN" line; schedstat versions before 15 order the fields otherwise and
 * count as absent. */
static void read_schedstat(struct counters *c)
{
    c->wake_cpus = -1;
    FILE *f = fopen(schedstat_path, "re");
    if (f == NULL)
        return;
    char line[1024];
    int version = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "version %d", &version) == 1) {
            if (version < 15)
                break;
            c->wake_cpus = 0;
            continue;
        }
        int cpu;
        unsigned long long yld, legacy, sched, goidle, ttwu;
        if (c->wake_cpus < 0 || sscanf(line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &yld, &legacy, &sched, &goidle,
                                       &ttwu) != 6)
            continue;
        if (cpu < 0 || cpu >= MAX_CPUS)
            continue;
        for (int i = c->wake_cpus; i < cpu; i++)
            c->wakeups[i] = 0;
        c->wakeups[cpu] = ttwu;
        if (cpu + 1 > c->wake_cpus)
            c->wake_cpus = cpu + 1;
    }
    fclose(f);
}

static void read_counters(struct counters *c)
{
    read_table(interrupts_path, &c->irq);
    read_table(softirqs_path, &c->softirq);
    read_schedstat(c);
    c->ctxt = -1;
    c->intr = -1;
    FILE *f = fopen("/proc/stat", "re");
    if (f == NULL)
        return;
    static char line[8192];
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "ctxt ", 5) == 0)
            c->ctxt = strtoll(line + 5, NULL, 10);
        else if (strncmp(line, "intr ", 5) == 0)
            c->intr = strtoll(line + 5, NULL, 10);
    }
    fclose(f);
}

/* An empty sum: every source present until a reading lacks it. */
static void clear_counters(struct counters *c)
{
    c->irq.rows = c->irq.cpus = 0;
    c->softirq.rows = c->softirq.cpus = 0;
    c->wake_cpus = 0;
    memset(c->wakeups, 0, sizeof c->wakeups);
    c->ctxt = c->intr = 0;
}

static unsigned long long delta(unsigned long long before, unsigned long long after)
{
    return after > before ? after - before : 0;
}

/* sum += after - before, row by row and CPU by CPU (a row only in after counts from 0). */
static void accumulate_table(struct table *sum, const struct table *before, const struct table *after)
{
    if (before->rows < 0 || after->rows < 0)
        sum->rows = -1;
    if (sum->rows < 0)
        return;
    if (after->cpus > sum->cpus)
        sum->cpus = after->cpus;
    for (int i = 0; i < after->rows; i++) {
        int b = row_index(before, after->name[i]);
        unsigned long long per_cpu[MAX_CPUS];
        for (int c = 0; c < after->cpus; c++)
            per_cpu[c] = delta(b >= 0 && c < before->cpus ? before->per_cpu[b][c] : 0, after->per_cpu[i][c]);
        unsigned long long n = delta(b >= 0 ? before->count[b] : 0, after->count[i]);
        if (n > 0)
            add_row(sum, after->name[i], n, per_cpu, after->cpus, after->partial[i]);
    }
}

static void accumulate(struct counters *sum, const struct counters *before, const struct counters *after)
{
    accumulate_table(&sum->irq, &before->irq, &after->irq);
    accumulate_table(&sum->softirq, &before->softirq, &after->softirq);
    if (before->wake_cpus < 0 || after->wake_cpus < 0 || sum->wake_cpus < 0) {
        sum->wake_cpus = -1;
    } else {
        for (int c = 0; c < after->wake_cpus; c++)
            sum->wakeups[c] += delta(c < before->wake_cpus ? before->wakeups[c] : 0, after->wakeups[c]);
        if (after->wake_cpus > sum->wake_cpus)
            sum->wake_cpus = after->wake_cpus;
    }
    if (before->ctxt < 0 || after->ctxt < 0 || sum->ctxt < 0)
        sum->ctxt = -1;
    else
        sum->ctxt += after->ctxt - before->ctxt;
    if (before->intr < 0 || after->intr < 0 || sum->intr < 0)
        sum->intr = -1;
    else
        sum->intr += after->intr - before->intr;
}

static void emit_counts(const unsigned long long *v, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++)
        fprintf(out, i > 0 ? ",%llu" : "%llu", v[i]);
    fputc(']', out);
}

/* ,"key":{"ROW":n,...} of the rows that moved (all rows: moved_only = 0). */
static void emit_sums(const char *key, const struct table *t, int moved_only)
{
    fprintf(out, ",\"%s\":{", key);
    int first = 1;
    for (int i = 0; i < t->rows; i++) {
        if (moved_only && t->count[i] == 0)
            continue;
        if (!first)
            fputc(',', out);
        first = 0;
        json_string(t->name[i]);
        fprintf(out, ":%llu", t->count[i]);
    }
    fputc('}', out);
}

/* ,"key":{"ROW":[cpu0,cpu1,...],...}: rows with one count per CPU (not ERR or MIS). */
static void emit_per_cpu(const char *key, const struct table *t, int moved_only)
{
    fprintf(out, ",\"%s\":{", key);
    int first = 1;
    for (int i = 0; i < t->rows; i++) {
        if ((moved_only && t->count[i] == 0) || t->partial[i])
            continue;
        if (!first)
            fputc(',', out);
        first = 0;
        json_string(t->name[i]);
        fputc(':', out);
        emit_counts(t->per_cpu[i], t->cpus);
    }
    fputc('}', out);
}

static void emit_counters(const struct counters *c, int moved_only)
{
    if (c->irq.rows >= 0)
        emit_per_cpu("interrupts_per_cpu", &c->irq, moved_only);
    if (c->softirq.rows >= 0)
        emit_per_cpu("softirqs_per_cpu", &c->softirq, moved_only);
    if (c->wake_cpus >= 0) {
        fputs(",\"wakeups_per_cpu\":", out);
        emit_counts(c->wakeups, c->wake_cpus);
    }
}

/* rates: one per harness thread (NULL: none, the workload). */
static void emit_telemetry(const struct metric *m, double work, const struct counters *sum, const double *rates,
                           int nrates)
{
    fputs("{\"event\":\"telemetry\",\"metric\":", out);
    json_string(m->name);
    fprintf(out, ",\"work\":%.3f,\"work_unit\":\"%s\"", work, m->work_unit);
    if (sum->irq.rows >= 0)
        emit_sums("interrupts", &sum->irq, 1);
    if (sum->ctxt >= 0)
        fprintf(out, ",\"context_switches\":%lld", sum->ctxt);
    if (sum->intr >= 0)
        fprintf(out, ",\"interrupts_total\":%lld", sum->intr);
    emit_counters(sum, 1);
    if (nrates > 0) {
        fputs(",\"thread_rates\":[", out);
        for (int i = 0; i < nrates; i++)
            fprintf(out, i > 0 ? ",%.3f" : "%.3f", rates[i]);
        fputc(']', out);
    }
    fputc('}', out);
    end_line();
}

/* Makes schedstat count wake-ups (kernel.sched_schedstats is off by default); best effort. */
static void enable_schedstats(void)
{
    int fd = open("/proc/sys/kernel/sched_schedstats", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    if (write(fd, "1\n", 2) != 2)
        fprintf(stderr, "fleetbench: cannot enable sched_schedstats: %s\n", strerror(errno));
    close(fd);
}

/* ---- running ------------------------------------------------------------------- */

/* Drops clean page cache, dentries and inodes (cache: cold); 0, or -1 with err set. */
static int drop_caches(char *err, size_t errlen)
{
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "3\n", 2) != 2) {
        format_err(err, errlen, "cache cold: cannot write /proc/sys/vm/drop_caches");
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

enum phase { PHASE_SETUP, PHASE_PREPARE, PHASE_RUN };

static struct worker workers[MAX_THREADS];

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    int64_t start = now_ns();
    switch (w->phase) {
    case PHASE_SETUP:
        w->units = ensure_dir(w->dir, w->err, sizeof w->err) != 0 ? -1 : w->m->setup(w);
        break;
    case PHASE_PREPARE:
        w->units = w->m->prepare(w);
        break;
    default:
        w->units = w->m->run(w);
        break;
    }
    w->elapsed = now_ns() - start;
    return NULL;
}

/* Runs one phase of m on every thread at once (thread 0 on the calling thread) and waits for
 * all; returns the first thread that failed, or NULL. */
static struct worker *run_phase(const struct metric *m, enum phase phase, int64_t deadline)
{
    static pthread_t tids[MAX_THREADS];
    static int started[MAX_THREADS];
    for (int i = 0; i < nthreads; i++) {
        workers[i].m = m;
        workers[i].phase = phase;
        workers[i].deadline = deadline;
    }
    for (int i = 1; i < nthreads; i++) {
        int rc = pthread_create(&tids[i], NULL, worker_main, &workers[i]);
        started[i] = rc == 0;
        if (rc != 0) {
            errno = rc;
            format_err(workers[i].err, sizeof workers[i].err, "cannot start thread %d", i);
            workers[i].units = -1;
        }
    }
    worker_main(&workers[0]);
    for (int i = 1; i < nthreads; i++)
        if (started[i])
            pthread_join(tids[i], NULL);
    for (int i = 0; i < nthreads; i++)
        if (workers[i].units < 0)
            return &workers[i];
    return NULL;
}

/* Gives each thread its directory and its share of the tree: --files split as evenly as
 * possible, the first files % threads threads one more. */
static void init_workers(const char *dir)
{
    for (int i = 0; i < nthreads; i++) {
        workers[i].index = i;
        snprintf(workers[i].dir, sizeof workers[i].dir, "%s/t%d", dir, i);
        workers[i].tree_files = tree_files / nthreads + (i < tree_files % nthreads ? 1 : 0);
    }
}

/* Runs one metric; returns 0 on success, -1 after emitting an error event. */
static int run_metric(const struct metric *m, const struct options *o)
{
    char err[512] = "";
    struct worker *failed = run_phase(m, PHASE_SETUP, 0);
    if (failed != NULL) {
        emit_error(m->name, failed->err);
        return -1;
    }
    static struct counters sum, before, after;
    clear_counters(&sum);
    for (int i = 0; i < nthreads; i++)
        workers[i].measured_units = workers[i].measured_ns = 0;
    double work = 0;
    long total = o->warmup + o->iterations;
    for (long it = 0; it < total; it++) {
        if (m->prepare != NULL && (failed = run_phase(m, PHASE_PREPARE, 0)) != NULL) {
            emit_error(m->name, failed->err);
            return -1;
        }
        if (o->cold && drop_caches(err, sizeof err) != 0) {
            emit_error(m->name, err);
            return -1;
        }
        int measured = it >= o->warmup;
        if (measured)
            read_counters(&before);
        int64_t start = now_ns();
        failed = run_phase(m, PHASE_RUN, start + o->iteration_ms * 1000000LL);
        int64_t elapsed = now_ns() - start;
        if (measured)
            read_counters(&after);
        if (failed != NULL) {
            emit_error(m->name, failed->err);
            return -1;
        }
        long long units = 0;
        for (int i = 0; i < nthreads; i++)
            units += workers[i].units;
        double value = (double)units / m->unit_divisor / ((double)elapsed / 1e9);
        fprintf(out, "{\"metric\":\"%s\",\"value\":%.3f,\"unit\":\"%s\",\"better\":\"higher\","
                     "\"iteration\":%ld,\"warmup\":%s}",
                m->name, value, m->unit, it, measured ? "false" : "true");
        end_line();
        if (measured) {
            accumulate(&sum, &before, &after);
            work += (double)units / m->unit_divisor;
            for (int i = 0; i < nthreads; i++) {
                workers[i].measured_units += workers[i].units;
                workers[i].measured_ns += workers[i].elapsed;
            }
        }
    }
    double rates[MAX_THREADS];
    for (int i = 0; i < nthreads; i++)
        rates[i] = workers[i].measured_ns > 0
                       ? (double)workers[i].measured_units / m->unit_divisor / ((double)workers[i].measured_ns / 1e9)
                       : 0;
    emit_telemetry(m, work, &sum, rates, nthreads);
    return 0;
}


/* ---- workload ------------------------------------------------------------------ */

/* A user workload (--workload FILE): FILE holds a shell command, run once by /bin/sh -c in --dir,
 * in a process group of its own, stdin /dev/null, stderr on ours (the console). Each line of its
 * stdout goes to --out as {"event":"workload","line":"..."}: inside a JSON string, no output can
 * pass for a protocol line. A line longer than WORKLOAD_LINE_MAX is cut there ("cut":true). The
 * process group is killed at --workload-timeout, or once the forwarded lines pass
 * WORKLOAD_OUTPUT_MAX bytes (a flood, well inside the worker's 1 MiB cap on the channel). Then
 * one workload_end event, and the telemetry of the whole run as metric "workload" (1 run). */
#define WORKLOAD_COMMAND_MAX (64 * 1024)
#define WORKLOAD_LINE_MAX 4096
#define WORKLOAD_OUTPUT_MAX (512L * 1024)
/* How long output is still read after the command exited, for children of it still writing. */
#define WORKLOAD_DRAIN_MS 1000
#define WORKLOAD_POLL_MS 50

static const struct metric WORKLOAD_METRIC = {"workload", "", "run", 1.0, NULL, NULL, NULL};

struct workload_run {
    pid_t pid;
    char line[WORKLOAD_LINE_MAX];
    size_t len;
    int cut;             /* the current line passed WORKLOAD_LINE_MAX: the rest of it is dropped */
    long lines;          /* lines forwarded */
    long long forwarded; /* bytes of workload events written */
    int flooded;
    int killed;
};

static void kill_workload(struct workload_run *w)
{
    if (!w->killed) {
        kill(-w->pid, SIGKILL);
        w->killed = 1;
    }
}

static void forward_line(struct workload_run *w)
{
    if (w->flooded)
        return;
    fputs("{\"event\":\"workload\",\"line\":", out);
    size_t n = strlen("{\"event\":\"workload\",\"line\":}\n") + json_bytes(w->line, w->len);
    if (w->cut) {
        fputs(",\"cut\":true", out);
        n += 11;
    }
    fputc('}', out);
    end_line();
    w->lines++;
    w->forwarded += (long long)n;
    if (w->forwarded > WORKLOAD_OUTPUT_MAX) {
        w->flooded = 1;
        kill_workload(w);
    }
}

/* Splits what the workload wrote into lines and forwards each whole one. */
static void feed(struct workload_run *w, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == '\n') {
            forward_line(w);
            w->len = 0;
            w->cut = 0;
        } else if (w->len < sizeof w->line) {
            w->line[w->len++] = buf[i];
        } else {
            w->cut = 1;
        }
    }
}

/* Reads the command in path into buf (NUL-terminated); 0, or -1 with err set. */
static int read_command(const char *path, char *buf, size_t size, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        format_err(err, errlen, "open --workload %s", path);
        return -1;
    }
    size_t len = 0;
    ssize_t n = 0;
    while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
        len += (size_t)n;
    int failed = n < 0;
    close(fd);
    if (failed) {
        format_err(err, errlen, "read --workload %s", path);
        return -1;
    }
    buf[len] = '\0';
    if (len == size - 1) {
        snprintf(err, errlen, "--workload %s: the command is longer than %zu bytes", path, size - 2);
        return -1;
    }
    if (strspn(buf, " \t\r\n") == len) {
        snprintf(err, errlen, "--workload %s: the command is empty", path);
        return -1;
    }
    return 0;
}

/* The child: its own process group, stdin /dev/null, stdout the pipe, in --dir; never returns. */
static void exec_workload(const char *command, const char *dir, int stdout_fd)
{
    setpgid(0, 0);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0)
        dup2(devnull, STDIN_FILENO);
    dup2(stdout_fd, STDOUT_FILENO);
    if (chdir(dir) != 0) {
        fprintf(stderr, "fleetbench: workload: cannot enter %s: %s\n", dir, strerror(errno));
        _exit(126);
    }
    execl("/bin/sh", "sh", "-c", command, (char *)NULL);
    fprintf(stderr, "fleetbench: workload: cannot run /bin/sh: %s\n", strerror(errno));
    _exit(127);
}

/* Reads the workload's output until it exited and its output ended (or the drain time passed),
 * killing it at the deadline; returns its wait status, with the counters read when it exited. */
static int watch_workload(struct workload_run *w, int fd, int64_t deadline, int *timed_out,
                          struct counters *after, int64_t *ended)
{
    int status = 0, reaped = 0, eof = 0;
    int64_t drain_until = 0;
    static char buf[16384];
    while (!reaped || (!eof && now_ns() < drain_until)) {
        if (!reaped && now_ns() >= deadline && !w->killed) {
            *timed_out = 1;
            kill_workload(w);
        }
        if (!eof) {
            struct pollfd p = {fd, POLLIN, 0};
            if (poll(&p, 1, WORKLOAD_POLL_MS) > 0) {
                ssize_t n = read(fd, buf, sizeof buf);
                if (n > 0)
                    feed(w, buf, (size_t)n);
                else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                    eof = 1;
            }
        } else {
            struct timespec pause = {0, 10 * 1000000L};
            nanosleep(&pause, NULL);
        }
        if (!reaped && waitpid(w->pid, &status, WNOHANG) == w->pid) {
            read_counters(after);
            *ended = now_ns();
            reaped = 1;
            drain_until = now_ns() + WORKLOAD_DRAIN_MS * 1000000LL;
        }
    }
    if (w->len > 0 || w->cut)
        forward_line(w);
    kill(-w->pid, SIGKILL); /* whatever the command left running in its group */
    return status;
}

/* Runs the workload; returns 0 when it exited 0, -1 otherwise (after its events). */
static int run_workload(const struct options *o, const char *dir_err)
{
    static char command[WORKLOAD_COMMAND_MAX + 2];
    char err[PATH_MAX + 128];
    if (dir_err != NULL) {
        emit_error(WORKLOAD_METRIC.name, dir_err);
        return -1;
    }
    if (read_command(o->workload, command, sizeof command, err, sizeof err) != 0) {
        emit_error(WORKLOAD_METRIC.name, err);
        return -1;
    }
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        format_err(err, sizeof err, "workload: pipe");
        emit_error(WORKLOAD_METRIC.name, err);
        return -1;
    }
    static struct workload_run w;
    static struct counters before, after, sum;
    memset(&w, 0, sizeof w);
    clear_counters(&sum);
    read_counters(&before);
    int64_t start = now_ns();
    fflush(out);
    fflush(stderr);
    w.pid = fork();
    if (w.pid == 0)
        exec_workload(command, o->dir, fds[1]);
    close(fds[1]);
    if (w.pid < 0) {
        format_err(err, sizeof err, "workload: fork");
        close(fds[0]);
        emit_error(WORKLOAD_METRIC.name, err);
        return -1;
    }
    setpgid(w.pid, w.pid); /* in the parent too: a kill right after fork must reach the group */
    int timed_out = 0;
    int64_t ended = start;
    int status = watch_workload(&w, fds[0], start + o->workload_timeout * 1000000000LL, &timed_out, &after,
                                &ended);
    close(fds[0]);
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    fprintf(out, "{\"event\":\"workload_end\",\"exit_status\":%d,\"signal\":%d,\"timed_out\":%s,"
                 "\"flooded\":%s,\"timeout_s\":%ld,\"lines\":%ld,\"elapsed_ms\":%lld}",
            exit_status, sig, timed_out ? "true" : "false", w.flooded ? "true" : "false",
            o->workload_timeout, w.lines, (long long)((ended - start) / 1000000));
    end_line();
    accumulate(&sum, &before, &after);
    emit_telemetry(&WORKLOAD_METRIC, 1.0, &sum, NULL, 0);
    return exit_status == 0 && !timed_out && !w.flooded ? 0 : -1;
}

/* ---- setup ------------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: fleetbench [--out PATH] [--dir PATH] [--metrics a,b,c] [--iterations N]\n"
            "                  [--iteration-ms MS] [--warmup N] [--files N] [--cache warm|cold]\n"
            "                  [--threads N] [--seq-size MIB] [--file-size BYTES]\n"
            "  --out PATH         where JSON lines go (default: stdout)\n"
            "  --dir PATH         working directory, created if missing (default: /bench)\n"
            "  --metrics LIST     comma-separated subset of metadata_stat,negative_lookup,\n"
            "                     create_delete,seq_read,find_recursive,rm_rf (default: all)\n"
            "  --iterations N     measured iterations per metric, 1..100000 (default: 5)\n"
            "  --iteration-ms MS  length of one iteration, 1..600000 (default: 200)\n"
            "  --warmup N         warm-up iterations before the measured ones, 0..100000 (default: 0)\n"
            "  --files N          files in the find_recursive / rm_rf trees, 1..1000000, split over the\n"
            "                     threads (each thread its own tree of N/threads files; default: 2000)\n"
            "  --threads N        threads running each metric at once, each in DIR/t<i> on its own files;\n"
            "                     a sample is their aggregate rate. 0..256, 0 = online CPUs (default: 0)\n"
            "  --seq-size MIB     seq_read's file, one per thread, 1..4096 MiB (default: 16)\n"
            "  --file-size BYTES  bytes in each file the metadata and tree metrics create, 0..16777216\n"
            "                     (default: 0, empty files)\n"
            "  --cache MODE       warm, or cold: drop the guest's page, dentry and inode caches\n"
            "                     before each iteration (needs root; default: warm)\n"
            "  --workload FILE    run the shell command in FILE (/bin/sh -c, in --dir) instead of the\n"
            "                     metrics, forwarding its stdout lines to --out\n"
            "  --workload-timeout S  kill the workload after S seconds, 1..86400 (default: 600)\n");
}

static void die_usage(const char *fmt, const char *value)
{
    fputs("fleetbench: ", stderr);
    fprintf(stderr, fmt, value);
    fputs("\n", stderr);
    usage(stderr);
    exit(2);
}

static long parse_long(const char *opt, const char *s, long min, long max)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < min || v > max) {
        fprintf(stderr, "fleetbench: %s must be an integer in %ld..%ld, got '%s'\n", opt, min, max, s);
        usage(stderr);
        exit(2);
    }
    return v;
}

static const struct metric *find_metric(const char *name, size_t len)
{
    for (size_t i = 0; i < METRIC_COUNT; i++)
        if (strlen(METRICS[i].name) == len && strncmp(METRICS[i].name, name, len) == 0)
            return &METRICS[i];
    return NULL;
}

/* Checks every name of the comma-separated list before anything runs. */
static void validate_metrics(const char *list)
{
    if (*list == '\0')
        die_usage("--metrics must name at least one metric%s", "");
    for (const char *p = list;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (find_metric(p, len) == NULL) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(len < 100 ? len : 100), p);
            fprintf(stderr, "fleetbench: unknown metric '%s'; expected metadata_stat, negative_lookup, "
                            "create_delete, seq_read, find_recursive or rm_rf\n", name);
            exit(2);
        }
        if (!comma)
            break;
        p = comma + 1;
    }
}

/* --dump-interrupts FILE: the rows as telemetry would count them, one JSON line on stdout (a
 * capture of another machine's /proc/interrupts checks the parser). */
static void dump_interrupts(const char *path)
{
    static struct table t;
    read_table(path, &t);
    if (t.rows < 0) {
        fprintf(stderr, "fleetbench: cannot read %s: %s\n", path, strerror(errno));
        exit(1);
    }
    out = stdout;
    fputc('{', out);
    for (int i = 0; i < t.rows; i++) {
        if (i > 0)
            fputc(',', out);
        json_string(t.name[i]);
        fprintf(out, ":%llu", t.count[i]);
    }
    fputc('}', out);
    end_line();
}

/* --dump-per-cpu DIR: the per-CPU counters of captures DIR/interrupts, DIR/softirqs and
 * DIR/schedstat (each may be missing) as telemetry would give them, every row, one JSON line on
 * stdout. */
static void dump_per_cpu(const char *dir)
{
    static char irq[PATH_MAX], soft[PATH_MAX], sched[PATH_MAX];
    snprintf(irq, sizeof irq, "%s/interrupts", dir);
    snprintf(soft, sizeof soft, "%s/softirqs", dir);
    snprintf(sched, sizeof sched, "%s/schedstat", dir);
    interrupts_path = irq;
    softirqs_path = soft;
    schedstat_path = sched;
    static struct counters c;
    read_counters(&c);
    out = stdout;
    fputs("{\"cpus\":", out);
    fprintf(out, "%d", c.irq.cpus);
    emit_counters(&c, 0);
    fputc('}', out);
    end_line();
}

static void parse_args(int argc, char **argv, struct options *o)
{
    static const struct option longopts[] = {
        {"out", required_argument, NULL, 'o'},
        {"dir", required_argument, NULL, 'd'},
        {"metrics", required_argument, NULL, 'm'},
        {"iterations", required_argument, NULL, 'n'},
        {"iteration-ms", required_argument, NULL, 't'},
        {"warmup", required_argument, NULL, 'w'},
        {"files", required_argument, NULL, 'f'},
        {"cache", required_argument, NULL, 'c'},
        {"dump-interrupts", required_argument, NULL, 'D'},
        {"workload", required_argument, NULL, 'W'},
        {"workload-timeout", required_argument, NULL, 'T'},
        {"threads", required_argument, NULL, 'P'},
        {"seq-size", required_argument, NULL, 'S'},
        {"file-size", required_argument, NULL, 'F'},
        {"dump-per-cpu", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    *o = (struct options){.dir = "/bench",
                          .metrics = "metadata_stat,negative_lookup,create_delete,seq_read,find_recursive,rm_rf",
                          .iterations = 5, .iteration_ms = 200, .files = 2000, .seq_mib = SEQ_DEFAULT_MIB,
                          .workload_timeout = 600};
    int c;
    opterr = 0; /* we print our own messages */
    while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case 'd':
            if (*optarg == '\0' || strlen(optarg) > PATH_MAX / 2)
                die_usage("--dir must be a non-empty path shorter than 2048 bytes, got '%s'", optarg);
            o->dir = optarg;
            break;
        case 'm':
            if (strlen(optarg) >= sizeof o->metrics)
                die_usage("--metrics list too long: '%s'", optarg);
            strcpy(o->metrics, optarg);
            break;
        case 'n': o->iterations = parse_long("--iterations", optarg, 1, 100000); break;
        case 't': o->iteration_ms = parse_long("--iteration-ms", optarg, 1, 600000); break;
        case 'w': o->warmup = parse_long("--warmup", optarg, 0, 100000); break;
        case 'f': o->files = parse_long("--files", optarg, 1, 1000000); break;
        case 'c':
            if (strcmp(optarg, "warm") == 0)
                o->cold = 0;
            else if (strcmp(optarg, "cold") == 0)
                o->cold = 1;
            else
                die_usage("--cache must be warm or cold, got '%s'", optarg);
            break;
        case 'W':
            if (*optarg == '\0')
                die_usage("--workload must name a file, got '%s'", optarg);
            o->workload = optarg;
            break;
        case 'T': o->workload_timeout = parse_long("--workload-timeout", optarg, 1, 86400); break;
        case 'P': o->threads = parse_long("--threads", optarg, 0, MAX_THREADS); break;
        case 'S': o->seq_mib = parse_long("--seq-size", optarg, 1, SEQ_MAX_MIB); break;
        case 'F': o->file_size = parse_long("--file-size", optarg, 0, FILE_SIZE_MAX); break;
        case 'C': dump_per_cpu(optarg); exit(0);
        case 'D': dump_interrupts(optarg); exit(0);
        case 'h': usage(stdout); exit(0);
        case ':': die_usage("option %s needs a value", argv[optind - 1]); break;
        default: die_usage("unknown option '%s'", argv[optind - 1]); break;
        }
    }
    if (optind < argc)
        die_usage("unexpected argument '%s'", argv[optind]);
    validate_metrics(o->metrics);
    tree_files = o->files;
    seq_bytes = o->seq_mib << 20;
    file_size = o->file_size;
    nthreads = (int)o->threads;
    if (nthreads == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        nthreads = online < 1 ? 1 : online > MAX_THREADS ? MAX_THREADS : (int)online;
    }
}

/* mkdir -p; returns 0 or -1 with errno. */
static int make_dirs(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* A serial port in cooked mode turns "\n" into "\r\n" and may echo; results want raw bytes. */
static void make_raw_if_tty(int fd)
{
    struct termios t;
    if (!isatty(fd) || tcgetattr(fd, &t) != 0)
        return;
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
}

static FILE *open_out(const char *path)
{
    if (path == NULL) {
        make_raw_if_tty(STDOUT_FILENO);
        return stdout;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY | O_CLOEXEC, 0644);
    if (fd < 0)
        return NULL;
    make_raw_if_tty(fd);
    return fdopen(fd, "w");
}

/*
 * Closes the results channel. A regular file (VZ's results.jsonl on a virtio-fs share) is
 * fsynced first: the host reads it after power-off, and only data the guest has written back
 * is there. A tty or pipe has nothing to sync. Fails if any line could not be written.
 */
static int close_out(FILE *f)
{
    struct stat st;
    int rc = fflush(f);
    if (rc == 0 && ferror(f)) { /* an earlier line's write failed */
        errno = EIO;
        rc = -1;
    }
    if (rc == 0 && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
        rc = fsync(fileno(f));
    int saved = errno;
    if (fclose(f) != 0)
        return -1;
    errno = saved;
    return rc;
}

static void emit_start(void)
{
    struct utsname u;
    if (uname(&u) != 0) {
        strcpy(u.release, "unknown");
        strcpy(u.machine, "unknown");
    }
    fputs("{\"event\":\"start\",\"harness\":\"fleetbench\",\"version\":\"" HARNESS_VERSION "\",\"kernel\":", out);
    json_string(u.release);
    fputs(",\"arch\":", out);
    json_string(u.machine);
    double up = -1;
    FILE *f = fopen("/proc/uptime", "re");
    if (f) {
        if (fscanf(f, "%lf", &up) != 1)
            up = -1;
        fclose(f);
    }
    if (up >= 0)
        fprintf(out, ",\"uptime_ms\":%lld}", (long long)(up * 1000.0));
    else
        fputs(",\"uptime_ms\":null}", out);
    end_line();
}

/* Runs every --metrics metric in order; returns 1 when one failed (after its error event). */
static int run_metrics(const struct options *o, const char *dir_err)
{
    int failed = 0;
    for (const char *p = o->metrics;;) {
        const char *comma = strchr(p, ',');
        const struct metric *m = find_metric(p, comma ? (size_t)(comma - p) : strlen(p));
        if (dir_err != NULL) {
            emit_error(m->name, dir_err);
            failed = 1;
        } else if (run_metric(m, o) != 0) {
            failed = 1;
        }
        if (!comma)
            break;
        p = comma + 1;
    }
    return failed;
}

int main(int argc, char **argv)
{
    struct options o;
    parse_args(argc, argv, &o);
    int64_t t0 = now_ns();
    out = open_out(o.out);
    if (out == NULL) {
        fprintf(stderr, "fleetbench: cannot open --out %s: %s\n", o.out, strerror(errno));
        return 1;
    }
    emit_start();
    enable_schedstats();
    for (size_t i = 0; i < sizeof fill_buf; i++)
        fill_buf[i] = (char)(i * 131u + 7u);
    init_workers(o.dir);
    int dir_ok = make_dirs(o.dir) == 0;
    char err[PATH_MAX + 64];
    if (!dir_ok)
        format_err(err, sizeof err, "cannot create --dir %s", o.dir);
    int failed = o.workload != NULL ? run_workload(&o, dir_ok ? NULL : err) != 0 : run_metrics(&o, dir_ok ? NULL : err);
    fprintf(out, "{\"event\":\"done\",\"elapsed_ms\":%lld}", (long long)((now_ns() - t0) / 1000000));
    end_line();
    if (close_out(out) != 0 && !failed) {
        fprintf(stderr, "fleetbench: writing results failed: %s\n", strerror(errno));
        return 1;
    }
    return failed;
}
