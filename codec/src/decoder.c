/*
 * decoder.c - the RLC decoder: an incremental Gaussian elimination that keeps
 * the received equations in reduced row-echelon form (RREF) over the unknown
 * source symbols of the window.
 *
 * Why RREF: an unknown x is determined by the equations iff the unit vector
 * e_x lies in their row space, and in RREF that holds iff some row *is* e_x.
 * Keeping the system reduced after every symbol therefore rebuilds each lost
 * source symbol at the first moment any decoder holding the same symbols
 * could, and no later.
 *
 * Layout: the window is a ring of `cap` slots (a power of two); ESI e lives in
 * slot e & (cap - 1). The decoder keeps the ESIs (newest - cap, newest]. A
 * column of the system is a slot, so an equation ("row") is one buffer:
 *
 *     [ coefficient per slot: cap bytes | payload: symbol_bytes ]
 *
 * and every row operation is a single GF(2^8) region operation over both
 * parts. Known symbols (received or rebuilt) never appear in a row: their
 * contribution is subtracted from the payload as they become known.
 *
 * Invariants between calls:
 * - each row has a pivot slot whose coefficient is 1, and every other row has
 *   0 in that slot (RREF);
 * - no row is a unit vector (it would have been decoded): so only a row whose
 *   coefficients changed can have become one, and harvest looks at no other
 *   (scanning every row after every symbol cost most of the decoder's time);
 * - a known slot is 0 in every row; a slot leaving the window is first
 *   eliminated from the system (its information about other unknowns kept).
 */
#include "swf.h"

#include "alloc.h"
#include "gf/gf.h"

/* An ESI more than this far from the newest one is not a late or early
 * symbol of the same stream but garbage, or another stream. */
#define MAX_ESI_DISTANCE (UINT32_C(1) << 20)

#define NO_ROW UINT32_MAX

typedef struct row {
	uint8_t *data; /* coefficients, then payload */
	uint32_t pivot; /* slot */
	bool changed; /* coefficients changed since the last harvest */
} row;

struct swf_decoder {
	uint32_t symbol_bytes;
	uint16_t max_window;
	uint32_t cap, mask;
	size_t symbol_stride, coef_bytes, row_bytes;

	bool started;
	uint32_t newest; /* the newest ESI in the window */
	uint32_t first;  /* the oldest ESI known to belong to the stream */

	uint8_t *symbols;    /* cap slots of symbol_stride bytes */
	uint8_t *known;      /* per slot: received or rebuilt */
	uint32_t known_count; /* slots known */
	uint32_t *pivot_row; /* per slot: index in rows[] of the row it pivots, or NO_ROW */

	row *rows; /* the equations, in no particular order */
	uint32_t row_count;
	uint8_t **spare_rows; /* row buffers kept for reuse */
	uint32_t spare_count;

	uint32_t *rebuilt; /* ring of ESIs rebuilt and not yet popped */
	uint32_t rebuilt_head, rebuilt_count;

	uint8_t *coefs;             /* scratch: max_window coefficients */
	const uint8_t **known_srcs; /* scratch: max_window symbols */
	uint8_t *known_coefs;       /* scratch: their coefficients */

	swf_decoder_stats stats;
};

/* ---------------------------------------------------------------------- */
/* Memory                                                                 */

static void *counted_alloc(swf_decoder *d, size_t bytes)
{
	void *p = swf_alloc_zeroed(bytes);
	if (p) {
		d->stats.memory_bytes += swf_round_up(bytes ? bytes : 1);
		if (d->stats.memory_bytes > d->stats.peak_memory_bytes)
			d->stats.peak_memory_bytes = d->stats.memory_bytes;
	}
	return p;
}

/* The window capacity in force: 0 picks twice the largest window. */
static uint32_t capacity_of(const swf_decoder_config *config)
{
	return config->window_capacity ? config->window_capacity : 2u * config->max_window;
}

