// Probe for issue 23: is the run-to-run spread of the CPU bandwidth records
// on a VM guest (18-34% between four runs of one H200 guest within two
// minutes, each point's own interval +-2-6%) a property of time (the host's
// load: every buffer moves together from round to round) or of the buffer
// (where the host put its pages: each buffer keeps its own rate)? Several
// buffers, each allocated and first-touched apart, are read in turn for a
// number of rounds with all threads; one line per round and buffer.
//   gcc -O3 -march=native -fopenmp -o buffer_placement scripts/bench/buffer_placement.c
//   ./buffer_placement [buffers=4] [MiB=1024] [rounds=8] [reps=5]
// GB/s = 1e9 bytes read / s: the best and the median of `reps` reads of the
// whole buffer.
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static uint64_t read_all(const uint64_t* p, size_t words) {
    uint64_t total = 0;
#pragma omp parallel for reduction(+ : total) schedule(static)
    for (size_t i = 0; i < words; i += 8) {
        total += p[i] + p[i + 1] + p[i + 2] + p[i + 3] + p[i + 4] + p[i + 5] + p[i + 6] + p[i + 7];
    }
    return total;
}

int main(int argc, char** argv) {
    const int buffers = argc > 1 ? atoi(argv[1]) : 4;
    const size_t bytes = (size_t)(argc > 2 ? atol(argv[2]) : 1024) << 20;
    const int rounds = argc > 3 ? atoi(argv[3]) : 8, reps = argc > 4 ? atoi(argv[4]) : 5;
    const size_t words = bytes / 8;
    uint64_t** buf = calloc(buffers, sizeof *buf);
    for (int b = 0; b < buffers; ++b) {
        buf[b] = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (buf[b] == MAP_FAILED) { perror("mmap"); return 2; }
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < words; ++i) buf[b][i] = i ^ (uint64_t)b;  // first touch by the reading threads
    }
    printf("threads %d, %d buffers of %zu MiB, best / median of %d reads\nround", omp_get_max_threads(), buffers,
           bytes >> 20, reps);
    for (int b = 0; b < buffers; ++b) printf("  buf%d best/median GB/s", b);
    printf("\n");
    volatile uint64_t sink = 0;
    for (int r = 0; r < rounds; ++r) {
        printf("%5d", r);
        for (int b = 0; b < buffers; ++b) {
            double t[64];
            const int n = reps < 64 ? reps : 64;
            for (int k = 0; k < n; ++k) {
                const double t0 = now();
                sink += read_all(buf[b], words);
                t[k] = now() - t0;
            }
            qsort(t, n, sizeof t[0], by_value);
            printf("  %9.1f / %7.1f", bytes / t[0] / 1e9, bytes / t[n / 2] / 1e9);
        }
        printf("\n");
        fflush(stdout);
    }
    return sink == 42;
}
