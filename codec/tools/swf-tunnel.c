/*
 * swf-tunnel - one endpoint of a sliding-window FEC tunnel over UDP.
 *
 * Inner IP packets read from a TUN device go to the peer in UDP datagrams
 * (format in tunnel_proto.h). Packets of protected flows are source symbols
 * of an S(k,z) encoder: after every k of them, a repair symbol over the last
 * z follows; a flush timer sends one more when no source came for flush_ms,
 * so that the tail of a burst is protected too. Unprotected flows pass as
 * plain packets. Datagrams from the peer are decoded and their inner packets
 * written into the TUN: sources at once, rebuilt ones as soon as they decode
 * (--delivery immediate), or in ESI order (in-order: held after a gap until
 * it is rebuilt, given up or held for --hold-ms).
 *
 * With --tx-capture or --rx-capture, each datagram sent or received (and
 * each ESI rebuilt or given up) is recorded with its fate in a pcapng file
 * (tunnel_capture.h), written by a thread of its own.
 *
 * With --key-file, every datagram carries a tag of the key the endpoints
 * share, and the receiver drops what does not verify.
 *
 * The tunnel is a userspace hop of the emulated path, so it measures how
 * late it was, as satlink does: how long each datagram waited in the socket
 * between the kernel's receive timestamp (SO_TIMESTAMPNS) and the moment
 * the receiver took it, and how long after its deadline each timer (the
 * flush, a hold) fired. A host that cannot keep up shows there first.
 *
 * Two threads: the sender (TUN to UDP, owns the encoder and the flush timer)
 * and the receiver (UDP to TUN, owns the decoder). They share nothing but
 * the counters, published under a mutex for the stats lines, and each signs
 * or verifies with its own tunnel_auth.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "histogram.h"
#include "swf.h"
#include "tool.h"
#include "tun.h"
#include "tunnel_capture.h"
#include "tunnel_proto.h"

/* Outer IPv4 and UDP headers, then the largest tunnel header (a repair's);
 * a key adds its tag. */
#define OUTER_OVERHEAD_BYTES (20u + 8u + TUNNEL_REPAIR_HEADER_BYTES)
/* The smallest symbol: an inner MTU of 576, IPv4's minimum. */
#define MIN_SYMBOL_BYTES (576u + TUNNEL_LENGTH_BYTES)
#define MAX_RULES 32
#define RX_BATCH 32

typedef struct flow_rule {
	uint8_t protocol;
	uint16_t port; /* 0: any port */
} flow_rule;

typedef struct tx_counters {
	uint64_t packets_in, plain, sources, repairs, flush_repairs, send_errors;
	uint64_t uncovered; /* sources sent since the last repair */
} tx_counters;

typedef struct rx_counters {
	tunnel_rx_counters proto;
	tunnel_reorder_counters reorder;
	uint64_t write_errors;
} rx_counters;

static struct {
	const char *dev, *addr;
	char dev_name[IFNAMSIZ]; /* the device the kernel made of dev ("rp%d": rp0) */
	struct sockaddr_in local, remote;
	uint32_t outer_mtu, symbol_bytes;
	uint16_t k, z;
	uint8_t dt;
	double flush_ms;
	bool protect_all;
	flow_rule rules[MAX_RULES];
	int rule_count;
	uint32_t stats_interval_ms;
	bool have_key;
	uint8_t key[TUNNEL_KEY_BYTES];
	uint32_t tag_bytes; /* TUNNEL_TAG_BYTES with a key, else 0 */
	tunnel_delivery delivery;
	double hold_ms;
	const char *hold_option; /* --hold-ms if given */
	const char *capture_path[2]; /* tx, rx; NULL: none */
	uint32_t capture_snap_bytes;
	uint64_t capture_max_bytes;
	const char *capture_option; /* a capture option given but the files */
	bool realtime;
} opt = {.realtime = true, .outer_mtu = 1500, .k = 10, .z = 100, .dt = 15, .flush_ms = 10, .protect_all = true,
	 .stats_interval_ms = 100, .hold_ms = 200,
	 .capture_snap_bytes = TUNNEL_CAPTURE_SNAP_BYTES,
	 .capture_max_bytes = TUNNEL_CAPTURE_MAX_BYTES};

enum { TX = 0, RX = 1 };

static int tun_fd, udp_fd;
static uint32_t session;
static uint64_t start_ns;
static histogram decoding_delay, hold_delay;
static histogram lateness; /* filled by both threads */
static tunnel_capture captures[2]; /* capture NULL: none */

static pthread_mutex_t counters_lock = PTHREAD_MUTEX_INITIALIZER;
static tx_counters tx_published;
static rx_counters rx_published;

