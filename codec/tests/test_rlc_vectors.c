/*
 * test_rlc_vectors.c - proves that the native build produces, byte for byte,
 * the repair symbols of the shared vectors in tests/vectors/rlc (computed by
 * an independent Python reference from RFC 8681), and that the decoder
 * rebuilds a source of each vector's window from the others and the repair.
 */
#include "check.h"
#include "json.h"

static size_t hex_decode(const char *hex, uint8_t *out)
{
	size_t n = strlen(hex) / 2;
	for (size_t i = 0; i < n; i++) {
		unsigned byte;
		CHECK(sscanf(hex + 2 * i, "%2x", &byte) == 1);
		out[i] = (uint8_t)byte;
	}
	return n;
}

static void check_vector(const char *path, void *ctx)
{
	(void)ctx;
	char error[256];
	json_value *v = json_parse_file(path, error, sizeof(error));
	if (!v)
		fprintf(stderr, "%s\n", error);
	CHECK(v);
	uint32_t symbol_bytes = (uint32_t)json_number(json_get(v, "symbol_bytes"));
	uint32_t first_esi = (uint32_t)json_number(json_get(v, "first_esi"));
	uint16_t repair_key = (uint16_t)json_number(json_get(v, "repair_key"));
	uint8_t dt = (uint8_t)json_number(json_get(v, "dt"));
	const json_value *sources = json_get(v, "sources");
	uint16_t nss = (uint16_t)json_length(sources);
	CHECK(nss >= 1 && symbol_bytes >= 1);

	uint8_t *window = malloc((size_t)nss * symbol_bytes);
	uint8_t *expected = malloc(symbol_bytes), *repair = malloc(symbol_bytes);
	for (uint16_t i = 0; i < nss; i++)
		CHECK(hex_decode(json_string(json_at(sources, i)), window + (size_t)i * symbol_bytes) ==
		      symbol_bytes);
	CHECK(hex_decode(json_string(json_get(v, "repair")), expected) == symbol_bytes);

	swf_encoder_config ec = {.symbol_bytes = symbol_bytes, .k = nss, .z = nss, .dt = dt,
				 .first_esi = first_esi, .first_repair_key = repair_key};
	swf_encoder *enc;
	CHECK_OK(swf_encoder_new(&ec, &enc));
	bool due = false;
	for (uint16_t i = 0; i < nss; i++) {
		uint32_t esi;
		CHECK_OK(swf_encoder_add_source(enc, window + (size_t)i * symbol_bytes, symbol_bytes,
						&esi, &due));
	}
	CHECK(due);
	swf_repair_id id;
	CHECK_OK(swf_encoder_build_repair(enc, repair, &id));
	CHECK(id.repair_key == repair_key && id.dt == dt && id.nss == nss && id.first_esi == first_esi);
	if (memcmp(repair, expected, symbol_bytes) != 0)
		fprintf(stderr, "%s: repair symbol differs\n", path);
	CHECK(memcmp(repair, expected, symbol_bytes) == 0);
	swf_encoder_free(enc);

	/* Rebuild the first source whose coefficient is not zero. */
	uint8_t *coefs = malloc(nss);
	CHECK_OK(swf_coefficients(repair_key, dt, nss, coefs));
	uint16_t missing = 0;
	while (missing < nss && coefs[missing] == 0)
		missing++;
	if (missing < nss) {
		swf_decoder_config dc = {.symbol_bytes = symbol_bytes, .max_window = nss};
		swf_decoder *dec;
		CHECK_OK(swf_decoder_new(&dc, &dec));
		for (uint16_t i = 0; i < nss; i++)
			if (i != missing)
				CHECK_OK(swf_decoder_add_source(dec, first_esi + i,
								window + (size_t)i * symbol_bytes,
								symbol_bytes));
		CHECK_OK(swf_decoder_add_repair(dec, &id, expected, symbol_bytes));
		uint32_t esi;
		const uint8_t *symbol;
		CHECK(swf_decoder_next_rebuilt(dec, &esi, &symbol));
		CHECK(esi == first_esi + missing);
		CHECK(memcmp(symbol, window + (size_t)missing * symbol_bytes, symbol_bytes) == 0);
		CHECK(!swf_decoder_next_rebuilt(dec, &esi, &symbol));
		swf_decoder_free(dec);
	}
	free(coefs), free(window), free(expected), free(repair);
	json_free(v);
}

int main(void)
{
	check_expected_kernel();
	size_t seen = json_for_each_file(SWF_VECTORS_DIR "/rlc", ".json", check_vector, NULL);
	if (seen < 30) {
		fprintf(stderr, "expected at least 30 vectors in %s, found %zu\n",
			SWF_VECTORS_DIR "/rlc", seen);
		return 1;
	}
	printf("%zu RLC vectors reproduced\n", seen);
	return 0;
}
