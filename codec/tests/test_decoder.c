/*
 * test_decoder.c - proves the decoder's behaviour in named situations: a lost
 * source rebuilt by the next repair; repairs arriving before their sources; a
 * late source completing a system; a burst too long to repair given up once
 * it leaves the window, with decoding going on after it; memory that stays
 * flat however long the stream; configurations it refuses.
 */
#include "check.h"

enum { BYTES = 24 };

typedef struct stream {
	swf_encoder *enc;
	uint8_t sources[4096][BYTES];
	uint32_t count;
} stream;

static stream st;

static void stream_start(uint16_t k, uint16_t z)
{
	swf_encoder_config c = {.symbol_bytes = BYTES, .k = k, .z = z, .dt = 15};
	swf_encoder_free(st.enc);
	st.count = 0;
	CHECK_OK(swf_encoder_new(&c, &st.enc));
}

/* Encodes the next source; returns whether a repair is due. */
static bool stream_source(uint64_t *rng)
{
	uint32_t esi;
	bool due;
	test_fill(st.sources[st.count % 4096], BYTES, rng);
	CHECK_OK(swf_encoder_add_source(st.enc, st.sources[st.count % 4096], BYTES, &esi, &due));
	CHECK(esi == st.count);
	st.count++;
	return due;
}

static swf_decoder *new_decoder(uint16_t max_window)
{
	swf_decoder_config c = {.symbol_bytes = BYTES, .max_window = max_window};
	swf_decoder *d;
	CHECK_OK(swf_decoder_new(&c, &d));
	return d;
}

static void feed_source(swf_decoder *d, uint32_t esi)
{
	CHECK_OK(swf_decoder_add_source(d, esi, st.sources[esi % 4096], BYTES));
}

static void expect_rebuilt(swf_decoder *d, uint32_t want)
{
	uint32_t esi;
	const uint8_t *symbol;
	CHECK(swf_decoder_next_rebuilt(d, &esi, &symbol));
	CHECK(esi == want);
	CHECK(memcmp(symbol, st.sources[esi % 4096], BYTES) == 0);
}

static void expect_nothing_rebuilt(swf_decoder *d)
{
	uint32_t esi;
	const uint8_t *symbol;
	CHECK(!swf_decoder_next_rebuilt(d, &esi, &symbol));
}

static void test_single_loss_rebuilt_by_next_repair(void)
{
	uint64_t rng = 1;
	swf_decoder *d = new_decoder(10);
	uint8_t repair[BYTES];
	swf_repair_id id;
	stream_start(4, 10);
	for (uint32_t i = 0; i < 4; i++) {
		stream_source(&rng);
		if (i != 2)
			feed_source(d, i);
	}
	expect_nothing_rebuilt(d);
	swf_decoder_stats s;
	swf_decoder_get_stats(d, &s);
	CHECK(s.unknowns == 1 && s.equations == 0);
	CHECK_OK(swf_encoder_build_repair(st.enc, repair, &id));
	CHECK_OK(swf_decoder_add_repair(d, &id, repair, BYTES));
	expect_rebuilt(d, 2);
	expect_nothing_rebuilt(d);
	swf_decoder_get_stats(d, &s);
	CHECK(s.sources == 3 && s.repairs == 1 && s.useful_repairs == 1 && s.rebuilt == 1);
	CHECK(s.equations == 0 && s.unknowns == 0);
	swf_decoder_free(d);
}

static void test_repairs_before_their_sources(void)
{
	uint64_t rng = 2;
	swf_decoder *d = new_decoder(6);
	uint8_t r1[BYTES], r2[BYTES];
	swf_repair_id id1, id2;
	stream_start(3, 6);
	for (int i = 0; i < 3; i++)
		stream_source(&rng);
	CHECK_OK(swf_encoder_build_repair(st.enc, r1, &id1)); /* over 0..2 */
	for (int i = 0; i < 3; i++)
		stream_source(&rng);
	CHECK_OK(swf_encoder_build_repair(st.enc, r2, &id2)); /* over 0..5 */
	/* Both repairs first: two equations, six unknowns. */
	CHECK_OK(swf_decoder_add_repair(d, &id2, r2, BYTES));
	CHECK_OK(swf_decoder_add_repair(d, &id1, r1, BYTES));
	expect_nothing_rebuilt(d);
	feed_source(d, 0);
	feed_source(d, 1);
	expect_rebuilt(d, 2); /* the first repair now has one unknown */
	feed_source(d, 3);
	feed_source(d, 5);
	expect_rebuilt(d, 4);
	feed_source(d, 4); /* arrives after all: a duplicate */
	expect_nothing_rebuilt(d);
	swf_decoder_stats s;
	swf_decoder_get_stats(d, &s);
	CHECK(s.rebuilt == 2 && s.duplicates == 1 && s.equations == 0);
	swf_decoder_free(d);
}

