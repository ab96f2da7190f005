/*
 * test_decoder_property.c - proves, over long seeded random streams, that
 * the decoder rebuilds exactly what a plain Gaussian-elimination decoder
 * holding the same symbols can rebuild, at the same moment, byte for byte.
 *
 * Each scenario encodes a stream with S(k,z) (plus random flushes), loses
 * packets (uniformly or in bursts), duplicates and reorders some, and feeds
 * the rest to the decoder one by one. After every packet the reference below
 * solves, from scratch, the system of every repair received so far over the
 * sources not received, with its own bitwise GF(2^8) multiply; then for every
 * ESI still in the decoder's window: "received or rebuilt by the decoder" must
 * equal "received or determined by the reference", and every rebuilt symbol
 * must equal the original.
 */
#include "check.h"

/* The reference's own field arithmetic (0x11D), sharing nothing with libswf:
 * a bitwise multiply, tabulated once for speed. */
static uint8_t ref_product[256][256], ref_inverse[256];

static void ref_field_init(void)
{
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++) {
			uint8_t p = 0, x = (uint8_t)a;
			for (unsigned y = b; y; y >>= 1) {
				if (y & 1)
					p ^= x;
				x = (uint8_t)(x << 1) ^ (x & 0x80 ? 0x1d : 0);
			}
			ref_product[a][b] = p;
			if (p == 1)
				ref_inverse[a] = (uint8_t)b;
		}
}

static uint8_t ref_mul(uint8_t a, uint8_t b)
{
	return ref_product[a][b];
}

typedef struct packet {
	bool is_repair;
	uint32_t index;   /* source index, for a source */
	swf_repair_id id; /* for a repair */
	uint8_t *bytes;
	double order_key; /* for reordering */
	bool delivered;   /* to the reference already (it ignores duplicates) */
} packet;

typedef struct scenario {
	const char *name;
	uint16_t k, z;
	uint8_t dt;
	uint32_t symbol_bytes, sources;
	double loss;       /* per packet; with burst > 1, the chance a burst starts */
	uint32_t burst;    /* losses come in bursts of up to this many packets */
	double duplicate;  /* chance a delivered packet is delivered twice */
	uint32_t reorder;  /* packets may arrive up to this many places late */
	double flush;      /* chance of an extra repair after a source */
	uint32_t first_esi;
} scenario;

typedef struct reference {
	uint32_t sources;
	bool *received, *determined;
	packet **repairs; /* received repairs that still involve an unknown */
	uint8_t **repair_coefs;
	size_t repair_count;
	uint32_t first_esi;
	int *column_of;            /* per source: its column in the system, or -1 */
	uint32_t *index_of_column; /* per column: its source */
} reference;

static void reference_add_repair(reference *ref, packet *p)
{
	ref->repairs[ref->repair_count] = p;
	ref->repair_coefs[ref->repair_count] = malloc(p->id.nss);
	CHECK_OK(swf_coefficients(p->id.repair_key, p->id.dt, p->id.nss,
				  ref->repair_coefs[ref->repair_count]));
	ref->repair_count++;
}

/* Marks every source determined by the received symbols. */
static void reference_solve(reference *ref)
{
	int *column_of = ref->column_of;
	uint32_t *index_of_column = ref->index_of_column;
	size_t columns = 0;

	/* Forget repairs that no longer involve an undetermined source. */
	size_t kept = 0;
	for (size_t r = 0; r < ref->repair_count; r++) {
		packet *p = ref->repairs[r];
		bool involves = false;
		for (uint32_t i = 0; i < p->id.nss && !involves; i++) {
			uint32_t index = p->id.first_esi + i - ref->first_esi;
			involves = ref->repair_coefs[r][i] && !ref->determined[index];
		}
		if (involves) {
			ref->repairs[kept] = p;
			ref->repair_coefs[kept++] = ref->repair_coefs[r];
		} else {
			free(ref->repair_coefs[r]);
		}
	}
	ref->repair_count = kept;
	if (kept == 0)
		return;

	for (size_t r = 0; r < kept; r++) {
		packet *p = ref->repairs[r];
		for (uint32_t i = 0; i < p->id.nss; i++) {
			uint32_t index = p->id.first_esi + i - ref->first_esi;
			if (!ref->determined[index] && column_of[index] < 0) {
				column_of[index] = (int)columns;
				index_of_column[columns++] = index;
			}
		}
	}
	uint8_t *m = calloc(kept * columns, 1);
	for (size_t r = 0; r < kept; r++) {
		packet *p = ref->repairs[r];
		for (uint32_t i = 0; i < p->id.nss; i++) {
			uint32_t index = p->id.first_esi + i - ref->first_esi;
			if (!ref->determined[index])
				m[r * columns + (size_t)column_of[index]] =
					ref->repair_coefs[r][i];
		}
	}
	/* Plain Gauss-Jordan elimination to reduced row-echelon form. */
	size_t rank = 0;
	for (size_t c = 0; c < columns && rank < kept; c++) {
		size_t pivot = rank;
		while (pivot < kept && !m[pivot * columns + c])
			pivot++;
		if (pivot == kept)
			continue;
		for (size_t x = 0; x < columns; x++) {
			uint8_t t = m[pivot * columns + x];
			m[pivot * columns + x] = m[rank * columns + x];
			m[rank * columns + x] = t;
		}
		uint8_t inv = ref_inverse[m[rank * columns + c]];
		for (size_t x = 0; x < columns; x++)
			m[rank * columns + x] = ref_mul(m[rank * columns + x], inv);
		for (size_t r = 0; r < kept; r++) {
			uint8_t f = m[r * columns + c];
			if (r == rank || !f)
				continue;
			for (size_t x = 0; x < columns; x++)
				m[r * columns + x] ^= ref_mul(f, m[rank * columns + x]);
		}
		rank++;
	}
	for (size_t r = 0; r < rank; r++) {
		size_t nonzero = 0, last = 0;
		for (size_t x = 0; x < columns; x++)
			if (m[r * columns + x])
				nonzero++, last = x;
		if (nonzero == 1)
			ref->determined[index_of_column[last]] = true;
	}
	for (size_t c = 0; c < columns; c++)
		column_of[index_of_column[c]] = -1;
	free(m);
}

