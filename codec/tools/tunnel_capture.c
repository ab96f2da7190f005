/* tunnel_capture.c - swf-tunnel's datagrams, and the decoder's ESIs, captured. */
#include "tunnel_capture.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pcapng.h"

enum { INTERFACE_OUTER = 0, INTERFACE_REBUILT = 1 };

/* A record's info: the datagram's story. */
typedef struct datagram_info {
	bool received;
	uint8_t fate; /* received: a tunnel_fate; sent: 0 sent, 1 send-error */
	uint8_t type; /* a tunnel_type, 0 if not known */
	bool flush;   /* a flush repair */
	bool esi_known;
	uint32_t session, esi;
	swf_repair_id repair;
	const char *reason; /* a constant sentence, or NULL */
} datagram_info;

_Static_assert(sizeof(datagram_info) <= CAPTURE_INFO_BYTES, "a story fits a record");

static const char *const received_fates[] = {
	[TUNNEL_FATE_PLAIN] = "plain",
	[TUNNEL_FATE_SOURCE] = "source",
	[TUNNEL_FATE_REPAIR] = "repair",
	[TUNNEL_FATE_REBUILT] = "rebuilt",
	[TUNNEL_FATE_GIVEN_UP] = "given-up",
	[TUNNEL_FATE_MALFORMED] = "malformed",
	[TUNNEL_FATE_REJECTED] = "rejected",
	[TUNNEL_FATE_UNAUTHENTICATED] = "unauthenticated",
};

static const char *const types[] = {
	[TUNNEL_PLAIN] = "plain", [TUNNEL_SOURCE] = "source", [TUNNEL_REPAIR] = "repair"};

static void describe(const capture_record *record, char *text)
{
	const datagram_info *info = (const datagram_info *)record->info;
	const char *fate = info->received ? received_fates[info->fate]
					  : info->fate == 0 ? "sent" : "send-error";
	size_t size = CAPTURE_TEXT_BYTES;
	int len = snprintf(text, size, "fate=%s", fate);
#define ADD(...) len += snprintf(text + len, size - (size_t)len, __VA_ARGS__)
	if (info->type != 0) {
		ADD(" type=%s session=0x%08" PRIx32, types[info->type], info->session);
		if (info->type == TUNNEL_SOURCE)
			ADD(" esi=%" PRIu32, info->esi);
		if (info->type == TUNNEL_REPAIR)
			ADD(" first_esi=%" PRIu32 " nss=%u repair_key=%u dt=%u",
			    info->repair.first_esi, info->repair.nss, info->repair.repair_key,
			    info->repair.dt);
	} else if (info->esi_known) {
		ADD(" esi=%" PRIu32, info->esi);
	}
	if (info->flush)
		ADD(" flush=1");
	if (info->reason != NULL)
		ADD(" reason=\"%s\"", info->reason);
#undef ADD
}

