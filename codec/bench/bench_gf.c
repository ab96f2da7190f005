/*
 * bench_gf.c - throughput of the active GF(2^8) kernel, one JSON line per
 * operation, in GB/s of source bytes (10^9 bytes multiplied per second):
 *
 *   gf.dot_add     one repair symbol over a window: 100 sources of 1400 bytes
 *   gf.mul_add     one decoder row operation on 1700 bytes
 *   gf.mul_region  one decoder row scaling on 1700 bytes
 *
 * All data stays in cache (encoding is compute-bound). Time is the thread's
 * CPU time, and each figure the best of several rounds, so that other
 * processes on a shared machine disturb it less. Run it under each
 * SWF_DISABLE_CPU_FEATURES setting to compare kernels.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "swf.h"

#define WINDOW 100
#define SYMBOL_BYTES 1400
#define ROW_BYTES 1700
#define ROUNDS 15
#define ROUND_SECONDS 0.02

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint8_t window[WINDOW][SYMBOL_BYTES], repair[SYMBOL_BYTES];
static uint8_t row[ROW_BYTES], pivot_row[ROW_BYTES];
static const uint8_t *sources[WINDOW];
static uint8_t coefs[WINDOW];

enum operation { DOT_ADD, MUL_ADD, MUL_REGION };

/* Runs op repeatedly for about ROUND_SECONDS; returns source bytes per second. */
static double round_rate(enum operation op)
{
	uint64_t calls = 0;
	double start = cpu_seconds(), elapsed;
	do {
		for (int i = 0; i < 64; i++) {
			switch (op) {
			case DOT_ADD:
				swf_gf_dot_add(repair, sources, coefs, WINDOW, SYMBOL_BYTES);
				break;
			case MUL_ADD:
				swf_gf_mul_add(row, pivot_row, coefs[i], ROW_BYTES);
				break;
			case MUL_REGION:
				swf_gf_mul_region(row, row, coefs[i], ROW_BYTES);
				break;
			}
		}
		calls += 64;
		elapsed = cpu_seconds() - start;
	} while (elapsed < ROUND_SECONDS);
	size_t bytes_per_call = op == DOT_ADD ? (size_t)WINDOW * SYMBOL_BYTES : ROW_BYTES;
	return (double)calls * (double)bytes_per_call / elapsed;
}

static double best_gbps(enum operation op)
{
	double best = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double rate = round_rate(op);
		if (rate > best)
			best = rate;
	}
	return best / 1e9;
}

int main(void)
{
	/* A fixed linear congruential fill: reproducible, and coefficients in
	 * 2..255 as in a dense (DT = 15) repair, avoiding the 0 and 1 shortcuts. */
	uint32_t state = 12345;
	for (int j = 0; j < WINDOW; j++) {
		for (int i = 0; i < SYMBOL_BYTES; i++) {
			state = state * 1664525u + 1013904223u;
			window[j][i] = (uint8_t)(state >> 24);
		}
		sources[j] = window[j];
		state = state * 1664525u + 1013904223u;
		coefs[j] = (uint8_t)(2 + (state >> 24) % 254);
	}
	for (int i = 0; i < ROW_BYTES; i++)
		pivot_row[i] = (uint8_t)(i * 7 + 3);

	const char *kernel = swf_gf_kernel();
	printf("{\"bench\":\"gf.dot_add\",\"kernel\":\"%s\",\"count\":%d,\"len_bytes\":%d,"
	       "\"source_gbps\":%.1f}\n",
	       kernel, WINDOW, SYMBOL_BYTES, best_gbps(DOT_ADD));
	printf("{\"bench\":\"gf.mul_add\",\"kernel\":\"%s\",\"len_bytes\":%d,"
	       "\"source_gbps\":%.1f}\n",
	       kernel, ROW_BYTES, best_gbps(MUL_ADD));
	printf("{\"bench\":\"gf.mul_region\",\"kernel\":\"%s\",\"len_bytes\":%d,"
	       "\"source_gbps\":%.1f}\n",
	       kernel, ROW_BYTES, best_gbps(MUL_REGION));
	return 0;
}