static int by_order_key(const void *a, const void *b)
{
	double x = (*(packet *const *)a)->order_key, y = (*(packet *const *)b)->order_key;
	return (x > y) - (x < y);
}

static double uniform(uint64_t *rng)
{
	return (double)(test_rand(rng) >> 11) / 9007199254740992.0;
}

static void run(const scenario *s, uint64_t seed)
{
	uint64_t rng = seed;
	swf_encoder_config ec = {.symbol_bytes = s->symbol_bytes, .k = s->k, .z = s->z,
				 .dt = s->dt, .first_esi = s->first_esi,
				 .first_repair_key = (uint16_t)seed};
	swf_encoder *enc;
	CHECK_OK(swf_encoder_new(&ec, &enc));

	/* Encode the whole stream. */
	size_t max_packets = (size_t)s->sources * 3 + 8;
	packet *packets = calloc(max_packets, sizeof(*packets));
	uint8_t *originals = malloc((size_t)s->sources * s->symbol_bytes);
	size_t count = 0;
	for (uint32_t n = 0; n < s->sources; n++) {
		uint8_t *src = originals + (size_t)n * s->symbol_bytes;
		uint32_t esi;
		bool due;
		test_fill(src, s->symbol_bytes, &rng);
		CHECK_OK(swf_encoder_add_source(enc, src, s->symbol_bytes, &esi, &due));
		CHECK(esi == s->first_esi + n);
		packets[count++] = (packet){.index = n, .bytes = src};
		if (due || uniform(&rng) < s->flush) {
			packet *p = &packets[count++];
			p->is_repair = true;
			p->bytes = malloc(s->symbol_bytes);
			CHECK_OK(swf_encoder_build_repair(enc, p->bytes, &p->id));
		}
	}
	swf_encoder_free(enc);

	/* The channel: losses, duplicates, reordering. */
	packet **arrivals = calloc(count * 2, sizeof(*arrivals));
	size_t arrived = 0;
	uint32_t burst_left = 0;
	for (size_t i = 0; i < count; i++) {
		bool lost;
		if (s->burst > 1) {
			if (!burst_left && uniform(&rng) < s->loss)
				burst_left = 1 + (uint32_t)(test_rand(&rng) % s->burst);
			lost = burst_left > 0;
			if (burst_left)
				burst_left--;
		} else {
			lost = uniform(&rng) < s->loss;
		}
		if (lost)
			continue;
		packets[i].order_key = (double)i + uniform(&rng) * s->reorder;
		arrivals[arrived++] = &packets[i];
		if (uniform(&rng) < s->duplicate)
			arrivals[arrived++] = &packets[i];
	}
	qsort(arrivals, arrived, sizeof(*arrivals), by_order_key);

	/* Feed the decoder and the reference, comparing after every packet. */
	swf_decoder_config dc = {.symbol_bytes = s->symbol_bytes, .max_window = s->z};
	swf_decoder *dec;
	CHECK_OK(swf_decoder_new(&dc, &dec));
	uint32_t cap = 1;
	while (cap < 2u * s->z)
		cap <<= 1;
	reference ref = {.sources = s->sources, .first_esi = s->first_esi};
	ref.received = calloc(s->sources, sizeof(bool));
	ref.determined = calloc(s->sources, sizeof(bool));
	ref.repairs = calloc(count, sizeof(*ref.repairs));
	ref.repair_coefs = calloc(count, sizeof(*ref.repair_coefs));
	ref.column_of = malloc(s->sources * sizeof(int));
	ref.index_of_column = malloc(s->sources * sizeof(uint32_t));
	for (uint32_t i = 0; i < s->sources; i++)
		ref.column_of[i] = -1;
	bool *rebuilt = calloc(s->sources, sizeof(bool));
	uint32_t newest = 0; /* newest index the decoder has seen */
	bool seen_any = false;
	uint64_t rebuilt_count = 0;
	for (size_t a = 0; a < arrived; a++) {
		packet *p = arrivals[a];
		uint32_t last;
		if (p->is_repair) {
			CHECK_OK(swf_decoder_add_repair(dec, &p->id, p->bytes, s->symbol_bytes));
			last = p->id.first_esi + p->id.nss - 1 - s->first_esi;
			if (!p->delivered)
				reference_add_repair(&ref, p);
			p->delivered = true;
		} else {
			CHECK_OK(swf_decoder_add_source(dec, s->first_esi + p->index, p->bytes,
							s->symbol_bytes));
			last = p->index;
			ref.received[p->index] = ref.determined[p->index] = true;
		}
		if (!seen_any || last > newest)
			newest = last;
		seen_any = true;

		uint32_t esi;
		const uint8_t *symbol;
		while (swf_decoder_next_rebuilt(dec, &esi, &symbol)) {
			uint32_t index = esi - s->first_esi;
			CHECK(index < s->sources);
			CHECK(!rebuilt[index] && !ref.received[index]);
			CHECK(memcmp(symbol, originals + (size_t)index * s->symbol_bytes,
				     s->symbol_bytes) == 0);
			rebuilt[index] = true;
			rebuilt_count++;
		}
		reference_solve(&ref);
		uint32_t oldest = newest + 1 >= cap ? newest + 1 - cap : 0;
		for (uint32_t i = oldest; i <= newest && i < s->sources; i++) {
			bool decoder_has = ref.received[i] || rebuilt[i];
			if (decoder_has != ref.determined[i]) {
				fprintf(stderr, "%s seed %llu: after packet %zu, source %u: decoder %s, reference %s\n",
					s->name, (unsigned long long)seed, a, i,
					decoder_has ? "has it" : "lacks it",
					ref.determined[i] ? "has it" : "lacks it");
				CHECK(decoder_has == ref.determined[i]);
			}
		}
	}
	swf_decoder_stats stats;
	swf_decoder_get_stats(dec, &stats);
	CHECK(stats.rebuilt == rebuilt_count);
	CHECK(stats.rejected == 0);

	swf_decoder_free(dec);
	for (size_t r = 0; r < ref.repair_count; r++)
		free(ref.repair_coefs[r]);
	for (size_t i = 0; i < count; i++)
		if (packets[i].is_repair)
			free(packets[i].bytes);
	free(ref.received), free(ref.determined), free(ref.repairs), free(ref.repair_coefs);
	free(ref.column_of), free(ref.index_of_column);
	free(rebuilt), free(arrivals), free(packets), free(originals);
}

