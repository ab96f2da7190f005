/*
 * test_tunnel_delivery.c - proves swf-tunnel's receiver (codec/tools/
 * tunnel_proto.c, tunnel_reorder.c) on streams from the real encoder,
 * without a socket: delivered immediately, a source after a lost one goes
 * before the lost one's rebuild; delivered in order, it waits for the
 * rebuild, for the decoder to give the gap up (2z ESIs later), or for the
 * hold time, and a source arriving after its gap was passed goes at once.
 * The observer hears each datagram's fate and each ESI rebuilt or given
 * up: over a long stream with seeded random losses and bursts, its events
 * match the counters one for one, every give-up names its ESI, the ESIs
 * given up are exactly those neither received nor rebuilt, in order the
 * packets leave in increasing order, and both modes deliver the same
 * packets.
 */
#include <stdbool.h>

#include "check.h"
#include "tunnel_proto.h"

#define SYMBOL_BYTES 64u
#define K 2u
#define Z 8u
#define MS UINT64_C(1000000)
#define MAX_DELIVERED 40000u

/* ---------------------------------------------------------------------- */
/* The sending end                                                        */

typedef struct stream {
	swf_encoder *encoder;
	uint32_t session;
} stream;

static stream stream_new(void)
{
	swf_encoder_config config = {.symbol_bytes = SYMBOL_BYTES, .k = K, .z = Z, .dt = 15};
	stream s = {.session = 0x5e1f00d2u};
	CHECK_OK(swf_encoder_new(&config, &s.encoder));
	return s;
}

/* An IPv4 packet of 24 bytes whose identification is `id`. */
static void inner_packet(uint16_t id, uint8_t out[24])
{
	memset(out, 0, 24);
	out[0] = 0x45;
	out[3] = 24;
	out[4] = (uint8_t)(id >> 8);
	out[5] = (uint8_t)id;
}

static uint16_t id_of(const uint8_t *packet)
{
	return (uint16_t)(packet[4] << 8 | packet[5]);
}

/* source writes the datagram of source `id` into out (its length in
 * *len); returns whether a repair is due after it. */
static bool source(stream *s, uint16_t id, uint8_t *out, size_t *len)
{
	uint8_t symbol[2 + 24] = {0, 24};
	inner_packet(id, symbol + 2);
	uint32_t esi;
	bool repair_due;
	CHECK_OK(swf_encoder_add_source(s->encoder, symbol, sizeof symbol, &esi, &repair_due));
	tunnel_write_header(out, TUNNEL_SOURCE, s->session);
	for (int i = 0; i < 4; i++)
		out[TUNNEL_HEADER_BYTES + i] = (uint8_t)(esi >> (24 - 8 * i));
	memcpy(out + TUNNEL_SOURCE_HEADER_BYTES, symbol + 2, 24);
	*len = TUNNEL_SOURCE_HEADER_BYTES + 24;
	return repair_due;
}

static size_t repair(stream *s, uint8_t *out)
{
	swf_repair_id id;
	CHECK_OK(swf_encoder_build_repair(s->encoder, out + TUNNEL_REPAIR_HEADER_BYTES, &id));
	CHECK_OK(swf_repair_id_write(&id, out + TUNNEL_HEADER_BYTES));
	tunnel_write_header(out, TUNNEL_REPAIR, s->session);
	return TUNNEL_REPAIR_HEADER_BYTES + SYMBOL_BYTES;
}

/* ---------------------------------------------------------------------- */
/* The receiving end                                                      */

typedef struct receiving {
	tunnel_receiver receiver;
	uint16_t delivered[MAX_DELIVERED]; /* ids in the order delivered */
	size_t delivered_count;
	uint64_t events[TUNNEL_FATE_UNAUTHENTICATED + 1];
	bool given_up[MAX_DELIVERED]; /* by ESI */
	bool rebuilt[MAX_DELIVERED];
	uint64_t now_ns;
} receiving;

static void deliver(void *context, const uint8_t *packet, size_t len)
{
	receiving *r = context;
	CHECK(len == 24 && r->delivered_count < MAX_DELIVERED);
	r->delivered[r->delivered_count++] = id_of(packet);
}

static void observe(void *context, const tunnel_event *event)
{
	receiving *r = context;
	r->events[event->fate]++;
	if (event->fate == TUNNEL_FATE_GIVEN_UP) {
		CHECK(event->esi_known && event->esi < MAX_DELIVERED && !r->given_up[event->esi]);
		r->given_up[event->esi] = true;
	}
	if (event->fate == TUNNEL_FATE_REBUILT) {
		CHECK(event->esi_known && event->esi < MAX_DELIVERED && event->inner_len == 24);
		CHECK(id_of(event->inner) == event->esi); /* ids are ESIs in these streams */
		r->rebuilt[event->esi] = true;
	}
}

