/*
 * glue.c - libswf as the TypeScript wrapper (src/swf.ts) calls it.
 *
 * JavaScript hands WebAssembly plain numbers: no structs, and no 64-bit
 * integers (emscripten 3.1.6 without BigInt splits them). So each function
 * here takes the fields of a libswf struct as separate 32-bit integers or
 * doubles and builds the struct itself, and the wrapper never depends on a
 * struct's layout. JavaScript numbers arrive as uint32_t; fields narrower than
 * that are checked here, where the narrowing happens, so that 65537 never
 * silently becomes 1.
 *
 * Functions of swf.h that take only pointers and 32-bit integers are called
 * directly and need no glue.
 */
#include <stdint.h>
#include <stdlib.h>

#include "swf.h"

/*
 * Results come back as rows of doubles (every count stays exact below 2^53).
 * Each row's layout is named once, here: the writer fills the row in this
 * order, and swfw_row_layout hands the wrapper the same names, so that it
 * reads every value by name and never by position ("name:n" is a field of n
 * values).
 */
#define DECODER_STATS_ROW(X) X(sources) X(repairs) X(useful_repairs) X(rebuilt) X(given_up) \
	X(duplicates) X(rejected) X(equations) X(unknowns) X(memory_bytes) X(peak_memory_bytes)
#define CHANNEL_STATS_ROW(X) X(time_based) X(duration_us) X(lost_us) X(time_lost_ratio) \
	X(packets) X(packets_lost) X(packet_loss_ratio) X(bursts) X(burst_min) X(burst_mean) \
	X(burst_max)
#define RESIDUAL_COUNTS_ROW(X) X(sources) X(lost) X(packets) X(packets_lost) X(rebuilt) \
	X(rebuilt_wrong)

#define ROW_NAME(field) #field ","
#define ROW_WRITE(field) *out++ = (double)row.field;
#define ROW_FIELD(field) +1
#define STRINGIFY(x) #x
#define STRINGIFY_VALUE(x) STRINGIFY(x)

enum {
	DECODER_STATS_DOUBLES = 0 DECODER_STATS_ROW(ROW_FIELD),
	CHANNEL_STATS_DOUBLES = 0 CHANNEL_STATS_ROW(ROW_FIELD) + SWF_CHANNEL_BURST_BINS,
	RESIDUAL_COUNTS_DOUBLES = 0 RESIDUAL_COUNTS_ROW(ROW_FIELD),
};

/* The rows, as the wrapper names them (swfw_row_layout's argument). */
enum swfw_row { SWFW_ROW_DECODER_STATS, SWFW_ROW_CHANNEL_STATS, SWFW_ROW_RESIDUAL_COUNTS };

/* swfw_row_layout returns the comma-separated field names of a row, in the
 * order its writer fills it, or NULL for an unknown row. */
const char *swfw_row_layout(uint32_t row)
{
	switch (row) {
	case SWFW_ROW_DECODER_STATS:
		return DECODER_STATS_ROW(ROW_NAME);
	case SWFW_ROW_CHANNEL_STATS:
		return CHANNEL_STATS_ROW(ROW_NAME) "burst_histogram:" STRINGIFY_VALUE(SWF_CHANNEL_BURST_BINS);
	case SWFW_ROW_RESIDUAL_COUNTS:
		return RESIDUAL_COUNTS_ROW(ROW_NAME);
	default:
		return NULL;
	}
}

/* Both sides see trace intervals as pairs of doubles. */
_Static_assert(sizeof(swf_loss_interval) == 2 * sizeof(double),
	       "swf_loss_interval must be two packed doubles");

/* Writes a repair ID as four uint32_t: repair_key, dt, nss, first_esi. */
static void repair_id_to_fields(const swf_repair_id *id, uint32_t fields[4])
{
	fields[0] = id->repair_key;
	fields[1] = id->dt;
	fields[2] = id->nss;
	fields[3] = id->first_esi;
}

/* Builds *id from JavaScript numbers; false if one does not fit its field. */
static bool repair_id_from_fields(uint32_t repair_key, uint32_t dt, uint32_t nss,
				  uint32_t first_esi, swf_repair_id *id)
{
	if (repair_key > UINT16_MAX || dt > UINT8_MAX || nss > UINT16_MAX)
		return false;
	*id = (swf_repair_id){
		.repair_key = (uint16_t)repair_key,
		.dt = (uint8_t)dt,
		.nss = (uint16_t)nss,
		.first_esi = first_esi,
	};
	return true;
}

