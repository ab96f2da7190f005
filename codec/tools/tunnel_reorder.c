/* tunnel_reorder.c - in-order delivery of a stream's inner packets. */
#include "tunnel_reorder.h"

#include <stdlib.h>
#include <string.h>

bool tunnel_reorder_init(tunnel_reorder *t, uint32_t capacity, size_t packet_bytes,
			 uint64_t hold_ns, histogram *hold_delay)
{
	memset(t, 0, sizeof *t);
	t->mask = capacity - 1;
	t->packet_bytes = packet_bytes;
	t->hold_ns = hold_ns;
	t->hold_delay = hold_delay;
	t->data = malloc((size_t)capacity * packet_bytes);
	t->esi = calloc(capacity, sizeof *t->esi);
	t->len = calloc(capacity, sizeof *t->len);
	t->since_ns = calloc(capacity, sizeof *t->since_ns);
	if (t->data == NULL || t->esi == NULL || t->len == NULL || t->since_ns == NULL) {
		tunnel_reorder_free(t);
		return false;
	}
	return true;
}

void tunnel_reorder_free(tunnel_reorder *t)
{
	free(t->data);
	free(t->esi);
	free(t->len);
	free(t->since_ns);
	t->data = NULL;
	t->esi = t->len = NULL;
	t->since_ns = NULL;
}

void tunnel_reorder_restart(tunnel_reorder *t, uint32_t first_esi)
{
	t->next_esi = first_esi;
}

static bool is_held(const tunnel_reorder *t, uint32_t esi)
{
	uint32_t slot = esi & t->mask;
	return t->len[slot] != 0 && t->esi[slot] == esi;
}

static void release(tunnel_reorder *t, uint32_t esi, uint64_t now_ns, tunnel_deliver_fn deliver,
		    void *context)
{
	uint32_t slot = esi & t->mask;
	size_t len = t->len[slot];
	t->len[slot] = 0;
	t->held_count--;
	t->counters.held++;
	if (t->hold_delay != NULL)
		histogram_add(t->hold_delay, now_ns - t->since_ns[slot]);
	deliver(context, t->data + slot * t->packet_bytes, len);
}

/* find_oldest sets oldest_hold_ns from the packets held, all within a
 * span of the release point. */
static void find_oldest(tunnel_reorder *t)
{
	uint64_t found = 0;
	t->oldest_hold_ns = UINT64_MAX;
	for (uint32_t esi = t->next_esi; found < t->held_count; esi++) {
		if (is_held(t, esi)) {
			found++;
			uint64_t since = t->since_ns[esi & t->mask];
			if (since < t->oldest_hold_ns)
				t->oldest_hold_ns = since;
		}
	}
}

/* release_run releases the held packets at the release point onwards, up
 * to the first gap. */
static void release_run(tunnel_reorder *t, uint64_t now_ns, tunnel_deliver_fn deliver,
			void *context)
{
	bool released = false;
	while (t->held_count > 0 && is_held(t, t->next_esi)) {
		release(t, t->next_esi++, now_ns, deliver, context);
		released = true;
	}
	if (released && t->held_count > 0)
		find_oldest(t);
}

/* skip_gap moves the release point past the missing ESIs before the next
 * held packet; returns how many it passed. */
static uint64_t skip_gap(tunnel_reorder *t)
{
	uint64_t skipped = 0;
	for (; !is_held(t, t->next_esi); t->next_esi++)
		skipped++;
	return skipped;
}

void tunnel_reorder_pass(tunnel_reorder *t, uint32_t esi, uint64_t now_ns,
			 tunnel_deliver_fn deliver, void *context)
{
	bool released = false;
	while ((int32_t)(esi - t->next_esi) > 0) {
		if (t->held_count == 0) {
			t->next_esi = esi; /* nothing held: nothing to release on the way */
			break;
		}
		if (is_held(t, t->next_esi)) {
			release(t, t->next_esi, now_ns, deliver, context);
			released = true;
		}
		t->next_esi++;
	}
	if (released && t->held_count > 0)
		find_oldest(t);
	release_run(t, now_ns, deliver, context);
}

void tunnel_reorder_offer(tunnel_reorder *t, uint32_t esi, const uint8_t *packet, size_t len,
			  uint64_t now_ns, tunnel_deliver_fn deliver, void *context)
{
	int32_t ahead = (int32_t)(esi - t->next_esi);
	if (ahead > (int32_t)t->mask) {
		tunnel_reorder_pass(t, esi - t->mask, now_ns, deliver, context);
		ahead = (int32_t)(esi - t->next_esi);
	}
	if (ahead < 0) { /* behind the release point: late */
		deliver(context, packet, len);
		return;
	}
	if (ahead == 0) {
		deliver(context, packet, len);
		t->next_esi++;
		release_run(t, now_ns, deliver, context);
		return;
	}
	if (is_held(t, esi))
		return; /* offered twice */
	uint32_t slot = esi & t->mask;
	memcpy(t->data + slot * t->packet_bytes, packet, len);
	t->esi[slot] = esi;
	t->len[slot] = (uint32_t)len;
	t->since_ns[slot] = now_ns;
	if (t->held_count++ == 0 || now_ns < t->oldest_hold_ns)
		t->oldest_hold_ns = now_ns;
}

uint64_t tunnel_reorder_deadline_ns(const tunnel_reorder *t)
{
	return t->held_count > 0 ? t->oldest_hold_ns + t->hold_ns : 0;
}

void tunnel_reorder_expire(tunnel_reorder *t, uint64_t now_ns, tunnel_deliver_fn deliver,
			   void *context)
{
	while (t->held_count > 0 && now_ns >= t->oldest_hold_ns + t->hold_ns) {
		t->counters.hold_timeouts += skip_gap(t);
		release_run(t, now_ns, deliver, context);
	}
}

void tunnel_reorder_flush(tunnel_reorder *t, uint64_t now_ns, tunnel_deliver_fn deliver,
			  void *context)
{
	while (t->held_count > 0) {
		skip_gap(t);
		release_run(t, now_ns, deliver, context);
	}
}