static receiving *receiving_new(tunnel_delivery delivery, uint64_t hold_ns)
{
	receiving *r = calloc(1, sizeof *r);
	CHECK(r != NULL);
	tunnel_receiver_config config = {.symbol_bytes = SYMBOL_BYTES,
					 .window = Z,
					 .delivery = delivery,
					 .hold_ns = hold_ns,
					 .observe = observe,
					 .observe_context = r};
	CHECK_OK(tunnel_receiver_init(&r->receiver, &config));
	return r;
}

static void receiving_free(receiving *r)
{
	tunnel_receiver_free(&r->receiver);
	free(r);
}

/* input gives the receiver a datagram 1 ms after the previous one. */
static void input(receiving *r, const uint8_t *datagram, size_t len)
{
	r->now_ns += MS;
	tunnel_receiver_input(&r->receiver, datagram, len, r->now_ns, deliver, r);
}

static void check_delivered(const receiving *r, const uint16_t *ids, size_t count)
{
	CHECK(r->delivered_count == count);
	for (size_t i = 0; i < count; i++)
		CHECK(r->delivered[i] == ids[i]);
}

/* Sends sources first..first+count-1 (ids as ESIs) and their repairs, dropping the sources for
 * which drop_source says so and the repairs for which drop_repair does
 * (given the number of the source before). */
typedef bool (*drop_fn)(uint32_t number);