swf_status swfw_repair_id_write(uint32_t repair_key, uint32_t dt, uint32_t nss,
				uint32_t first_esi, uint8_t out[SWF_REPAIR_ID_BYTES])
{
	swf_repair_id id;

	if (!repair_id_from_fields(repair_key, dt, nss, first_esi, &id))
		return SWF_E_INVALID;
	return swf_repair_id_write(&id, out);
}

swf_status swfw_repair_id_read(const uint8_t *buf, size_t len, uint32_t fields[4])
{
	swf_repair_id id;
	swf_status status = swf_repair_id_read(buf, len, &id);

	if (status == SWF_OK)
		repair_id_to_fields(&id, fields);
	return status;
}

swf_status swfw_coefficients(uint32_t repair_key, uint32_t dt, uint32_t nss, uint8_t *coefs)
{
	if (repair_key > UINT16_MAX || dt > UINT8_MAX || nss > UINT16_MAX)
		return SWF_E_INVALID;
	return swf_coefficients((uint16_t)repair_key, (uint8_t)dt, (uint16_t)nss, coefs);
}

/* On SWF_E_INVALID, *invalid_field names the first invalid field of
 * swf_encoder_config; otherwise it is NULL. */
swf_status swfw_encoder_new(uint32_t symbol_bytes, uint32_t k, uint32_t z, uint32_t dt,
			    uint32_t first_esi, uint32_t first_repair_key, swf_encoder **out,
			    const char **invalid_field)
{
	if (k > UINT16_MAX)
		*invalid_field = "k";
	else if (z > UINT16_MAX)
		*invalid_field = "z";
	else if (dt > UINT8_MAX)
		*invalid_field = "dt";
	else if (first_repair_key > UINT16_MAX)
		*invalid_field = "first_repair_key";
	else
		*invalid_field = NULL;
	if (*invalid_field)
		return SWF_E_INVALID;

	swf_encoder_config config = {
		.symbol_bytes = symbol_bytes,
		.k = (uint16_t)k,
		.z = (uint16_t)z,
		.dt = (uint8_t)dt,
		.first_esi = first_esi,
		.first_repair_key = (uint16_t)first_repair_key,
	};
	*invalid_field = swf_encoder_config_check(&config);
	if (*invalid_field)
		return SWF_E_INVALID;
	return swf_encoder_new(&config, out);
}

swf_status swfw_encoder_build_repair(swf_encoder *encoder, uint8_t *out, uint32_t id_fields[4])
{
	swf_repair_id id;
	swf_status status = swf_encoder_build_repair(encoder, out, &id);

	if (status == SWF_OK)
		repair_id_to_fields(&id, id_fields);
	return status;
}

/* On SWF_E_INVALID, *invalid_field names the first invalid field of
 * swf_decoder_config; otherwise it is NULL. */
swf_status swfw_decoder_new(uint32_t symbol_bytes, uint32_t max_window, uint32_t window_capacity,
			    swf_decoder **out, const char **invalid_field)
{
	*invalid_field = max_window > UINT16_MAX ? "max_window" : NULL;
	if (*invalid_field)
		return SWF_E_INVALID;
	swf_decoder_config config = {
		.symbol_bytes = symbol_bytes,
		.max_window = (uint16_t)max_window,
		.window_capacity = window_capacity,
	};
	*invalid_field = swf_decoder_config_check(&config);
	if (*invalid_field)
		return SWF_E_INVALID;
	return swf_decoder_new(&config, out);
}

/* An ID that cannot come from the wire (a field wider than its bits) is
 * malformed, as swf_decoder_add_repair calls a dt above 15. */
swf_status swfw_decoder_add_repair(swf_decoder *decoder, uint32_t repair_key, uint32_t dt,
				   uint32_t nss, uint32_t first_esi, const void *symbol, size_t len)
{
	swf_repair_id id;

	if (!repair_id_from_fields(repair_key, dt, nss, first_esi, &id))
		return SWF_E_MALFORMED;
	return swf_decoder_add_repair(decoder, &id, symbol, len);
}

/* Writes swf_decoder_stats as the row SWFW_ROW_DECODER_STATS. */
void swfw_decoder_stats(const swf_decoder *decoder, double out[DECODER_STATS_DOUBLES])
{
	swf_decoder_stats row;

	swf_decoder_get_stats(decoder, &row);
	DECODER_STATS_ROW(ROW_WRITE)
}

/* Builds a channel config on the heap (free it with swfw_channel_config_free)
 * for swf_channel_new and swfw_channel_measure; intervals stay the caller's
 * and must outlive it. NULL if config is invalid, with *invalid_field naming
 * the first invalid field of swf_channel_config, or if out of memory, with
 * *invalid_field NULL. */