int main(void)
{
	check_expected_kernel();
	ref_field_init();
	static const scenario scenarios[] = {
		{"S(5,100) 5% loss", 5, 100, 15, 16, 3000, 0.05, 1, 0, 0, 0, 0},
		{"S(10,100) 5% bursts", 10, 100, 15, 9, 3000, 0.02, 6, 0, 0, 0, 7},
		{"S(2,100) 20% loss, reordered", 2, 100, 15, 33, 1500, 0.20, 1, 0.02, 40, 0, 0xFFFFFF00u},
		{"S(4,20) bursts, duplicates", 4, 20, 15, 1, 3000, 0.03, 10, 0.05, 5, 0, 0},
		{"S(3,9) sparse, flushes", 3, 9, 4, 64, 3000, 0.08, 1, 0.01, 3, 0.1, 123},
		{"S(1,5) 30% loss", 1, 5, 15, 5, 2000, 0.30, 1, 0, 2, 0, 0},
		{"S(8,255) 1400-byte symbols", 8, 255, 15, 1400, 1200, 0.06, 2, 0.01, 60, 0, 99},
		{"S(6,40) dense losses, DT 0", 6, 40, 0, 20, 2000, 0.10, 3, 0.02, 10, 0.05, 5},
	};
	for (size_t i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		for (uint64_t seed = 1; seed <= 3; seed++)
			run(&scenarios[i], seed * 1000 + i);
	return 0;
}