static void send_stream(stream *s, receiving *r, uint32_t first, uint32_t count,
			drop_fn drop_source, drop_fn drop_repair)
{
	uint8_t datagram[TUNNEL_REPAIR_HEADER_BYTES + SYMBOL_BYTES];
	for (uint32_t id = first; id < first + count; id++) {
		size_t len;
		bool repair_due = source(s, (uint16_t)id, datagram, &len);
		if (drop_source == NULL || !drop_source(id))
			input(r, datagram, len);
		if (repair_due) {
			len = repair(s, datagram);
			if (drop_repair == NULL || !drop_repair(id))
				input(r, datagram, len);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* The tests                                                              */

static bool is_2(uint32_t number)
{
	return number == 2;
}

static bool covers_2(uint32_t number)
{
	return number >= 2 && number < 2 + Z; /* the repairs whose window holds ESI 2 */
}

static void test_a_rebuilt_gap(void)
{
	/* S0 S1 R S2(lost) S3 R: the second repair rebuilds 2. */
	static const uint16_t immediate[] = {0, 1, 3, 2}, in_order[] = {0, 1, 2, 3};
	for (int mode = 0; mode < 2; mode++) {
		stream s = stream_new();
		receiving *r = receiving_new(mode ? TUNNEL_DELIVERY_IN_ORDER : TUNNEL_DELIVERY_IMMEDIATE,
					     1000 * MS);
		send_stream(&s, r, 0, 4, is_2, NULL);
		check_delivered(r, mode ? in_order : immediate, 4);
		const tunnel_rx_counters *c = &r->receiver.counters;
		CHECK(c->sources == 3 && c->repairs == 2 && c->recovered == 1 && c->lost == 1);
		CHECK(r->events[TUNNEL_FATE_SOURCE] == 3 && r->events[TUNNEL_FATE_REPAIR] == 2 &&
		      r->events[TUNNEL_FATE_REBUILT] == 1 && r->rebuilt[2]);
		CHECK(r->receiver.reorder.counters.held == (mode ? 1u : 0u));
		swf_encoder_free(s.encoder);
		receiving_free(r);
	}
}

static void test_a_gap_given_up(void)
{
	/* ESI 2 and every repair over it are lost: in order, 3 onwards wait
	 * until the decoder gives 2 up, when its window (2 x 8 = 16 ESIs) has
	 * passed it: at the arrival of source 18. */
	stream s = stream_new();
	receiving *r = receiving_new(TUNNEL_DELIVERY_IN_ORDER, 1000 * MS);
	send_stream(&s, r, 0, 18, is_2, covers_2);
	CHECK(r->delivered_count == 2 && r->receiver.counters.unrecovered == 0);
	send_stream(&s, r, 18, 1, NULL, NULL);
	CHECK(r->receiver.counters.unrecovered == 1 && r->given_up[2]);
	CHECK(r->events[TUNNEL_FATE_GIVEN_UP] == 1);
	uint16_t expected[18];
	for (uint16_t i = 0, n = 0; i < 19; i++)
		if (i != 2)
			expected[n++] = i;
	check_delivered(r, expected, 18);
	/* 3 to 17 were held; 18 came a span (16) after the release point. */
	CHECK(r->receiver.reorder.counters.held == 15 &&
	      r->receiver.reorder.counters.hold_timeouts == 0);
	swf_encoder_free(s.encoder);
	receiving_free(r);
}

static void test_the_hold_time_and_a_late_source(void)
{
	stream s = stream_new();
	receiving *r = receiving_new(TUNNEL_DELIVERY_IN_ORDER, 50 * MS);
	uint8_t late[TUNNEL_REPAIR_HEADER_BYTES + SYMBOL_BYTES], datagram[sizeof late];
	size_t late_len = 0, len;
	/* S0 S1 R S2(kept back) S3 R(lost): 3 waits. */
	for (uint16_t id = 0; id < 4; id++) {
		bool repair_due = source(&s, id, id == 2 ? late : datagram, id == 2 ? &late_len : &len);
		if (id != 2)
			input(r, datagram, len);
		if (repair_due && id < 2)
			input(r, datagram, repair(&s, datagram));
	}
	static const uint16_t before[] = {0, 1};
	check_delivered(r, before, 2);
	uint64_t deadline = tunnel_receiver_deadline_ns(&r->receiver);
	CHECK(deadline == r->now_ns + 50 * MS); /* 3 was held at the last input */
	tunnel_receiver_tick(&r->receiver, deadline - 1, deliver, r);
	CHECK(r->delivered_count == 2);
	tunnel_receiver_tick(&r->receiver, deadline, deliver, r);
	static const uint16_t after[] = {0, 1, 3, 2};
	check_delivered(r, after, 3);
	CHECK(r->receiver.reorder.counters.hold_timeouts == 1 &&
	      tunnel_receiver_deadline_ns(&r->receiver) == 0);
	r->now_ns = deadline;
	input(r, late, late_len); /* behind the release point: at once */
	check_delivered(r, after, 4);
	swf_encoder_free(s.encoder);
	receiving_free(r);
}

/* Seeded losses: 4 % of datagrams alone, and bursts of 1 to 7 (shorter
 * than a window: the stream goes on), none in the first two sources. */
static uint64_t loss_state;
static uint32_t burst_left;

static bool lossy(uint32_t number)
{
	if (number < 2)
		return false;
	if (burst_left > 0) {
		burst_left--;
		return true;
	}
	uint64_t draw = test_rand(&loss_state) % 1000;
	if (draw < 5) {
		burst_left = (uint32_t)(test_rand(&loss_state) % 7);
		return true;
	}
	return draw < 45;
}

static void test_events_match_the_counters_over_a_long_lossy_stream(void)
{
	enum { COUNT = 30000 };
	receiving *runs[2];
	for (int mode = 0; mode < 2; mode++) {
		loss_state = 7;
		burst_left = 0;
		stream s = stream_new();
		receiving *r = receiving_new(mode ? TUNNEL_DELIVERY_IN_ORDER : TUNNEL_DELIVERY_IMMEDIATE,
					     1000000 * MS);
		send_stream(&s, r, 0, COUNT, lossy, lossy);
		tunnel_receiver_flush(&r->receiver, r->now_ns, deliver, r);
		const tunnel_rx_counters *c = &r->receiver.counters;
		printf("%s: %llu sources, %llu repairs, %llu lost, %llu rebuilt, %llu given up\n",
		       mode ? "in order" : "immediate", (unsigned long long)c->sources,
		       (unsigned long long)c->repairs, (unsigned long long)c->lost,
		       (unsigned long long)c->recovered, (unsigned long long)c->unrecovered);
		CHECK(c->sessions == 1 && c->unrecovered > 100 && c->recovered > 1000);
		CHECK(r->events[TUNNEL_FATE_SOURCE] == c->sources &&
		      r->events[TUNNEL_FATE_REPAIR] == c->repairs &&
		      r->events[TUNNEL_FATE_REBUILT] == c->recovered &&
		      r->events[TUNNEL_FATE_GIVEN_UP] == c->unrecovered &&
		      r->events[TUNNEL_FATE_MALFORMED] == 0 && r->events[TUNNEL_FATE_REJECTED] == 0);
		/* Given up: exactly the ESIs neither received nor rebuilt (the
		 * last window's are still undecided). */
		bool received[COUNT] = {false};
		for (size_t i = 0; i < r->delivered_count; i++)
			received[r->delivered[i]] = true;
		for (uint32_t esi = 0; esi + 2 * Z < COUNT; esi++)
			CHECK(r->given_up[esi] == !received[esi]);
		if (mode == 1)
			for (size_t i = 1; i < r->delivered_count; i++)
				CHECK(r->delivered[i] > r->delivered[i - 1]);
		swf_encoder_free(s.encoder);
		runs[mode] = r;
	}
	/* The same packets, whatever the order. */
	CHECK(runs[0]->delivered_count == runs[1]->delivered_count);
	bool in_order[COUNT] = {false};
	for (size_t i = 0; i < runs[1]->delivered_count; i++)
		in_order[runs[1]->delivered[i]] = true;
	for (size_t i = 0; i < runs[0]->delivered_count; i++)
		CHECK(in_order[runs[0]->delivered[i]]);
	receiving_free(runs[0]);
	receiving_free(runs[1]);
}

int main(void)
{
	test_a_rebuilt_gap();
	test_a_gap_given_up();
	test_the_hold_time_and_a_late_source();
	test_events_match_the_counters_over_a_long_lossy_stream();
	return 0;
}
