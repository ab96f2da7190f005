/*
 * fuzz.c - the decoder's input path under arbitrary bytes.
 *
 * The first byte picks the symbol size and window; then each record is one
 * call: a source (ESI relative to a moving base, a length that may be wrong,
 * bytes), a repair (8 raw bytes parsed as a Repair FEC Payload ID, with the
 * ESI made relative to the base so that it lands near the window), a drain of
 * the rebuilt symbols, or a jump of the base. Whatever the bytes, the decoder
 * must return a documented status, and never read or write out of bounds
 * (the sanitizers watch) nor lose track of its counters.
 */
#include <stdint.h>
#include <string.h>

#include "swf.h"

typedef struct reader {
	const uint8_t *data;
	size_t left;
} reader;

static uint8_t take_byte(reader *r)
{
	if (!r->left)
		return 0;
	r->left--;
	return *r->data++;
}

static const uint8_t *take(reader *r, size_t n, size_t *got)
{
	*got = n < r->left ? n : r->left;
	const uint8_t *p = r->data;
	r->data += *got;
	r->left -= *got;
	return p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	reader r = {data, size};
	uint8_t shape = take_byte(&r);
	swf_decoder_config config = {
		.symbol_bytes = 1u + (shape & 0x1f),
		.max_window = (uint16_t)(1u + (shape >> 5) * 9u),
	};
	swf_decoder *dec;
	if (swf_decoder_new(&config, &dec) != SWF_OK)
		return 0;
	uint32_t base = 0xFFFFFF00u;
	uint64_t calls_rejected = 0;
	while (r.left) {
		uint8_t op = take_byte(&r);
		swf_status status = SWF_OK;
		size_t got;
		switch (op & 3) {
		case 0: { /* source */
			uint32_t esi = base + (int8_t)take_byte(&r);
			size_t len = (op & 4) ? config.symbol_bytes : take_byte(&r);
			const uint8_t *bytes = take(&r, len, &got);
			status = swf_decoder_add_source(dec, esi, bytes, got);
			break;
		}
		case 1: { /* repair */
			const uint8_t *raw = take(&r, SWF_REPAIR_ID_BYTES, &got);
			swf_repair_id id;
			if (swf_repair_id_read(raw, got, &id) != SWF_OK)
				break;
			id.first_esi = base + (int8_t)id.first_esi;
			size_t len = (op & 4) ? config.symbol_bytes : take_byte(&r);
			const uint8_t *bytes = take(&r, len, &got);
			status = swf_decoder_add_repair(dec, &id, bytes, got);
			break;
		}
		case 2: { /* drain */
			uint32_t esi;
			const uint8_t *symbol;
			uint8_t sink = 0;
			while (swf_decoder_next_rebuilt(dec, &esi, &symbol))
				sink ^= symbol[0] ^ symbol[config.symbol_bytes - 1];
			(void)sink;
			break;
		}
		case 3: /* move the base, sometimes far */
			base += (op & 4) ? (uint32_t)take_byte(&r) << 16 : take_byte(&r);
			break;
		}
		if (status != SWF_OK) {
			if (status != SWF_E_MALFORMED && status != SWF_E_RANGE)
				__builtin_trap();
			calls_rejected++;
		}
	}
	swf_decoder_stats stats;
	swf_decoder_get_stats(dec, &stats);
	if (stats.rejected != calls_rejected || stats.memory_bytes > stats.peak_memory_bytes)
		__builtin_trap();
	swf_decoder_free(dec);
	return 0;
}