const char *swf_decoder_config_check(const swf_decoder_config *config)
{
	if (config->symbol_bytes == 0 || config->symbol_bytes > SWF_MAX_SYMBOL_BYTES)
		return "symbol_bytes";
	if (config->max_window == 0 || config->max_window > SWF_MAX_WINDOW)
		return "max_window";
	if (capacity_of(config) < config->max_window || capacity_of(config) > (UINT32_C(1) << 16))
		return "window_capacity";
	return NULL;
}

swf_status swf_decoder_new(const swf_decoder_config *config, swf_decoder **out)
{
	if (swf_decoder_config_check(config))
		return SWF_E_INVALID;
	uint32_t capacity = capacity_of(config);

	swf_decoder *d = calloc(1, sizeof(*d));
	if (!d)
		return SWF_E_NOMEM;
	d->stats.memory_bytes = sizeof(*d);
	d->symbol_bytes = config->symbol_bytes;
	d->max_window = config->max_window;
	d->cap = swf_round_up_pow2(capacity);
	d->mask = d->cap - 1;
	d->symbol_stride = swf_round_up(config->symbol_bytes);
	d->coef_bytes = swf_round_up(d->cap);
	d->row_bytes = d->coef_bytes + config->symbol_bytes;

	d->symbols = counted_alloc(d, d->symbol_stride * d->cap);
	d->known = counted_alloc(d, d->cap);
	d->pivot_row = counted_alloc(d, sizeof(*d->pivot_row) * d->cap);
	d->rows = counted_alloc(d, sizeof(*d->rows) * d->cap);
	d->spare_rows = counted_alloc(d, sizeof(*d->spare_rows) * d->cap);
	d->rebuilt = counted_alloc(d, sizeof(*d->rebuilt) * d->cap);
	d->coefs = counted_alloc(d, d->max_window);
	d->known_srcs = counted_alloc(d, sizeof(*d->known_srcs) * d->max_window);
	d->known_coefs = counted_alloc(d, d->max_window);
	if (!d->symbols || !d->known || !d->pivot_row || !d->rows || !d->spare_rows ||
	    !d->rebuilt || !d->coefs || !d->known_srcs || !d->known_coefs) {
		swf_decoder_free(d);
		return SWF_E_NOMEM;
	}
	for (uint32_t s = 0; s < d->cap; s++)
		d->pivot_row[s] = NO_ROW;
	*out = d;
	return SWF_OK;
}

void swf_decoder_free(swf_decoder *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->row_count; i++)
		free(d->rows[i].data);
	for (uint32_t i = 0; i < d->spare_count; i++)
		free(d->spare_rows[i]);
	free(d->symbols);
	free(d->known);
	free(d->pivot_row);
	free(d->rows);
	free(d->spare_rows);
	free(d->rebuilt);
	free(d->coefs);
	free(d->known_srcs);
	free(d->known_coefs);
	free(d);
}

/* ---------------------------------------------------------------------- */
/* The system of equations                                                */

static uint8_t *coefs_of(const row *r)
{
	return r->data;
}

static uint8_t *payload_of(const swf_decoder *d, const row *r)
{
	return r->data + d->coef_bytes;
}

static uint8_t *symbol_at(const swf_decoder *d, uint32_t slot)
{
	return d->symbols + (size_t)slot * d->symbol_stride;
}

/* Returns a zeroed row buffer, or NULL. */
static uint8_t *take_row_buffer(swf_decoder *d)
{
	if (d->spare_count) {
		uint8_t *data = d->spare_rows[--d->spare_count];
		memset(data, 0, d->coef_bytes);
		return data;
	}
	return counted_alloc(d, d->row_bytes);
}

/* Removes rows[i] from the system, keeping its buffer for reuse. */
static void drop_row(swf_decoder *d, uint32_t i)
{
	row *r = &d->rows[i];
	if (d->pivot_row[r->pivot] == i)
		d->pivot_row[r->pivot] = NO_ROW;
	d->spare_rows[d->spare_count++] = r->data;
	d->row_count--;
	if (i != d->row_count) {
		*r = d->rows[d->row_count];
		d->pivot_row[r->pivot] = i;
	}
}

