/*
 * test_decoder_malformed.c - proves that malformed input is refused with a
 * status code and leaves the decoder exactly as it was: a twin decoder fed
 * the same valid stream interleaved with bad calls (wrong lengths, NSS 0 or
 * above the maximum, DT above 15, ESIs far outside the window) rebuilds the
 * same symbols and ends with the same counters but `rejected`. Also that
 * parsing arbitrary bytes as a Repair FEC Payload ID never misbehaves.
 */
#include "check.h"

enum { BYTES = 40, K = 4, Z = 16, SOURCES = 5000 };

static void feed_garbage(swf_decoder *d, uint32_t newest, uint64_t *rng)
{
	uint8_t junk[BYTES + 1];
	test_fill(junk, sizeof(junk), rng);
	swf_repair_id id = {.repair_key = 1, .dt = 15, .nss = 4, .first_esi = newest};
	swf_repair_id bad;

	CHECK(swf_decoder_add_source(d, newest, junk, BYTES - 1) == SWF_E_MALFORMED);
	CHECK(swf_decoder_add_source(d, newest, junk, BYTES + 1) == SWF_E_MALFORMED);
	CHECK(swf_decoder_add_source(d, newest, NULL, BYTES) == SWF_E_MALFORMED);
	CHECK(swf_decoder_add_repair(d, &id, junk, 0) == SWF_E_MALFORMED);
	bad = id, bad.nss = 0;
	CHECK(swf_decoder_add_repair(d, &bad, junk, BYTES) == SWF_E_MALFORMED);
	bad = id, bad.nss = Z + 1;
	CHECK(swf_decoder_add_repair(d, &bad, junk, BYTES) == SWF_E_MALFORMED);
	bad = id, bad.dt = 16;
	CHECK(swf_decoder_add_repair(d, &bad, junk, BYTES) == SWF_E_MALFORMED);
	/* ESIs no stream reaches: 2^20 and more ahead or behind, any wrap. */
	uint32_t far = (UINT32_C(1) << 20) + 1 + (uint32_t)(test_rand(rng) % (UINT32_C(1) << 30));
	CHECK(swf_decoder_add_source(d, newest + far, junk, BYTES) == SWF_E_RANGE);
	CHECK(swf_decoder_add_source(d, newest - far, junk, BYTES) == SWF_E_RANGE);
	bad = id, bad.first_esi = newest + far;
	CHECK(swf_decoder_add_repair(d, &bad, junk, BYTES) == SWF_E_RANGE);
	bad = id, bad.first_esi = newest - far;
	CHECK(swf_decoder_add_repair(d, &bad, junk, BYTES) == SWF_E_RANGE);
}
enum { BAD_CALLS = 11 };

static void test_bad_calls_change_nothing(void)
{
	swf_encoder_config ec = {.symbol_bytes = BYTES, .k = K, .z = Z, .dt = 15,
				 .first_esi = 0xFFFFF000u};
	swf_decoder_config dc = {.symbol_bytes = BYTES, .max_window = Z};
	swf_encoder *enc;
	swf_decoder *clean, *dirty;
	CHECK_OK(swf_encoder_new(&ec, &enc));
	CHECK_OK(swf_decoder_new(&dc, &clean));
	CHECK_OK(swf_decoder_new(&dc, &dirty));
	uint64_t rng = 11, junk_rng = 12;
	uint8_t symbol[BYTES];
	uint64_t rounds = 0;
	for (uint32_t n = 0; n < SOURCES; n++) {
		uint32_t esi;
		bool due;
		test_fill(symbol, BYTES, &rng);
		CHECK_OK(swf_encoder_add_source(enc, symbol, BYTES, &esi, &due));
		if (test_rand(&rng) % 10) {
			CHECK_OK(swf_decoder_add_source(clean, esi, symbol, BYTES));
			CHECK_OK(swf_decoder_add_source(dirty, esi, symbol, BYTES));
		}
		if (n > 0 && n % 7 == 0) { /* the very first symbol sets the window */
			feed_garbage(dirty, esi, &junk_rng);
			rounds++;
		}
		if (due) {
			swf_repair_id id;
			CHECK_OK(swf_encoder_build_repair(enc, symbol, &id));
			CHECK_OK(swf_decoder_add_repair(clean, &id, symbol, BYTES));
			CHECK_OK(swf_decoder_add_repair(dirty, &id, symbol, BYTES));
		}
		uint32_t e1, e2;
		const uint8_t *s1, *s2;
		for (;;) {
			bool got1 = swf_decoder_next_rebuilt(clean, &e1, &s1);
			bool got2 = swf_decoder_next_rebuilt(dirty, &e2, &s2);
			CHECK(got1 == got2);
			if (!got1)
				break;
			CHECK(e1 == e2 && memcmp(s1, s2, BYTES) == 0);
		}
	}
	swf_decoder_stats a, b;
	swf_decoder_get_stats(clean, &a);
	swf_decoder_get_stats(dirty, &b);
	CHECK(a.rebuilt > 100);
	CHECK(b.rejected == rounds * BAD_CALLS && a.rejected == 0);
	b.rejected = 0;
	CHECK(a.sources == b.sources && a.repairs == b.repairs && a.rebuilt == b.rebuilt &&
	      a.given_up == b.given_up && a.duplicates == b.duplicates &&
	      a.equations == b.equations && a.unknowns == b.unknowns);
	swf_encoder_free(enc);
	swf_decoder_free(clean);
	swf_decoder_free(dirty);
}

static void test_payload_id_parser_on_random_bytes(void)
{
	uint64_t rng = 13;
	uint8_t bytes[16];
	for (int i = 0; i < 100000; i++) {
		size_t len = (size_t)(test_rand(&rng) % sizeof(bytes));
		test_fill(bytes, len, &rng);
		swf_repair_id id;
		swf_status s = swf_repair_id_read(bytes, len, &id);
		CHECK(s == SWF_OK || s == SWF_E_MALFORMED);
		if (s == SWF_OK)
			CHECK(len >= SWF_REPAIR_ID_BYTES && id.dt <= 15 && id.nss >= 1 &&
			      id.nss <= SWF_MAX_WINDOW);
	}
}

int main(void)
{
	test_bad_calls_change_nothing();
	test_payload_id_parser_on_random_bytes();
	return 0;
}