static const char usage[] =
	"Usage: swf-tunnel --dev NAME --local IP:PORT --remote IP:PORT [options]\n"
	"\n"
	"One endpoint of a sliding-window FEC tunnel (RFC 8681 RLC over GF(2^8), S(k,z)).\n"
	"Run one in each namespace (e.g. with ip netns exec).\n"
	"\n"
	"  --dev NAME            TUN device to create for the inner packets\n"
	"  --addr CIDR           its IPv4 address/prefix (default: none, configure after ready)\n"
	"  --local IP:PORT       UDP address to bind (IPv4)\n"
	"  --remote IP:PORT      UDP address of the peer endpoint\n"
	"  --k K                 a repair after every K protected packets (default 10)\n"
	"  --z Z                 each repair covers the last Z of them, 1..4095 (default 100);\n"
	"                        both endpoints must use the same symbol size and a Z at\n"
	"                        least the peer's\n"
	"  --dt DT               RFC 8681 density threshold, 0..15 (default 15, dense)\n"
	"  --flush-ms MS         a repair when protected packets not yet covered by one\n"
	"                        are followed by MS ms without any (default 10; 0: never)\n"
	"  --outer-mtu BYTES     MTU of the path between endpoints (default 1500): the symbol\n"
	"                        size is BYTES - 41 and the inner MTU BYTES - 43, so that no\n"
	"                        outer datagram exceeds it\n"
	"  --symbol-bytes N      or set the symbol size (inner MTU N - 2) within that limit\n"
	"  --protect RULES       flows to protect: all (default), none, or a comma list of\n"
	"                        PROTO or PROTO:PORT (tcp, udp, icmp or a number; the port\n"
	"                        matches source or destination), e.g. tcp,udp:5001;\n"
	"                        other packets cross unprotected\n"
	"  --key-file PATH       authenticate every datagram with the key in PATH (64 hex\n"
	"                        digits, e.g. from openssl rand -hex 32; a file only its\n"
	"                        owner can read, or a pipe): both endpoints need the same\n"
	"                        key; each datagram gets 16 bytes longer (the symbol size\n"
	"                        from --outer-mtu shrinks by as much) and the receiver\n"
	"                        drops what does not verify\n"
	"  --delivery MODE       immediate (default): sources written at once, rebuilt\n"
	"                        packets as they decode; in-order: packets after a gap\n"
	"                        are held until it is rebuilt or given up, then written\n"
	"                        in ESI order\n"
	"  --hold-ms MS          in order: the longest a packet is held for a gap, after\n"
	"                        which the gap is passed over (default 200)\n"
	"  --tx-capture FILE, --rx-capture FILE  pcapng of the datagrams sent or received,\n"
	"                        each with its fate and FEC payload ID in its comment (rx:\n"
	"                        also the packets rebuilt and the ESIs given up)\n"
	"  --capture-snap-bytes N  bytes kept of each (IPv4 and UDP headers included),\n"
	"                        48..65535 (default 128)\n"
	"  --capture-max-bytes N   the most each file may take; capturing stops there\n"
	"                        and the file says so (default 1073741824)\n"
	"  --stats-interval-ms MS  period of the stats lines (default 100; 0: none)\n"
	"  --no-realtime         do not ask SCHED_FIFO for the sender and receiver\n"
	"                        threads (by default they get it where the process\n"
	"                        may, as satlink's do: a hop of the emulated path)\n"
	"  --help                this text\n"
	"\n"
	"stdout carries JSON lines: {\"event\":\"ready\",...}, {\"event\":\"stats\",...} every\n"
	"interval (cumulative counters, the interval's decoding delay percentiles and\n"
	"lateness: how long after the kernel received a datagram, or after a timer's\n"
	"deadline, this endpoint handled it) and\n"
	"{\"event\":\"summary\",...} on SIGTERM, SIGINT or SIGHUP.\n";

/* late records how long after due_ns something due was handled at now. */
static void late(uint64_t due_ns, uint64_t now)
{
	histogram_add(&lateness, now > due_ns ? now - due_ns : 0);
}

/* ---------------------------------------------------------------------- */
/* Sender                                                                 */

static bool is_protected(const uint8_t *packet, size_t len)
{
	if (opt.protect_all)
		return true;
	uint8_t protocol;
	size_t header;
	bool first_fragment = true;
	if (packet[0] >> 4 == 4) {
		protocol = packet[9];
		header = (size_t)(packet[0] & 0x0F) * 4;
		first_fragment = ((packet[6] & 0x1F) | packet[7]) == 0;
	} else {
		protocol = packet[6];
		header = 40;
	}
	bool has_ports = first_fragment && len >= header + 4;
	uint16_t source_port = has_ports ? (uint16_t)(packet[header] << 8 | packet[header + 1]) : 0;
	uint16_t dest_port = has_ports ? (uint16_t)(packet[header + 2] << 8 | packet[header + 3]) : 0;
	for (int i = 0; i < opt.rule_count; i++) {
		const flow_rule *rule = &opt.rules[i];
		if (rule->protocol == protocol &&
		    (rule->port == 0 || (has_ports && (rule->port == source_port ||
							rule->port == dest_port))))
			return true;
	}
	return false;
}