swf_channel_config *swfw_channel_config_new(uint32_t kind, uint32_t seed, double loss, double p,
					    double q, double loss_good, double loss_bad,
					    double step_ms, double period_ms, double duration_ms,
					    double phase_ms, double jitter_ms,
					    const swf_loss_interval *intervals,
					    uint32_t interval_count, double trace_period_ms,
					    const char **invalid_field)
{
	swf_channel_config config = {
		.kind = (swf_channel_kind)kind,
		.seed = seed,
		.loss = loss,
		.p = p,
		.q = q,
		.loss_good = loss_good,
		.loss_bad = loss_bad,
		.step_ms = step_ms,
		.period_ms = period_ms,
		.duration_ms = duration_ms,
		.phase_ms = phase_ms,
		.jitter_ms = jitter_ms,
		.intervals = intervals,
		.interval_count = interval_count,
		.trace_period_ms = trace_period_ms,
	};

	*invalid_field = swf_channel_config_check(&config);
	if (*invalid_field)
		return NULL;
	swf_channel_config *copy = malloc(sizeof(*copy));
	if (copy)
		*copy = config;
	return copy;
}

void swfw_channel_config_free(swf_channel_config *config)
{
	free(config);
}

/* Measures the channel of config over the stream (swf_channel_measure) and
 * writes swf_channel_stats as the row SWFW_ROW_CHANNEL_STATS. loss_rule is swf_loss_rule's value (checked by
 * swf_stream_check). On SWF_E_INVALID, *invalid_field names the first
 * invalid field of swf_stream; otherwise it is NULL. */
swf_status swfw_channel_measure(const swf_channel_config *config, double duration_ms,
				double rate_mbps, uint32_t packet_bytes, uint32_t loss_rule,
				double link_rate_mbps, double out[CHANNEL_STATS_DOUBLES],
				const char **invalid_field)
{
	swf_stream stream = {
		.duration_ms = duration_ms,
		.rate_mbps = rate_mbps,
		.packet_bytes = packet_bytes,
		.loss_rule = (swf_loss_rule)loss_rule,
		.link_rate_mbps = link_rate_mbps,
	};
	swf_channel_stats row;

	*invalid_field = swf_stream_check(&stream);
	if (*invalid_field)
		return SWF_E_INVALID;
	swf_status status = swf_channel_measure(config, &stream, &row);
	if (status != SWF_OK)
		return status;
	CHANNEL_STATS_ROW(ROW_WRITE)
	for (size_t bin = 0; bin < SWF_CHANNEL_BURST_BINS; bin++)
		*out++ = (double)row.burst_histogram[bin];
	return SWF_OK;
}

/* t_us arrives as a double: the wrapper checks it is an integer below 2^53. */
bool swfw_channel_lost(swf_channel *channel, double t_us)
{
	return swf_channel_lost(channel, (uint64_t)t_us);
}

/* Times arrive as doubles: the wrapper checks they are integers below 2^53. */
bool swfw_channel_lost_during(swf_channel *channel, double start_us, double end_us)
{
	return swf_channel_lost_during(channel, (uint64_t)start_us, (uint64_t)end_us);
}

/* Builds a residual-loss stream from JavaScript numbers (first_packet arrives
 * as a double: the wrapper checks it is an integer below 2^53) and the
 * channel config of swfw_channel_config_new. On SWF_E_INVALID,
 * *invalid_field names the first invalid field of swf_residual_config. */
swf_status swfw_residual_new(uint32_t k, uint32_t z, double packet_ms, double first_packet,
			     const swf_channel_config *channel, swf_residual **out,
			     const char **invalid_field)
{
	*invalid_field = k > UINT16_MAX ? "k" : z > UINT16_MAX ? "z" : NULL;
	if (*invalid_field)
		return SWF_E_INVALID;
	swf_residual_config config = {
		.k = (uint16_t)k,
		.z = (uint16_t)z,
		.packet_ms = packet_ms,
		.first_packet = (uint64_t)first_packet,
		.channel = *channel,
	};
	*invalid_field = swf_residual_config_check(&config);
	if (*invalid_field)
		return SWF_E_INVALID;
	return swf_residual_new(&config, out);
}

/* Settles `sources` more sources (a double: below 2^53) and writes
 * swf_residual_counts as the row SWFW_ROW_RESIDUAL_COUNTS. */
swf_status swfw_residual_advance(swf_residual *residual, double sources,
				 double out[RESIDUAL_COUNTS_DOUBLES])
{
	swf_residual_counts row;
	swf_status status = swf_residual_advance(residual, (uint64_t)sources, &row);

	if (status != SWF_OK)
		return status;
	RESIDUAL_COUNTS_ROW(ROW_WRITE)
	return SWF_OK;
}