/* The slot of the oldest non-zero coefficient of data, or NO_ROW if none. */
static uint32_t oldest_nonzero(const swf_decoder *d, const uint8_t *coefs)
{
	uint32_t oldest_slot = (d->newest + 1) & d->mask;
	for (uint32_t i = 0; i < d->cap; i++) {
		uint32_t slot = (oldest_slot + i) & d->mask;
		if (coefs[slot])
			return slot;
	}
	return NO_ROW;
}

/*
 * Makes rows[i] pivot on `slot`: scales the row so that its coefficient there
 * is 1, then eliminates the slot from every other row. rows[i] must already
 * be 0 in the pivot slots of all other rows.
 */
static void set_pivot(swf_decoder *d, uint32_t i, uint32_t slot)
{
	const swf_gf_impl *gf = swf_gf_impl_active();
	row *r = &d->rows[i];
	uint8_t c = coefs_of(r)[slot];
	if (c != 1)
		gf->mul_region(r->data, r->data, swf_gf_inv(c), d->row_bytes);
	r->pivot = slot;
	r->changed = true;
	d->pivot_row[slot] = i;
	for (uint32_t j = 0; j < d->row_count; j++) {
		uint8_t cj = coefs_of(&d->rows[j])[slot];
		if (j != i && cj) {
			gf->mul_add(d->rows[j].data, r->data, cj, d->row_bytes);
			d->rows[j].changed = true;
		}
	}
}

/* Adds an equation whose buffer `data` has no known slot: reduces it against
 * the system and, unless it was a combination of the rows already held,
 * makes it a row. Returns whether it added information. */
static bool add_equation(swf_decoder *d, uint8_t *data)
{
	const swf_gf_impl *gf = swf_gf_impl_active();
	for (uint32_t j = 0; j < d->row_count; j++) {
		uint8_t c = data[d->rows[j].pivot];
		if (c)
			gf->mul_add(data, d->rows[j].data, c, d->row_bytes);
	}
	uint32_t slot = oldest_nonzero(d, data);
	if (slot == NO_ROW) {
		d->spare_rows[d->spare_count++] = data;
		return false;
	}
	uint32_t i = d->row_count++;
	d->rows[i] = (row){.data = data, .pivot = slot};
	set_pivot(d, i, slot);
	return true;
}

static bool is_unit_row(const swf_decoder *d, const row *r)
{
	const uint8_t *c = coefs_of(r);
	for (uint32_t s = 0; s < d->cap; s++)
		if (c[s] && s != r->pivot)
			return false;
	return true;
}

static void queue_rebuilt(swf_decoder *d, uint32_t esi)
{
	if (d->rebuilt_count == d->cap) { /* nobody pops: forget the oldest */
		d->rebuilt_head = (d->rebuilt_head + 1) & d->mask;
		d->rebuilt_count--;
	}
	d->rebuilt[(d->rebuilt_head + d->rebuilt_count++) & d->mask] = esi;
}

/* The ESI a slot holds in the current window. */
static uint32_t esi_of_slot(const swf_decoder *d, uint32_t slot)
{
	return d->newest - ((d->newest - slot) & d->mask);
}

/* Turns every unit row into a rebuilt source symbol. In RREF no other row
 * has a non-zero in a pivot slot, so rebuilding touches nothing else. */
static void harvest(swf_decoder *d)
{
	for (uint32_t i = 0; i < d->row_count;) {
		row *r = &d->rows[i];
		if (!r->changed || !is_unit_row(d, r)) {
			r->changed = false;
			i++;
			continue;
		}
		uint32_t slot = r->pivot;
		memcpy(symbol_at(d, slot), payload_of(d, r), d->symbol_bytes);
		d->known[slot] = 1;
		d->known_count++;
		queue_rebuilt(d, esi_of_slot(d, slot));
		d->stats.rebuilt++;
		drop_row(d, i);
	}
}

