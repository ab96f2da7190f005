/*
 * test_payload_id.c - proves that the Repair FEC Payload ID has RFC 8681's
 * wire format (key, 4-bit DT, 12-bit NSS, 32-bit first ESI, big-endian),
 * round-trips every field, and that truncated or impossible IDs are refused
 * without touching the output.
 */
#include "check.h"

static void test_wire_format(void)
{
	swf_repair_id id = {.repair_key = 0x1234, .dt = 0xA, .nss = 0xBCD, .first_esi = 0xDEADBEEF};
	uint8_t wire[SWF_REPAIR_ID_BYTES];
	static const uint8_t expected[] = {0x12, 0x34, 0xAB, 0xCD, 0xDE, 0xAD, 0xBE, 0xEF};
	CHECK_OK(swf_repair_id_write(&id, wire));
	CHECK(memcmp(wire, expected, sizeof(expected)) == 0);
}

static void test_round_trip(void)
{
	uint64_t rng = 7;
	for (int i = 0; i < 10000; i++) {
		swf_repair_id id = {
			.repair_key = (uint16_t)test_rand(&rng),
			.dt = (uint8_t)(test_rand(&rng) % 16),
			.nss = (uint16_t)(1 + test_rand(&rng) % SWF_MAX_WINDOW),
			.first_esi = (uint32_t)test_rand(&rng),
		};
		uint8_t wire[SWF_REPAIR_ID_BYTES];
		swf_repair_id back;
		CHECK_OK(swf_repair_id_write(&id, wire));
		CHECK_OK(swf_repair_id_read(wire, sizeof(wire), &back));
		CHECK(back.repair_key == id.repair_key && back.dt == id.dt && back.nss == id.nss &&
		      back.first_esi == id.first_esi);
	}
}

static void test_read_rejects_malformed(void)
{
	uint8_t wire[SWF_REPAIR_ID_BYTES] = {0, 1, 0xF0, 0, 0, 0, 0, 1}; /* NSS 0 */
	swf_repair_id id = {.repair_key = 99};
	CHECK(swf_repair_id_read(wire, sizeof(wire), &id) == SWF_E_MALFORMED);
	wire[3] = 1;
	for (size_t len = 0; len < SWF_REPAIR_ID_BYTES; len++)
		CHECK(swf_repair_id_read(wire, len, &id) == SWF_E_MALFORMED);
	CHECK(id.repair_key == 99);
	CHECK_OK(swf_repair_id_read(wire, sizeof(wire), &id));
	CHECK(id.dt == 15 && id.nss == 1 && id.first_esi == 1);
}

static void test_write_rejects_invalid(void)
{
	uint8_t wire[SWF_REPAIR_ID_BYTES] = {0};
	swf_repair_id bad_dt = {.dt = 16, .nss = 1};
	swf_repair_id no_window = {.dt = 15, .nss = 0};
	swf_repair_id too_wide = {.dt = 15, .nss = SWF_MAX_WINDOW + 1};
	CHECK(swf_repair_id_write(&bad_dt, wire) == SWF_E_INVALID);
	CHECK(swf_repair_id_write(&no_window, wire) == SWF_E_INVALID);
	CHECK(swf_repair_id_write(&too_wide, wire) == SWF_E_INVALID);
	for (size_t i = 0; i < sizeof(wire); i++)
		CHECK(wire[i] == 0);
}

static void test_status_strings_are_sentences(void)
{
	swf_status all[] = {SWF_OK, SWF_E_INVALID, SWF_E_NOMEM, SWF_E_MALFORMED, SWF_E_RANGE};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		const char *s = swf_status_string(all[i]);
		CHECK(s[0] >= 'A' && s[0] <= 'Z' && s[strlen(s) - 1] == '.');
	}
}

int main(void)
{
	test_wire_format();
	test_round_trip();
	test_read_rejects_malformed();
	test_write_rejects_invalid();
	test_status_strings_are_sentences();
	return 0;
}
