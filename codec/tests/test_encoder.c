/*
 * test_encoder.c - proves the S(k,z) schedule and the repair arithmetic: a
 * repair is due after every k sources; its window grows from the first
 * source up to z and then slides; repair keys count up; an on-demand repair
 * restarts the count; each repair equals sum_i c_i * source_i computed with
 * swf_gf_mul from RFC 8681's coefficients; short sources are zero-padded;
 * invalid configurations name their field.
 */
#include "check.h"

enum { SYMBOL_BYTES = 37, K = 3, Z = 9, SOURCES = 40 };

static uint8_t sources[SOURCES][SYMBOL_BYTES];

/* The repair over sources[first .. first + nss - 1], byte by byte. */
static void expected_repair(const swf_repair_id *id, uint32_t first, uint8_t *out)
{
	uint8_t coefs[Z];
	CHECK_OK(swf_coefficients(id->repair_key, id->dt, id->nss, coefs));
	memset(out, 0, SYMBOL_BYTES);
	for (uint32_t i = 0; i < id->nss; i++)
		for (uint32_t b = 0; b < SYMBOL_BYTES; b++)
			out[b] ^= swf_gf_mul(coefs[i], sources[first + i][b]);
}

static void test_schedule_and_window(void)
{
	const uint32_t first_esi = 0xFFFFFFF0u; /* the ESIs wrap around 2^32 */
	swf_encoder_config config = {.symbol_bytes = SYMBOL_BYTES, .k = K, .z = Z, .dt = 15,
				     .first_esi = first_esi, .first_repair_key = 65534};
	swf_encoder *enc;
	CHECK_OK(swf_encoder_new(&config, &enc));
	uint64_t rng = 1;
	uint16_t key = 65534;
	for (uint32_t n = 0; n < SOURCES; n++) {
		uint32_t esi;
		bool due;
		test_fill(sources[n], SYMBOL_BYTES, &rng);
		CHECK_OK(swf_encoder_add_source(enc, sources[n], SYMBOL_BYTES, &esi, &due));
		CHECK(esi == first_esi + n);
		CHECK(due == ((n + 1) % K == 0));
		if (!due)
			continue;
		uint8_t repair[SYMBOL_BYTES], expected[SYMBOL_BYTES];
		swf_repair_id id;
		CHECK_OK(swf_encoder_build_repair(enc, repair, &id));
		uint32_t nss = n + 1 < Z ? n + 1 : Z;
		CHECK(id.nss == nss);
		CHECK(id.first_esi == first_esi + (n + 1 - nss));
		CHECK(id.repair_key == key++);
		CHECK(id.dt == 15);
		expected_repair(&id, n + 1 - nss, expected);
		CHECK(memcmp(repair, expected, SYMBOL_BYTES) == 0);
	}
	swf_encoder_free(enc);
}

static void test_repair_on_demand_restarts_count(void)
{
	swf_encoder_config config = {.symbol_bytes = 4, .k = 4, .z = 100, .dt = 15};
	swf_encoder *enc;
	uint8_t repair[4];
	swf_repair_id id;
	uint32_t esi;
	bool due;
	CHECK_OK(swf_encoder_new(&config, &enc));
	CHECK(swf_encoder_build_repair(enc, repair, &id) == SWF_E_INVALID); /* nothing yet */
	for (int i = 0; i < 2; i++)
		CHECK_OK(swf_encoder_add_source(enc, "abcd", 4, &esi, &due));
	CHECK(!due);
	CHECK_OK(swf_encoder_build_repair(enc, repair, &id)); /* a flush */
	CHECK(id.nss == 2 && id.first_esi == 0 && id.repair_key == 0);
	for (int i = 0; i < 3; i++) {
		CHECK_OK(swf_encoder_add_source(enc, "abcd", 4, &esi, &due));
		CHECK(!due);
	}
	CHECK_OK(swf_encoder_add_source(enc, "abcd", 4, &esi, &due));
	CHECK(due);
	CHECK_OK(swf_encoder_build_repair(enc, repair, &id));
	CHECK(id.nss == 6 && id.repair_key == 1);
	swf_encoder_free(enc);
}

static void test_short_sources_are_zero_padded(void)
{
	swf_encoder_config config = {.symbol_bytes = 16, .k = 1, .z = 1, .dt = 15};
	swf_encoder *enc;
	uint8_t repair[16], padded[16] = "hi";
	swf_repair_id id;
	uint32_t esi;
	bool due;
	CHECK_OK(swf_encoder_new(&config, &enc));
	/* Leave garbage in the ring slot first, so padding must overwrite it. */
	CHECK_OK(swf_encoder_add_source(enc, "0123456789abcdef", 16, &esi, &due));
	CHECK_OK(swf_encoder_build_repair(enc, repair, &id));
	CHECK_OK(swf_encoder_add_source(enc, "hi", 2, &esi, &due));
	CHECK_OK(swf_encoder_build_repair(enc, repair, &id));
	uint8_t c;
	CHECK_OK(swf_coefficients(id.repair_key, id.dt, 1, &c));
	for (int b = 0; b < 16; b++)
		CHECK(repair[b] == swf_gf_mul(c, padded[b]));
	CHECK(swf_encoder_add_source(enc, padded, 17, &esi, &due) == SWF_E_INVALID);
	CHECK(esi == 1); /* unchanged by the failed call */
	swf_encoder_free(enc);
}

static void test_config_errors_name_the_field(void)
{
	swf_encoder_config good = {.symbol_bytes = 1400, .k = 5, .z = 100, .dt = 15};
	swf_encoder_config bad;
	swf_encoder *enc = NULL;
	CHECK(swf_encoder_config_check(&good) == NULL);
	bad = good, bad.symbol_bytes = 0;
	CHECK(strcmp(swf_encoder_config_check(&bad), "symbol_bytes") == 0);
	bad = good, bad.symbol_bytes = 65536;
	CHECK(strcmp(swf_encoder_config_check(&bad), "symbol_bytes") == 0);
	bad = good, bad.k = 0;
	CHECK(strcmp(swf_encoder_config_check(&bad), "k") == 0);
	bad = good, bad.z = 0;
	CHECK(strcmp(swf_encoder_config_check(&bad), "z") == 0);
	bad = good, bad.z = 4096;
	CHECK(strcmp(swf_encoder_config_check(&bad), "z") == 0);
	bad = good, bad.dt = 16;
	CHECK(strcmp(swf_encoder_config_check(&bad), "dt") == 0);
	CHECK(swf_encoder_new(&bad, &enc) == SWF_E_INVALID && enc == NULL);
}

int main(void)
{
	check_expected_kernel();
	test_schedule_and_window();
	test_repair_on_demand_restarts_count();
	test_short_sources_are_zero_padded();
	test_config_errors_name_the_field();
	return 0;
}