/* The sender thread's state. */
typedef struct sender_state {
	tx_counters counters;
	tunnel_auth *auth;       /* NULL: no key */
	tunnel_capture *capture; /* NULL: none */
} sender_state;

/* send_datagram sends buf[0..len), signed if there is a key (buf has room
 * for the tag), and captures it; flush for a flush repair. */
static void send_datagram(sender_state *s, uint8_t *buf, size_t len, bool flush)
{
	if (s->auth != NULL) {
		tunnel_auth_sign(s->auth, buf, len);
		len += TUNNEL_TAG_BYTES;
	}
	bool sent = send(udp_fd, buf, len, 0) == (ssize_t)len;
	if (!sent)
		s->counters.send_errors++;
	if (s->capture != NULL)
		tunnel_capture_sent(s->capture, buf, len, sent, flush, now_ns());
}

static void send_repair(sender_state *s, swf_encoder *encoder, uint8_t *buf, bool flush)
{
	swf_repair_id id;
	if (swf_encoder_build_repair(encoder, buf + TUNNEL_REPAIR_HEADER_BYTES, &id) != SWF_OK ||
	    swf_repair_id_write(&id, buf + TUNNEL_HEADER_BYTES) != SWF_OK)
		fail("build a repair symbol");
	tunnel_write_header(buf, TUNNEL_REPAIR, session);
	send_datagram(s, buf, TUNNEL_REPAIR_HEADER_BYTES + opt.symbol_bytes, flush);
	s->counters.repairs++;
	s->counters.flush_repairs += flush;
	s->counters.uncovered = 0;
}

static void publish_tx(const tx_counters *counters)
{
	pthread_mutex_lock(&counters_lock);
	tx_published = *counters;
	pthread_mutex_unlock(&counters_lock);
}

/* Waits until fd is readable or the stop signal (true), or until
 * deadline_ns passes (false; 0: no deadline); what names fd. */