static void test_late_source_completes_system(void)
{
	uint64_t rng = 3;
	swf_decoder *d = new_decoder(8);
	uint8_t repair[BYTES];
	swf_repair_id id;
	stream_start(8, 8);
	for (uint32_t i = 0; i < 8; i++) {
		stream_source(&rng);
		if (i != 1 && i != 6)
			feed_source(d, i);
	}
	CHECK_OK(swf_encoder_build_repair(st.enc, repair, &id));
	CHECK_OK(swf_decoder_add_repair(d, &id, repair, BYTES));
	expect_nothing_rebuilt(d);
	feed_source(d, 1); /* late, not lost: now 6 is determined */
	expect_rebuilt(d, 6);
	swf_decoder_free(d);
}

/* Which source numbers a channel loses; repairs are numbered after sources. */
typedef bool (*loss_rule)(uint32_t source, uint64_t *rng);

/*
 * Streams `sources` more sources of the current encoder through `lose` into
 * d, with every repair the schedule asks for (a repair is lost when `lose`
 * says so for UINT32_MAX), checks every rebuilt symbol against its original,
 * and returns how many were rebuilt.
 */
static uint64_t stream_through(swf_decoder *d, uint32_t sources, loss_rule lose, uint64_t *rng)
{
	uint64_t rebuilt = 0;
	for (uint32_t n = 0; n < sources; n++) {
		uint32_t i = st.count;
		bool due = stream_source(rng);
		if (!lose(i, rng))
			feed_source(d, i);
		if (due) {
			uint8_t repair[BYTES];
			swf_repair_id id;
			CHECK_OK(swf_encoder_build_repair(st.enc, repair, &id));
			if (!lose(UINT32_MAX, rng))
				CHECK_OK(swf_decoder_add_repair(d, &id, repair, BYTES));
		}
		uint32_t esi;
		const uint8_t *symbol;
		while (swf_decoder_next_rebuilt(d, &esi, &symbol)) {
			CHECK(memcmp(symbol, st.sources[esi % 4096], BYTES) == 0);
			rebuilt++;
		}
	}
	return rebuilt;
}

/* 7 sources lost in a row (too many for S(5,10)), then one alone. */
static bool burst_then_single(uint32_t source, uint64_t *rng)
{
	(void)rng;
	return (source >= 20 && source < 27) || source == 103;
}

static bool five_percent(uint32_t source, uint64_t *rng)
{
	(void)source;
	return test_rand(rng) % 100 < 5;
}

static void test_burst_given_up_then_decoding_resumes(void)
{
	uint64_t rng = 4;
	swf_decoder *d = new_decoder(10);
	stream_start(5, 10);
	uint64_t rebuilt = stream_through(d, 200, burst_then_single, &rng);
	swf_decoder_stats s;
	swf_decoder_get_stats(d, &s);
	/* 103 is rebuilt; of the burst, some are rebuilt and the rest given up. */
	CHECK(s.rebuilt == rebuilt);
	CHECK(s.rebuilt + s.given_up == 8);
	CHECK(s.given_up >= 1);
	CHECK(s.equations == 0);
	swf_decoder_free(d);
}

static void test_memory_is_flat(void)
{
	uint64_t rng = 5;
	swf_decoder *d = new_decoder(100);
	stream_start(5, 100);
	swf_decoder_stats early, late;
	stream_through(d, 10000, five_percent, &rng);
	swf_decoder_get_stats(d, &early);
	stream_through(d, 90000, five_percent, &rng);
	swf_decoder_get_stats(d, &late);
	CHECK(late.rebuilt > 3000);
	/* A few more row buffers at most, never growth with the stream. */
	CHECK(late.peak_memory_bytes <= early.peak_memory_bytes + 16 * (256 + 64));
	CHECK(late.memory_bytes <= late.peak_memory_bytes);
	swf_decoder_free(d);
}

static void test_refuses_invalid_configs(void)
{
	swf_decoder_config good = {.symbol_bytes = 1400, .max_window = 100};
	swf_decoder_config bad[] = {
		{.symbol_bytes = 0, .max_window = 100},
		{.symbol_bytes = 65536, .max_window = 100},
		{.symbol_bytes = 1400, .max_window = 0},
		{.symbol_bytes = 1400, .max_window = 4096},
		{.symbol_bytes = 1400, .max_window = 100, .window_capacity = 99},
	};
	static const char *const field[] = {"symbol_bytes", "symbol_bytes", "max_window",
					    "max_window", "window_capacity"};
	swf_decoder *d = NULL;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(strcmp(swf_decoder_config_check(&bad[i]), field[i]) == 0);
		CHECK(swf_decoder_new(&bad[i], &d) == SWF_E_INVALID);
		CHECK(d == NULL);
	}
	CHECK(swf_decoder_config_check(&good) == NULL);
	CHECK_OK(swf_decoder_new(&good, &d));
	swf_decoder_free(d);
	swf_decoder_free(NULL);
}

int main(void)
{
	check_expected_kernel();
	test_single_loss_rebuilt_by_next_repair();
	test_repairs_before_their_sources();
	test_late_source_completes_system();
	test_burst_given_up_then_decoding_resumes();
	test_memory_is_flat();
	test_refuses_invalid_configs();
	swf_encoder_free(st.enc);
	return 0;
}