bool tunnel_capture_open(tunnel_capture *tc, bool received, const char *path,
			 uint32_t snap_bytes, uint64_t max_bytes, const struct sockaddr_in *local,
			 const struct sockaddr_in *remote)
{
	const struct sockaddr_in *from = received ? remote : local, *to = received ? local : remote;
	uint8_t *h = tc->outer_header;
	memset(h, 0, sizeof tc->outer_header);
	h[0] = 0x45;    /* IPv4, 20-byte header */
	h[6] = 0x40;    /* don't fragment, as the socket sets it */
	h[8] = 64;      /* TTL */
	h[9] = 17;      /* UDP */
	memcpy(h + 12, &from->sin_addr, 4);
	memcpy(h + 16, &to->sin_addr, 4);
	memcpy(h + 20, &from->sin_port, 2);
	memcpy(h + 22, &to->sin_port, 2);

	const char *side = received ? "rx" : "tx";
	char comment[256];
	snprintf(comment, sizeof comment,
		 "swf-tunnel, %s: every datagram %s, with its fate and FEC payload ID in its "
		 "comment%s",
		 side, received ? "received" : "sent",
		 received ? "; the inner packets rebuilt, and the ESIs given up" : "");
	capture_config config = {
		.path = path,
		.application = "swf-tunnel (satlab)",
		.comment = comment,
		.interfaces = {{"outer", received ? "the datagrams received" : "the datagrams sent",
				PCAPNG_LINKTYPE_RAW},
			       {"rebuilt", "the inner packets the decoder rebuilt", PCAPNG_LINKTYPE_RAW}},
		.interface_count = received ? 2 : 1,
		.events_description = received ? "the ESIs the decoder gave up; the end of the capture"
					       : "the end of the capture",
		.snap_bytes = snap_bytes,
		.max_bytes = max_bytes,
		.queue_records = TUNNEL_CAPTURE_QUEUE_RECORDS,
		.describe = describe,
	};
	tc->capture = capture_open(&config);
	return tc->capture != NULL && capture_start(tc->capture);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* record_datagram records a datagram of len bytes on the outer interface,
 * behind the made-up IPv4 and UDP headers. */
static datagram_info *record_datagram(tunnel_capture *tc, capture_record *r,
				      const uint8_t *datagram, size_t len, uint64_t time_ns)
{
	uint8_t header[sizeof tc->outer_header];
	memcpy(header, tc->outer_header, sizeof header);
	uint32_t ip_len = (uint32_t)(sizeof header + len), udp_len = (uint32_t)(8 + len);
	header[2] = (uint8_t)(ip_len >> 8);
	header[3] = (uint8_t)ip_len;
	header[24] = (uint8_t)(udp_len >> 8);
	header[25] = (uint8_t)udp_len;
	uint32_t sum = 0;
	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)header[i] << 8 | header[i + 1];
	while (sum >> 16)
		sum = (sum & 0xFFFF) + (sum >> 16);
	header[10] = (uint8_t)(~sum >> 8);
	header[11] = (uint8_t)~sum;
	capture_record_packet(tc->capture, r, header, sizeof header, datagram, (uint32_t)len);
	r->interface = INTERFACE_OUTER;
	r->time_ns = time_ns;
	datagram_info *info = (datagram_info *)r->info;
	memset(info, 0, sizeof *info);
	return info;
}

/* set_ids fills the type and FEC payload ID of a parsed packet. */
static void set_ids(datagram_info *info, const tunnel_packet *packet)
{
	info->type = (uint8_t)packet->type;
	info->session = packet->session;
	info->esi = packet->esi;
	info->repair = packet->repair_id;
}

void tunnel_capture_sent(tunnel_capture *tc, const uint8_t *datagram, size_t len, bool ok,
			 bool flush, uint64_t now_ns)
{
	capture_record *r = capture_reserve(tc->capture);
	if (r == NULL)
		return;
	datagram_info *info = record_datagram(tc, r, datagram, len, now_ns);
	info->fate = ok ? 0 : 1;
	info->flush = flush;
	/* The sender wrote the header: it is whole. */
	tunnel_packet packet = {.type = (enum tunnel_type)datagram[0],
				.session = get32(datagram + 1)};
	if (packet.type == TUNNEL_SOURCE)
		packet.esi = get32(datagram + TUNNEL_HEADER_BYTES);
	if (packet.type == TUNNEL_REPAIR)
		swf_repair_id_read(datagram + TUNNEL_HEADER_BYTES, SWF_REPAIR_ID_BYTES,
				   &packet.repair_id);
	set_ids(info, &packet);
	capture_commit(tc->capture);
}

void tunnel_capture_observe(void *context, const tunnel_event *event)
{
	tunnel_capture *tc = context;
	capture_record *r = capture_reserve(tc->capture);
	if (r == NULL)
		return;
	datagram_info *info;
	if (event->datagram != NULL) {
		info = record_datagram(tc, r, event->datagram, event->datagram_len, event->arrival_ns);
		if (event->packet != NULL)
			set_ids(info, event->packet);
	} else {
		/* An ESI's event: a rebuilt packet, or a line. */
		bool rebuilt = event->fate == TUNNEL_FATE_REBUILT;
		r->interface = rebuilt ? INTERFACE_REBUILT : CAPTURE_EVENTS;
		capture_record_packet(tc->capture, r, NULL, 0, rebuilt ? event->inner : NULL,
				      rebuilt ? (uint32_t)event->inner_len : 0);
		r->time_ns = event->arrival_ns;
		info = (datagram_info *)r->info;
		memset(info, 0, sizeof *info);
		info->esi_known = event->esi_known;
		info->esi = event->esi;
	}
	info->received = true;
	info->fate = (uint8_t)event->fate;
	info->reason = event->reason;
	capture_commit(tc->capture);
}