static bool wait_readable(int fd, uint64_t deadline_ns, const char *what)
{
	struct pollfd fds[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
	struct timespec timeout, *timeout_p = NULL;
	if (deadline_ns != 0) {
		uint64_t now = now_ns(), left = deadline_ns > now ? deadline_ns - now : 0;
		timeout = (struct timespec){(time_t)(left / 1000000000u), (long)(left % 1000000000u)};
		timeout_p = &timeout;
	}
	int ready = ppoll(fds, 2, timeout_p, NULL);
	if (ready < 0 && errno != EINTR)
		fail_errno("poll %s", what);
	return ready != 0;
}

/* auth_new makes the tunnel_auth of one thread, or NULL without a key. */
static tunnel_auth *auth_new(const struct sockaddr_in *sender, const struct sockaddr_in *receiver)
{
	if (!opt.have_key)
		return NULL;
	uint8_t from[6], to[6];
	memcpy(from, &sender->sin_addr, 4);
	memcpy(from + 4, &sender->sin_port, 2);
	memcpy(to, &receiver->sin_addr, 4);
	memcpy(to + 4, &receiver->sin_port, 2);
	tunnel_auth *auth = tunnel_auth_new(opt.key, from, to);
	if (auth == NULL)
		fail("set up HMAC-SHA-256 with OpenSSL");
	return auth;
}

static void *sender_main(void *unused)
{
	(void)unused;
	sender_state s = {.auth = auth_new(&opt.local, &opt.remote),
		    .capture = captures[TX].capture != NULL ? &captures[TX] : NULL};
	tx_counters *counters = &s.counters;
	swf_encoder_config config = {.symbol_bytes = opt.symbol_bytes, .k = opt.k, .z = opt.z,
				     .dt = opt.dt};
	swf_encoder *encoder;
	if (swf_encoder_new(&config, &encoder) != SWF_OK)
		fail("create the encoder");
	uint32_t inner_mtu = opt.symbol_bytes - TUNNEL_LENGTH_BYTES;
	/* The packet is read behind room for the longest header. */
	uint8_t *buf = malloc(TUNNEL_SOURCE_HEADER_BYTES + inner_mtu + opt.tag_bytes);
	uint8_t *repair = malloc(TUNNEL_REPAIR_HEADER_BYTES + opt.symbol_bytes + opt.tag_bytes);
	if (buf == NULL || repair == NULL)
		fail("out of memory for the sender");
	uint8_t *packet = buf + TUNNEL_SOURCE_HEADER_BYTES;
	uint64_t flush_ns = (uint64_t)(opt.flush_ms * 1e6);
	uint64_t flush_deadline = 0; /* 0: every source is covered by a repair */

	while (!stop_requested()) {
		ssize_t n = read(tun_fd, packet, inner_mtu);
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				fail_errno("read from %s", opt.dev_name);
			publish_tx(counters);
			if (!wait_readable(tun_fd, flush_deadline, "the TUN device") &&
			    flush_deadline != 0) {
				late(flush_deadline, now_ns());
				send_repair(&s, encoder, repair, true);
				flush_deadline = 0;
			}
			continue;
		}
		counters->packets_in++;
		size_t len = (size_t)n;
		if (len == 0 || !tunnel_inner_packet_ok(packet, len))
			continue;
		if (!is_protected(packet, len)) {
			tunnel_write_header(packet - TUNNEL_HEADER_BYTES, TUNNEL_PLAIN, session);
			send_datagram(&s, packet - TUNNEL_HEADER_BYTES, TUNNEL_HEADER_BYTES + len, false);
			counters->plain++;
			continue;
		}
		/* The symbol [length | packet] is built in place for the
		 * encoder, which copies it; then the ESI overwrites the length. */
		uint8_t *symbol = packet - TUNNEL_LENGTH_BYTES;
		symbol[0] = (uint8_t)(len >> 8);
		symbol[1] = (uint8_t)len;
		uint32_t esi;
		bool repair_due;
		if (swf_encoder_add_source(encoder, symbol, len + TUNNEL_LENGTH_BYTES, &esi,
					   &repair_due) != SWF_OK)
			fail("add a source symbol to the encoder");
		tunnel_write_header(buf, TUNNEL_SOURCE, session);
		for (int i = 0; i < 4; i++)
			buf[TUNNEL_HEADER_BYTES + i] = (uint8_t)(esi >> (24 - 8 * i));
		send_datagram(&s, buf, TUNNEL_SOURCE_HEADER_BYTES + len, false);
		counters->sources++;
		counters->uncovered++;
		if (repair_due) {
			send_repair(&s, encoder, repair, false);
			flush_deadline = 0;
		} else if (flush_ns != 0) {
			flush_deadline = now_ns() + flush_ns;
		}
		if ((counters->packets_in & 63) == 0)
			publish_tx(counters);
	}
	publish_tx(counters);
	swf_encoder_free(encoder);
	tunnel_auth_free(s.auth);
	free(buf);
	free(repair);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Receiver                                                               */

static void deliver(void *context, const uint8_t *packet, size_t len)
{
	rx_counters *counters = context;
	if (write(tun_fd, packet, len) != (ssize_t)len)
		counters->write_errors++;
}

/* received_ns is when the kernel received the datagram (SO_TIMESTAMPNS, on
 * CLOCK_REALTIME: sockets have no monotonic receive time, so a step of the
 * wall clock would show as lateness), or 0 if it gave no timestamp. */
static uint64_t received_ns(struct msghdr *message)
{
	for (struct cmsghdr *c = CMSG_FIRSTHDR(message); c != NULL; c = CMSG_NXTHDR(message, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec at;
			memcpy(&at, CMSG_DATA(c), sizeof at);
			return (uint64_t)at.tv_sec * 1000000000u + (uint64_t)at.tv_nsec;
		}
	return 0;
}

static uint64_t realtime_ns(void)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void publish_rx(const tunnel_receiver *receiver, rx_counters *counters)
{
	counters->proto = receiver->counters;
	counters->reorder = receiver->reorder.counters;
	pthread_mutex_lock(&counters_lock);
	rx_published = *counters;
	pthread_mutex_unlock(&counters_lock);
}

static void *receiver_main(void *unused)
{
	(void)unused;
	static tunnel_receiver receiver;
	tunnel_auth *auth = auth_new(&opt.remote, &opt.local);
	tunnel_receiver_config config = {
		.symbol_bytes = opt.symbol_bytes,
		.window = opt.z,
		.delivery = opt.delivery,
		.hold_ns = (uint64_t)(opt.hold_ms * 1e6),
		.decoding_delay = &decoding_delay,
		.hold_delay = &hold_delay,
		.auth = auth,
		.observe = captures[RX].capture != NULL ? tunnel_capture_observe : NULL,
		.observe_context = &captures[RX],
	};
	if (tunnel_receiver_init(&receiver, &config) != SWF_OK)
		fail("create the decoder");
	/* One byte more than the longest valid datagram: a longer one arrives
	 * truncated to a length that does not parse. */
	size_t capacity = TUNNEL_REPAIR_HEADER_BYTES + opt.symbol_bytes + opt.tag_bytes + 1;
	uint8_t *bufs = malloc(RX_BATCH * capacity);
	if (bufs == NULL)
		fail("out of memory for the receiver");
	struct mmsghdr messages[RX_BATCH];
	struct iovec iovs[RX_BATCH];
	union { /* aligned for a cmsghdr */
		char bytes[CMSG_SPACE(sizeof(struct timespec))];
		struct cmsghdr header;
	} controls[RX_BATCH];
	rx_counters counters = {0};

	while (!stop_requested()) {
		for (int i = 0; i < RX_BATCH; i++) {
			iovs[i] = (struct iovec){bufs + i * capacity, capacity};
			messages[i] = (struct mmsghdr){.msg_hdr = {
				.msg_iov = &iovs[i], .msg_iovlen = 1,
				.msg_control = controls[i].bytes,
				.msg_controllen = sizeof controls[i].bytes}};
		}
		int count = recvmmsg(udp_fd, messages, RX_BATCH, MSG_DONTWAIT, NULL);
		if (count < 0) {
			if (errno != EAGAIN && errno != EINTR && errno != ECONNREFUSED)
				fail_errno("receive from the peer");
			publish_rx(&receiver, &counters);
			/* In order, packets held for a gap leave at their hold time. */
			uint64_t deadline = tunnel_receiver_deadline_ns(&receiver);
			if (!wait_readable(udp_fd, deadline, "the UDP socket")) {
				uint64_t now = now_ns();
				if (deadline != 0)
					late(deadline, now);
				tunnel_receiver_tick(&receiver, now, deliver, &counters);
				publish_rx(&receiver, &counters);
			}
			continue;
		}
		uint64_t now = now_ns();
		for (int i = 0; i < count; i++) {
			uint64_t received = received_ns(&messages[i].msg_hdr);
			if (received != 0)
				late(received, realtime_ns());
			tunnel_receiver_input(&receiver, iovs[i].iov_base, messages[i].msg_len, now,
					      deliver, &counters);
		}
		publish_rx(&receiver, &counters);
	}
	tunnel_receiver_flush(&receiver, now_ns(), deliver, &counters);
	publish_rx(&receiver, &counters);
	tunnel_receiver_free(&receiver);
	tunnel_auth_free(auth);
	free(bufs);
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Set-up, stats and the command line.                                    */

static void parse_endpoint(const char *option, const char *text, struct sockaddr_in *out)
{
	char address[64];
	unsigned port;
	char extra;
	memset(out, 0, sizeof *out);
	out->sin_family = AF_INET;
	if (sscanf(text, "%63[0-9.]:%u%c", address, &port, &extra) != 2 || port == 0 ||
	    port > 65535 || inet_pton(AF_INET, address, &out->sin_addr) != 1)
		usage_fail("%s must be IPv4:PORT like 10.0.0.1:5000, got \"%s\"", option, text);
	out->sin_port = htons((uint16_t)port);
}

static void parse_protect(const char *option, const char *text)
{
	opt.protect_all = strcmp(text, "all") == 0;
	opt.rule_count = 0;
	if (opt.protect_all || strcmp(text, "none") == 0)
		return;
	static const char allowed[] = "all, none, or a comma list of tcp, udp, icmp or a protocol "
				      "number 0..255, each with an optional :PORT";
	char *copy = strdup(text), *rest = copy, *item;
	if (copy == NULL)
		fail("out of memory for %s", option);
	/* strsep, unlike strtok, shows empty items: "" and "tcp," select nothing. */
	while ((item = strsep(&rest, ",")) != NULL) {
		if (item[0] == '\0')
			usage_fail("%s \"%s\" has an empty item: give %s", option, text, allowed);
		if (opt.rule_count == MAX_RULES)
			usage_fail("%s takes at most %d rules, got \"%s\"", option, MAX_RULES, text);
		flow_rule *rule = &opt.rules[opt.rule_count++];
		char *colon = strchr(item, ':');
		if (colon != NULL) {
			*colon = '\0';
			char name[64];
			snprintf(name, sizeof name, "%s port of %s", option, item);
			rule->port = (uint16_t)parse_uint(name, colon + 1, 1, 65535);
		}
		if (strcmp(item, "tcp") == 0)
			rule->protocol = 6;
		else if (strcmp(item, "udp") == 0)
			rule->protocol = 17;
		else if (strcmp(item, "icmp") == 0)
			rule->protocol = 1;
		else if (item[0] >= '0' && item[0] <= '9')
			rule->protocol = (uint8_t)parse_uint(option, item, 0, 255);
		else
			usage_fail("%s: \"%s\" in \"%s\" is not a protocol: give %s", option, item,
				   text, allowed);
	}
	free(copy);
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20); /* lower case */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* read_key reads the key file: 64 hex digits, a newline allowed. */
static void read_key(const char *option, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		fail_errno("%s: open %s", option, path);
	struct stat st;
	if (fstat(fd, &st) != 0)
		fail_errno("%s: stat %s", option, path);
	if (st.st_mode & 077)
		usage_fail("%s: %s can be read by other users (mode %04o): a key file must be "
			   "private (chmod 600)", option, path, (unsigned)(st.st_mode & 07777));
	char text[2 * TUNNEL_KEY_BYTES + 2];
	size_t got = 0;
	ssize_t n;
	while (got < sizeof text && (n = read(fd, text + got, sizeof text - got)) != 0) {
		if (n < 0 && errno != EINTR)
			fail_errno("%s: read %s", option, path);
		got += n > 0 ? (size_t)n : 0;
	}
	close(fd);
	if (got > 0 && text[got - 1] == '\n')
		got--;
	bool hex = got == 2 * TUNNEL_KEY_BYTES;
	for (size_t i = 0; hex && i < TUNNEL_KEY_BYTES; i++) {
		int high = hex_digit(text[2 * i]), low = hex_digit(text[2 * i + 1]);
		hex = high >= 0 && low >= 0;
		opt.key[i] = (uint8_t)(high << 4 | low);
	}
	explicit_bzero(text, sizeof text);
	if (!hex)
		usage_fail("%s: %s must hold the key as %u hexadecimal digits (e.g. from openssl "
			   "rand -hex %u)", option, path, 2 * TUNNEL_KEY_BYTES, TUNNEL_KEY_BYTES);
	opt.have_key = true;
}

static void open_socket(void)
{
	udp_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (udp_fd < 0)
		fail_errno("open the UDP socket");
	int size = 8 << 20, dont_fragment = IP_PMTUDISC_DO, on = 1;
	if (setsockopt(udp_fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size) != 0)
		setsockopt(udp_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	if (setsockopt(udp_fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof size) != 0)
		setsockopt(udp_fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
	/* An outer datagram too big for the path fails to send instead of
	 * fragmenting. */
	if (setsockopt(udp_fd, IPPROTO_IP, IP_MTU_DISCOVER, &dont_fragment, sizeof dont_fragment))
		fail_errno("set IP_MTU_DISCOVER on the UDP socket");
	/* The kernel's receive time of each datagram, for the lateness. */
	if (setsockopt(udp_fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, sizeof on) != 0)
		fail_errno("set SO_TIMESTAMPNS on the UDP socket");
	char text[64];
	inet_ntop(AF_INET, &opt.local.sin_addr, text, sizeof text);
	if (bind(udp_fd, (struct sockaddr *)&opt.local, sizeof opt.local) != 0)
		fail_errno("bind UDP %s:%u", text, ntohs(opt.local.sin_port));
	inet_ntop(AF_INET, &opt.remote.sin_addr, text, sizeof text);
	if (connect(udp_fd, (struct sockaddr *)&opt.remote, sizeof opt.remote) != 0)
		fail_errno("connect UDP to %s:%u", text, ntohs(opt.remote.sin_port));
}

static histogram_snapshot snaps[2], hold_snaps[2], late_snaps[2];

static void print_stats(const char *event, bool whole_run)
{
	tx_counters tx;
	rx_counters rx;
	pthread_mutex_lock(&counters_lock);
	tx = tx_published;
	rx = rx_published;
	pthread_mutex_unlock(&counters_lock);
	histogram_snapshot_take(&decoding_delay, &snaps[0]);
	printf("{\"event\":\"%s\",\"t_s\":%.3f,\"tx\":{\"packets_in\":%" PRIu64
	       ",\"plain\":%" PRIu64 ",\"sources\":%" PRIu64 ",\"repairs\":%" PRIu64
	       ",\"flush_repairs\":%" PRIu64 ",\"uncovered\":%" PRIu64 ",\"send_errors\":%" PRIu64
	       "},",
	       event, (now_ns() - start_ns) / 1e9, tx.packets_in, tx.plain, tx.sources, tx.repairs,
	       tx.flush_repairs, tx.uncovered, tx.send_errors);
	const tunnel_rx_counters *p = &rx.proto;
	printf("\"rx\":{\"plain\":%" PRIu64 ",\"sources\":%" PRIu64 ",\"repairs\":%" PRIu64
	       ",\"lost\":%" PRIu64 ",\"recovered\":%" PRIu64 ",\"unrecovered\":%" PRIu64
	       ",\"malformed\":%" PRIu64 ",\"sessions\":%" PRIu64 ",\"rejected\":%" PRIu64
	       ",\"unauthenticated\":%" PRIu64 ",\"write_errors\":%" PRIu64
	       ",\"held\":%" PRIu64 ",\"hold_timeouts\":%" PRIu64 ",\"decoding_delay_ms\":",
	       p->plain, p->sources, p->repairs, p->lost, p->recovered, p->unrecovered,
	       p->malformed, p->sessions, p->rejected, p->unauthenticated, rx.write_errors,
	       rx.reorder.held, rx.reorder.hold_timeouts);
	histogram_print(stdout, &snaps[0], whole_run ? NULL : &snaps[1]);
	histogram_snapshot_take(&hold_delay, &hold_snaps[0]);
	printf(",\"hold_delay_ms\":");
	histogram_print(stdout, &hold_snaps[0], whole_run ? NULL : &hold_snaps[1]);
	histogram_snapshot_take(&lateness, &late_snaps[0]);
	printf("},\"lateness_ms\":");
	histogram_print(stdout, &late_snaps[0], whole_run ? NULL : &late_snaps[1]);
	printf(",\"capture\":{\"tx\":");
	capture_print_stats(stdout, captures[TX].capture);
	printf(",\"rx\":");
	capture_print_stats(stdout, captures[RX].capture);
	printf("}}\n");
	fflush(stdout);
	snaps[1] = snaps[0];
	hold_snaps[1] = hold_snaps[0];
	late_snaps[1] = late_snaps[0];
}

/* delivery_option takes --delivery and --hold-ms; false for another. */
static bool delivery_option(const char *option, const char *value)
{
	if (strcmp(option, "--delivery") == 0) {
		if (strcmp(value, "immediate") == 0)
			opt.delivery = TUNNEL_DELIVERY_IMMEDIATE;
		else if (strcmp(value, "in-order") == 0)
			opt.delivery = TUNNEL_DELIVERY_IN_ORDER;
		else
			usage_fail("--delivery must be immediate or in-order, got \"%s\"", value);
	} else if (strcmp(option, "--hold-ms") == 0) {
		opt.hold_ms = parse_double(option, value, 0.001, true, 60000);
		opt.hold_option = option;
	} else {
		return false;
	}
	return true;
}

/* capture_option takes the capture options; false for another. */
static bool capture_option(const char *option, const char *value)
{
	if (strcmp(option, "--tx-capture") == 0) {
		opt.capture_path[TX] = value;
	} else if (strcmp(option, "--rx-capture") == 0) {
		opt.capture_path[RX] = value;
	} else if (strcmp(option, "--capture-snap-bytes") == 0) {
		opt.capture_snap_bytes = (uint32_t)parse_uint(option, value, 48, 65535);
		opt.capture_option = option;
	} else if (strcmp(option, "--capture-max-bytes") == 0) {
		opt.capture_max_bytes = parse_uint(option, value, 4096, UINT64_C(1) << 50);
		opt.capture_option = option;
	} else {
		return false;
	}
	return true;
}

static void check_delivery_and_captures(void)
{
	if (opt.hold_option != NULL && opt.delivery != TUNNEL_DELIVERY_IN_ORDER)
		usage_fail("--hold-ms needs --delivery in-order: only packets held for order wait");
	const char *tx = opt.capture_path[TX], *rx = opt.capture_path[RX];
	if (opt.capture_option != NULL && tx == NULL && rx == NULL)
		usage_fail("%s needs --tx-capture or --rx-capture", opt.capture_option);
	if (tx != NULL && rx != NULL && strcmp(tx, rx) == 0)
		usage_fail("--tx-capture and --rx-capture name the same file, %s: give each its own",
			   tx);
}

static void parse_arguments(int argc, char **argv)
{
	bool have_local = false, have_remote = false;
	const char *symbol_option = NULL;
	for (int i = 1; i < argc; i++) {
		const char *value;
		static const char *const flags[] = {"--no-realtime", NULL};
		const char *option = next_option(argc, argv, &i, usage, flags, &value);
		if (strcmp(option, "--no-realtime") == 0) {
			opt.realtime = false;
		} else if (strcmp(option, "--dev") == 0) {
			tun_check_name(option, value);
			opt.dev = value;
		} else if (strcmp(option, "--addr") == 0) {
			tun_check_cidr(option, value);
			opt.addr = value;
		} else if (strcmp(option, "--local") == 0) {
			parse_endpoint(option, value, &opt.local);
			have_local = true;
		} else if (strcmp(option, "--remote") == 0) {
			parse_endpoint(option, value, &opt.remote);
			have_remote = true;
		} else if (strcmp(option, "--k") == 0) {
			opt.k = (uint16_t)parse_uint(option, value, 1, 65535);
		} else if (strcmp(option, "--z") == 0) {
			opt.z = (uint16_t)parse_uint(option, value, 1, SWF_MAX_WINDOW);
		} else if (strcmp(option, "--dt") == 0) {
			opt.dt = (uint8_t)parse_uint(option, value, 0, SWF_MAX_DT);
		} else if (strcmp(option, "--flush-ms") == 0) {
			opt.flush_ms = parse_double(option, value, 0, true, 60000);
		} else if (strcmp(option, "--outer-mtu") == 0) {
			opt.outer_mtu = (uint32_t)parse_uint(option, value,
							     MIN_SYMBOL_BYTES + OUTER_OVERHEAD_BYTES,
							     65535);
		} else if (strcmp(option, "--symbol-bytes") == 0) {
			opt.symbol_bytes = (uint32_t)parse_uint(option, value, MIN_SYMBOL_BYTES, 65535);
			symbol_option = value;
		} else if (strcmp(option, "--protect") == 0) {
			parse_protect(option, value);
		} else if (strcmp(option, "--key-file") == 0) {
			read_key(option, value);
		} else if (strcmp(option, "--stats-interval-ms") == 0) {
			opt.stats_interval_ms = (uint32_t)parse_uint(option, value, 0, 3600000);
		} else if (!delivery_option(option, value) && !capture_option(option, value)) {
			usage_fail("unknown option %s (see --help)", option);
		}
	}
	check_delivery_and_captures();
	if (opt.dev == NULL || !have_local || !have_remote)
		usage_fail("--dev, --local and --remote are required (see --help)");
	if (opt.k > opt.z)
		usage_fail("--k %u must be at most --z %u: a repair covers the last Z protected "
			   "packets, so with K > Z some are never covered", opt.k, opt.z);
	opt.tag_bytes = opt.have_key ? TUNNEL_TAG_BYTES : 0;
	uint32_t overhead = OUTER_OVERHEAD_BYTES + opt.tag_bytes;
	const char *with_key = opt.have_key ? " with --key-file" : "";
	if (symbol_option == NULL) {
		opt.symbol_bytes = opt.outer_mtu - overhead;
		if (opt.symbol_bytes < MIN_SYMBOL_BYTES)
			usage_fail("--outer-mtu %u leaves symbols of %u bytes%s, below %u: give at "
				   "least %u", opt.outer_mtu, opt.symbol_bytes, with_key,
				   MIN_SYMBOL_BYTES, MIN_SYMBOL_BYTES + overhead);
	} else if (opt.symbol_bytes + overhead > opt.outer_mtu) {
		usage_fail("--symbol-bytes %s makes repair datagrams of %u bytes%s, above "
			   "--outer-mtu %u: give at most %u", symbol_option,
			   opt.symbol_bytes + overhead, with_key, opt.outer_mtu,
			   opt.outer_mtu - overhead);
	}
}

int main(int argc, char **argv)
{
	tool_name = "swf-tunnel";
	parse_arguments(argc, argv);
	stop_init();
	uint32_t inner_mtu = opt.symbol_bytes - TUNNEL_LENGTH_BYTES;
	for (int side = TX; side <= RX; side++)
		if (opt.capture_path[side] != NULL &&
		    !tunnel_capture_open(&captures[side], side == RX, opt.capture_path[side],
					 opt.capture_snap_bytes, opt.capture_max_bytes, &opt.local,
					 &opt.remote))
			fail_errno("--%s-capture: open %s", side == RX ? "rx" : "tx",
				   opt.capture_path[side]);
	tun_fd = tun_create(opt.dev, inner_mtu, opt.addr, 1, opt.dev_name);
	open_socket();
	/* The session tells the peer that this is a new encoder: it only needs
	 * to differ between runs, so the clock serves. */
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	session = (uint32_t)(wall.tv_sec * 1000003u) ^ (uint32_t)wall.tv_nsec ^ (uint32_t)getpid();

	start_ns = now_ns();
	pthread_t sender, receiver;
	bool realtime = start_thread(&sender, sender_main, NULL, opt.realtime, "sender");
	realtime &= start_thread(&receiver, receiver_main, NULL, opt.realtime, "receiver");
	printf("{\"event\":\"ready\",\"pid\":%d,\"realtime\":%s,\"dev\":\"%s\",\"inner_mtu\":%" PRIu32
	       ",\"symbol_bytes\":%" PRIu32 ",\"k\":%u,\"z\":%u,\"dt\":%u,\"flush_ms\":%g,"
	       "\"session\":%" PRIu32 ",\"authenticated\":%s,\"gf_kernel\":\"%s\","
	       "\"delivery\":\"%s\",\"hold_ms\":",
	       (int)getpid(), realtime ? "true" : "false", opt.dev_name, inner_mtu, opt.symbol_bytes, opt.k, opt.z, opt.dt,
	       opt.flush_ms, session, opt.have_key ? "true" : "false", swf_gf_kernel(),
	       opt.delivery == TUNNEL_DELIVERY_IN_ORDER ? "in-order" : "immediate");
	if (opt.delivery == TUNNEL_DELIVERY_IN_ORDER)
		printf("%g", opt.hold_ms);
	else
		printf("null");
	printf(",\"capture\":");
	if (captures[TX].capture == NULL && captures[RX].capture == NULL) {
		printf("null");
	} else {
		for (int side = TX; side <= RX; side++) {
			printf(side == TX ? "{\"tx\":" : ",\"rx\":");
			if (opt.capture_path[side] != NULL)
				print_json_string(stdout, opt.capture_path[side]);
			else
				printf("null");
		}
		printf(",\"snap_bytes\":%" PRIu32 ",\"max_bytes\":%" PRIu64 "}",
		       opt.capture_snap_bytes, opt.capture_max_bytes);
	}
	printf("}\n");
	fflush(stdout);

	uint64_t interval_ns = (uint64_t)opt.stats_interval_ms * 1000000u;
	for (uint64_t tick = 1;; tick++) {
		if (wait_signal_until(interval_ns ? start_ns + tick * interval_ns : 0))
			break;
		print_stats("stats", false);
	}
	stop_request();
	pthread_join(sender, NULL);
	pthread_join(receiver, NULL);
	for (int side = TX; side <= RX; side++)
		if (captures[side].capture != NULL)
			capture_finish(captures[side].capture);
	print_stats("summary", true);
	for (int side = TX; side <= RX; side++)
		capture_free(captures[side].capture);
	return 0;
}
