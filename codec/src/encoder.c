/*
 * encoder.c - the S(k,z) sliding-window encoder of RFC 8681's RLC scheme.
 *
 * The last z source symbols live in a ring; a repair symbol is the linear
 * combination sum_i c_i * source[first_esi + i] over the current window,
 * computed by one dot product of the GF(2^8) kernel.
 */
#include "swf.h"

#include "alloc.h"
#include "gf/gf.h"

struct swf_encoder {
	swf_encoder_config config;
	size_t stride;         /* bytes per ring slot */
	uint8_t *ring;         /* z slots; source n lives in slot n % z */
	uint64_t added;        /* sources added so far */
	uint32_t since_repair; /* sources added since the last repair */
	uint16_t next_repair_key;
	const uint8_t **window; /* z pointers: the window in ESI order */
	uint8_t *coefs;         /* z coefficients */
};

const char *swf_encoder_config_check(const swf_encoder_config *config)
{
	if (config->symbol_bytes == 0 || config->symbol_bytes > SWF_MAX_SYMBOL_BYTES)
		return "symbol_bytes";
	if (config->k == 0)
		return "k";
	if (config->z == 0 || config->z > SWF_MAX_WINDOW)
		return "z";
	if (config->dt > SWF_MAX_DT)
		return "dt";
	return NULL;
}

swf_status swf_encoder_new(const swf_encoder_config *config, swf_encoder **out)
{
	if (swf_encoder_config_check(config))
		return SWF_E_INVALID;
	swf_encoder *e = calloc(1, sizeof(*e));
	if (!e)
		return SWF_E_NOMEM;
	e->config = *config;
	e->stride = swf_round_up(config->symbol_bytes);
	e->ring = swf_alloc_zeroed(e->stride * config->z);
	e->window = calloc(config->z, sizeof(*e->window));
	e->coefs = malloc(config->z);
	e->next_repair_key = config->first_repair_key;
	if (!e->ring || !e->window || !e->coefs) {
		swf_encoder_free(e);
		return SWF_E_NOMEM;
	}
	*out = e;
	return SWF_OK;
}

void swf_encoder_free(swf_encoder *encoder)
{
	if (!encoder)
		return;
	free(encoder->ring);
	free(encoder->window);
	free(encoder->coefs);
	free(encoder);
}

static uint8_t *slot_of(const swf_encoder *e, uint64_t source_number)
{
	return e->ring + (size_t)(source_number % e->config.z) * e->stride;
}

swf_status swf_encoder_add_source(swf_encoder *e, const void *data, size_t len, uint32_t *esi,
				  bool *repair_due)
{
	if (len > e->config.symbol_bytes || (len && !data))
		return SWF_E_INVALID;
	uint8_t *slot = slot_of(e, e->added);
	if (len)
		memcpy(slot, data, len);
	memset(slot + len, 0, e->config.symbol_bytes - len);
	*esi = e->config.first_esi + (uint32_t)e->added;
	e->added++;
	e->since_repair++;
	*repair_due = e->since_repair >= e->config.k;
	return SWF_OK;
}

swf_status swf_encoder_build_repair(swf_encoder *e, uint8_t *out, swf_repair_id *id)
{
	if (e->added == 0)
		return SWF_E_INVALID;
	uint16_t nss = e->added < e->config.z ? (uint16_t)e->added : e->config.z;
	uint64_t first = e->added - nss;

	id->repair_key = e->next_repair_key;
	id->dt = e->config.dt;
	id->nss = nss;
	id->first_esi = e->config.first_esi + (uint32_t)first;
	swf_coefficients(id->repair_key, id->dt, nss, e->coefs);
	const uint8_t *slot = slot_of(e, first);
	const uint8_t *ring_end = e->ring + (size_t)e->config.z * e->stride;
	for (uint16_t i = 0; i < nss; i++) { /* slot_of(e, first + i), without a division */
		e->window[i] = slot;
		slot += e->stride;
		if (slot == ring_end)
			slot = e->ring;
	}
	memset(out, 0, e->config.symbol_bytes);
	swf_gf_impl_active()->dot_add(out, e->window, e->coefs, nss, e->config.symbol_bytes);

	e->next_repair_key++;
	e->since_repair = 0;
	return SWF_OK;
}