/* Substitutes a newly known symbol into every row that uses its slot. */
static void substitute_known(swf_decoder *d, uint32_t slot)
{
	const swf_gf_impl *gf = swf_gf_impl_active();
	const uint8_t *symbol = symbol_at(d, slot);
	for (uint32_t j = 0; j < d->row_count; j++) {
		row *r = &d->rows[j];
		uint8_t c = coefs_of(r)[slot];
		if (c) {
			gf->mul_add(payload_of(d, r), symbol, c, d->symbol_bytes);
			coefs_of(r)[slot] = 0;
			r->changed = true;
		}
	}
	uint32_t i = d->pivot_row[slot];
	if (i == NO_ROW)
		return;
	/* The row lost its pivot; it is still 0 in every other pivot slot. */
	d->pivot_row[slot] = NO_ROW;
	uint32_t next = oldest_nonzero(d, coefs_of(&d->rows[i]));
	if (next == NO_ROW)
		drop_row(d, i);
	else
		set_pivot(d, i, next);
}

/*
 * Eliminates an unknown slot that leaves the window, keeping what the system
 * says about the other unknowns (its projection onto the remaining slots).
 * If the slot is a pivot, only its row uses it: drop that row. Otherwise use
 * one row r that uses it to clear it from the others, then drop r: the others
 * gain a coefficient in r's pivot slot, which stops being a pivot, so the
 * system stays in RREF.
 */
static void eliminate_slot(swf_decoder *d, uint32_t slot)
{
	uint32_t i = d->pivot_row[slot];
	if (i == NO_ROW) {
		for (uint32_t j = 0; j < d->row_count && i == NO_ROW; j++)
			if (coefs_of(&d->rows[j])[slot])
				i = j;
		if (i == NO_ROW)
			return;
		const swf_gf_impl *gf = swf_gf_impl_active();
		row *r = &d->rows[i];
		uint8_t inv = swf_gf_inv(coefs_of(r)[slot]);
		for (uint32_t j = 0; j < d->row_count; j++) {
			uint8_t c = coefs_of(&d->rows[j])[slot];
			if (j != i && c) {
				gf->mul_add(d->rows[j].data, r->data, swf_gf_mul(c, inv), d->row_bytes);
				d->rows[j].changed = true;
			}
		}
	}
	drop_row(d, i);
}

/* ---------------------------------------------------------------------- */
/* The window                                                             */

/* Whether esi is at or after d->first, in serial-number order. */
static bool in_stream(const swf_decoder *d, uint32_t esi)
{
	return (int32_t)(esi - d->first) >= 0;
}

static void retire(swf_decoder *d, uint32_t esi)
{
	uint32_t slot = esi & d->mask;
	if (d->known[slot]) {
		d->known[slot] = 0;
		d->known_count--;
		return;
	}
	if (in_stream(d, esi))
		d->stats.given_up++;
	eliminate_slot(d, slot);
}

/* Slides the window so that its newest ESI is `newest`. */
static void advance(swf_decoder *d, uint32_t newest)
{
	uint32_t steps = newest - d->newest;
	if (steps > d->cap)
		steps = d->cap;
	for (uint32_t n = 1; n <= steps; n++)
		retire(d, d->newest - d->cap + n);
	d->newest = newest;
	/* Keep `first` inside the window, so serial comparisons with it hold
	 * however long the stream runs. */
	if (newest - d->first >= d->cap)
		d->first = newest - d->cap + 1;
	harvest(d); /* eliminating slots can leave unit rows */
}

/*
 * Places the ESI range [lo, hi] relative to the window, sliding it forward
 * when hi is newer. Returns SWF_E_RANGE for a jump no stream makes, or sets
 * *stale when lo has already left the window.
 */
static swf_status place(swf_decoder *d, uint32_t lo, uint32_t hi, bool *stale)
{
	*stale = false;
	if (!d->started) {
		d->started = true;
		d->newest = hi;
		d->first = lo;
		return SWF_OK;
	}
	int32_t ahead = (int32_t)(hi - d->newest);
	if (ahead > (int32_t)MAX_ESI_DISTANCE || ahead < -(int32_t)MAX_ESI_DISTANCE)
		return SWF_E_RANGE;
	if (ahead > 0)
		advance(d, hi);
	if (d->newest - lo >= d->cap) {
		*stale = true;
		return SWF_OK;
	}
	if (!in_stream(d, lo))
		d->first = lo;
	return SWF_OK;
}

