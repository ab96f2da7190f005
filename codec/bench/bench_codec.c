/*
 * bench_codec.c - encoder and decoder throughput of the active GF(2^8)
 * kernel, one JSON object per line (the contract of `make bench-codec`):
 *
 *   {"bench":"encode","target":"native","kernel":"avx2","k":5,"z":100,
 *    "symbol_bytes":1400,"source_mbps":8123.4}
 *   {"bench":"decode",...,"loss":0.05,"symbols":1000000,"source_mbps":...,
 *    "decoder_peak_bytes":...}
 *
 * Encode: source symbols added and repairs built per S(k,z), in steady state
 * (the window full), the best of 15 rounds of 40,000 sources.
 * Decode: 10^6 source symbols at 5 % Bernoulli loss (seeded), every repair
 * delivered; only the decoder's calls are timed.
 * With --kernel NAME it prints nothing unless NAME is the active kernel, so
 * a script can ask for every kernel and get each one once.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "swf.h"

enum { SYMBOL_BYTES = 1400, POOL = 512 };

static const struct {
	uint16_t k, z;
} SCHEDULES[] = {{10, 100}, {5, 100}, {2, 100}, {4, 20}};

static uint8_t pool[POOL][SYMBOL_BYTES];

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void die(const char *what, swf_status s)
{
	fprintf(stderr, "bench_codec: %s: %s\n", what, swf_status_string(s));
	exit(1);
}

static swf_encoder *new_encoder(uint16_t k, uint16_t z)
{
	swf_encoder_config c = {.symbol_bytes = SYMBOL_BYTES, .k = k, .z = z, .dt = 15};
	swf_encoder *e;
	swf_status s = swf_encoder_new(&c, &e);
	if (s != SWF_OK)
		die("encoder", s);
	return e;
}

/* The best of ROUNDS rounds of `sources` each: the machine's other work
 * (other processes, a VM's steal) only ever slows a round down. */
enum { ROUNDS = 15 };

static void bench_encode(uint16_t k, uint16_t z, uint64_t sources)
{
	swf_encoder *enc = new_encoder(k, z);
	uint8_t repair[SYMBOL_BYTES];
	swf_repair_id id;
	uint32_t esi;
	bool due;
	uint64_t n = 0;
	for (; n < z; n++) /* fill the window: steady state from here */
		swf_encoder_add_source(enc, pool[n % POOL], SYMBOL_BYTES, &esi, &due);
	double best = 1e30;
	for (int round = 0; round < ROUNDS; round++) {
		double start = now_s();
		for (uint64_t end = n + sources; n < end; n++) {
			swf_encoder_add_source(enc, pool[n % POOL], SYMBOL_BYTES, &esi, &due);
			if (due)
				swf_encoder_build_repair(enc, repair, &id);
		}
		double seconds = now_s() - start;
		if (seconds < best)
			best = seconds;
	}
	printf("{\"bench\":\"encode\",\"target\":\"native\",\"kernel\":\"%s\",\"k\":%u,\"z\":%u,"
	       "\"symbol_bytes\":%d,\"source_mbps\":%.1f}\n",
	       swf_gf_kernel(), k, z, SYMBOL_BYTES,
	       (double)sources * SYMBOL_BYTES * 8 / best / 1e6);
	swf_encoder_free(enc);
}

static void bench_decode(uint16_t k, uint16_t z, uint64_t sources, double loss)
{
	swf_encoder *enc = new_encoder(k, z);
	swf_decoder_config dc = {.symbol_bytes = SYMBOL_BYTES, .max_window = z};
	swf_decoder *dec;
	swf_status s = swf_decoder_new(&dc, &dec);
	if (s != SWF_OK)
		die("decoder", s);
	uint64_t rng = 42;
	uint64_t threshold = (uint64_t)(loss * 18446744073709551616.0);
	uint8_t repair[SYMBOL_BYTES];
	swf_repair_id id;
	uint32_t esi, rebuilt_esi;
	const uint8_t *rebuilt;
	bool due;
	double seconds = 0;
	uint64_t lost = 0;
	for (uint64_t n = 0; n < sources; n++) {
		const uint8_t *src = pool[n % POOL];
		swf_encoder_add_source(enc, src, SYMBOL_BYTES, &esi, &due);
		bool deliver = splitmix(&rng) >= threshold;
		lost += !deliver;
		double t0 = now_s();
		if (deliver)
			swf_decoder_add_source(dec, esi, src, SYMBOL_BYTES);
		while (swf_decoder_next_rebuilt(dec, &rebuilt_esi, &rebuilt))
			;
		seconds += now_s() - t0;
		if (due) {
			swf_encoder_build_repair(enc, repair, &id);
			t0 = now_s();
			swf_decoder_add_repair(dec, &id, repair, SYMBOL_BYTES);
			while (swf_decoder_next_rebuilt(dec, &rebuilt_esi, &rebuilt))
				;
			seconds += now_s() - t0;
		}
	}
	swf_decoder_stats stats;
	swf_decoder_get_stats(dec, &stats);
	printf("{\"bench\":\"decode\",\"target\":\"native\",\"kernel\":\"%s\",\"k\":%u,\"z\":%u,"
	       "\"symbol_bytes\":%d,\"loss\":%.2f,\"symbols\":%llu,\"source_mbps\":%.1f,"
	       "\"decoder_peak_bytes\":%zu,\"lost\":%llu,\"rebuilt\":%llu}\n",
	       swf_gf_kernel(), k, z, SYMBOL_BYTES, loss, (unsigned long long)sources,
	       (double)sources * SYMBOL_BYTES * 8 / seconds / 1e6, stats.peak_memory_bytes,
	       (unsigned long long)lost, (unsigned long long)stats.rebuilt);
	swf_encoder_free(enc);
	swf_decoder_free(dec);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--kernel") == 0) {
		if (strcmp(argv[2], swf_gf_kernel()) != 0)
			return 0;
	} else if (argc != 1) {
		fprintf(stderr, "usage: bench_codec [--kernel NAME]\n");
		return 2;
	}
	uint64_t seed = 1;
	for (size_t i = 0; i < POOL; i++)
		for (size_t b = 0; b < SYMBOL_BYTES; b++)
			pool[i][b] = (uint8_t)splitmix(&seed);
	for (size_t i = 0; i < sizeof(SCHEDULES) / sizeof(SCHEDULES[0]); i++)
		bench_encode(SCHEDULES[i].k, SCHEDULES[i].z, 40000);
	for (size_t i = 0; i < sizeof(SCHEDULES) / sizeof(SCHEDULES[0]); i++)
		bench_decode(SCHEDULES[i].k, SCHEDULES[i].z, 1000000, 0.05);
	return 0;
}
