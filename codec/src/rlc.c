/*
 * rlc.c - the parts of RFC 8681 shared by encoder and decoder: the FEC
 * payload IDs on the wire and the coding coefficients.
 */
#include "swf.h"

#include "tinymt32.h"

swf_status swf_repair_id_write(const swf_repair_id *id, uint8_t out[SWF_REPAIR_ID_BYTES])
{
	if (id->dt > SWF_MAX_DT || id->nss == 0 || id->nss > SWF_MAX_WINDOW)
		return SWF_E_INVALID;
	out[0] = (uint8_t)(id->repair_key >> 8);
	out[1] = (uint8_t)id->repair_key;
	out[2] = (uint8_t)(id->dt << 4 | id->nss >> 8);
	out[3] = (uint8_t)id->nss;
	out[4] = (uint8_t)(id->first_esi >> 24);
	out[5] = (uint8_t)(id->first_esi >> 16);
	out[6] = (uint8_t)(id->first_esi >> 8);
	out[7] = (uint8_t)id->first_esi;
	return SWF_OK;
}

swf_status swf_repair_id_read(const uint8_t *buf, size_t len, swf_repair_id *id)
{
	if (len < SWF_REPAIR_ID_BYTES)
		return SWF_E_MALFORMED;
	uint16_t nss = (uint16_t)((buf[2] & 0x0f) << 8 | buf[3]);
	if (nss == 0)
		return SWF_E_MALFORMED;
	id->repair_key = (uint16_t)(buf[0] << 8 | buf[1]);
	id->dt = buf[2] >> 4;
	id->nss = nss;
	id->first_esi = (uint32_t)buf[4] << 24 | (uint32_t)buf[5] << 16 | (uint32_t)buf[6] << 8 | buf[7];
	return SWF_OK;
}

/*
 * RFC 8681, section 3.6, generate_coding_coefficients() for m = 8: a
 * coefficient is drawn (re-drawn while zero) when dt is 15, or when a 4-bit
 * draw does not exceed dt; otherwise it is zero.
 */
swf_status swf_coefficients(uint16_t repair_key, uint8_t dt, uint16_t nss, uint8_t *coefs)
{
	if (dt > SWF_MAX_DT || nss > SWF_MAX_WINDOW)
		return SWF_E_INVALID;
	swf_tinymt32 prng;
	swf_tinymt32_init(&prng, repair_key);
	for (unsigned i = 0; i < nss; i++) {
		uint8_t c = 0;
		if (dt == SWF_MAX_DT || (swf_tinymt32_next(&prng) & 0xf) <= dt) {
			do
				c = (uint8_t)swf_tinymt32_next(&prng);
			while (c == 0);
		}
		coefs[i] = c;
	}
	return SWF_OK;
}