static swf_status reject(swf_decoder *d, swf_status status)
{
	d->stats.rejected++;
	return status;
}

/* ---------------------------------------------------------------------- */
/* Public API                                                             */

swf_status swf_decoder_add_source(swf_decoder *d, uint32_t esi, const void *symbol, size_t len)
{
	if (len != d->symbol_bytes || !symbol)
		return reject(d, SWF_E_MALFORMED);
	bool stale;
	swf_status status = place(d, esi, esi, &stale);
	if (status != SWF_OK)
		return reject(d, status);
	uint32_t slot = esi & d->mask;
	if (stale || d->known[slot]) {
		d->stats.duplicates++;
		return SWF_OK;
	}
	memcpy(symbol_at(d, slot), symbol, len);
	d->known[slot] = 1;
	d->known_count++;
	d->stats.sources++;
	substitute_known(d, slot);
	harvest(d);
	return SWF_OK;
}

swf_status swf_decoder_add_repair(swf_decoder *d, const swf_repair_id *id, const void *symbol,
				  size_t len)
{
	if (len != d->symbol_bytes || !symbol || id->dt > SWF_MAX_DT || id->nss == 0 ||
	    id->nss > d->max_window)
		return reject(d, SWF_E_MALFORMED);
	bool stale;
	uint32_t first = id->first_esi;
	swf_status status = place(d, first, first + id->nss - 1u, &stale);
	if (status != SWF_OK)
		return reject(d, status);
	if (stale) {
		d->stats.duplicates++;
		return SWF_OK;
	}
	d->stats.repairs++;

	swf_coefficients(id->repair_key, id->dt, id->nss, d->coefs);
	bool uses_unknown = false;
	for (uint32_t i = 0; i < id->nss && !uses_unknown; i++)
		uses_unknown = d->coefs[i] && !d->known[(first + i) & d->mask];
	if (!uses_unknown)
		return SWF_OK; /* every symbol it covers is known already */

	uint8_t *data = take_row_buffer(d);
	if (!data)
		return reject(d, SWF_E_NOMEM);
	uint32_t known_count = 0;
	for (uint32_t i = 0; i < id->nss; i++) {
		uint32_t slot = (first + i) & d->mask;
		uint8_t c = d->coefs[i];
		if (!c)
			continue;
		if (d->known[slot]) {
			d->known_srcs[known_count] = symbol_at(d, slot);
			d->known_coefs[known_count++] = c;
		} else {
			data[slot] = c;
		}
	}
	uint8_t *payload = data + d->coef_bytes;
	memcpy(payload, symbol, len);
	/* Over GF(2^8) subtraction is addition: payload -= sum c * known. */
	swf_gf_impl_active()->dot_add(payload, d->known_srcs, d->known_coefs, known_count, len);

	if (add_equation(d, data))
		d->stats.useful_repairs++;
	harvest(d);
	return SWF_OK;
}

bool swf_decoder_next_rebuilt(swf_decoder *d, uint32_t *esi, const uint8_t **symbol)
{
	while (d->rebuilt_count) {
		uint32_t e = d->rebuilt[d->rebuilt_head];
		d->rebuilt_head = (d->rebuilt_head + 1) & d->mask;
		d->rebuilt_count--;
		if (d->newest - e < d->cap) { /* still in the window */
			*esi = e;
			*symbol = symbol_at(d, e & d->mask);
			return true;
		}
	}
	return false;
}

void swf_decoder_get_stats(const swf_decoder *d, swf_decoder_stats *stats)
{
	*stats = d->stats;
	stats->equations = d->row_count;
	/* The window holds the ESIs from `first` (or the ring's start) to newest. */
	uint32_t span = d->started ? d->newest - d->first + 1 : 0;
	stats->unknowns = (span < d->cap ? span : d->cap) - d->known_count;
}
