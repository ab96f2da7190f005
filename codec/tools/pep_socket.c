/* pep_socket.c - per-segment TCP settings and socket reports of satlab-pep. */
#define _GNU_SOURCE
#include "pep_socket.h"

#include <errno.h>
#include <inttypes.h>
#include <linux/sockios.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tool.h"

#define CONGESTION_PATH "/proc/sys/net/ipv4/tcp_available_congestion_control"
#define FASTOPEN_PATH "/proc/sys/net/ipv4/tcp_fastopen"
/* net.ipv4.tcp_fastopen's bits (Documentation/networking/ip-sysctl.rst). */
#define FASTOPEN_CLIENT_BIT 0x1
#define FASTOPEN_SERVER_BIT 0x2
/* Connections whose SYN carried data and that wait for their handshake's
 * end: as many as the listen backlog. */
#define FASTOPEN_QUEUE 1024

static const char *const fastopen_names[] = {"off", "cookie", "no-cookie"};

/* TCP_INFO's states (the kernel's include/net/tcp_states.h) in which a FIN
 * was sent and is not acknowledged yet. */
enum { STATE_FIN_WAIT1 = 4, STATE_LAST_ACK = 9, STATE_CLOSING = 11 };

pep_fastopen pep_fastopen_parse(const char *option, const char *text)
{
	for (size_t i = 0; i < sizeof fastopen_names / sizeof fastopen_names[0]; i++)
		if (strcmp(text, fastopen_names[i]) == 0)
			return (pep_fastopen)i;
	usage_fail("%s must be off, cookie or no-cookie, got \"%s\"", option, text);
}

const char *pep_fastopen_name(pep_fastopen fastopen)
{
	return fastopen_names[fastopen];
}

/* read_line reads the first line of a /proc file into buf (newline cut);
 * false if it cannot. */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *file = fopen(path, "r");
	if (file == NULL)
		return false;
	bool got = fgets(buf, (int)size, file) != NULL;
	fclose(file);
	if (got)
		buf[strcspn(buf, "\n")] = '\0';
	return got;
}

static void check_congestion(const pep_segment *segment)
{
	char available[512];
	if (!read_line(CONGESTION_PATH, available, sizeof available))
		snprintf(available, sizeof available, "(unknown: %s unreadable)", CONGESTION_PATH);
	/* The kernel decides, not the list: with CAP_NET_ADMIN it loads a
	 * module that is not listed yet. */
	int probe = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (probe < 0)
		fail_errno("open a socket to try --%s-congestion", segment->name);
	int status = setsockopt(probe, IPPROTO_TCP, TCP_CONGESTION, segment->congestion,
				(socklen_t)strlen(segment->congestion));
	int errnum = errno;
	close(probe);
	if (status == 0)
		return;
	if (errnum == EPERM)
		usage_fail("--%s-congestion %s is not allowed in this namespace (%s): choose one of "
			   "%s with CAP_NET_ADMIN", segment->name, segment->congestion,
			   strerror(errnum), available);
	usage_fail("--%s-congestion must be a congestion control this kernel has (%s: %s), got "
		   "\"%s\"", segment->name, CONGESTION_PATH, available, segment->congestion);
}

static void check_fastopen(const pep_segment *segment, bool accepted)
{
	char text[32];
	long value = 0;
	if (!read_line(FASTOPEN_PATH, text, sizeof text) || sscanf(text, "%li", &value) != 1)
		fail("--%s-fastopen: cannot read %s", segment->name, FASTOPEN_PATH);
	long bit = accepted ? FASTOPEN_SERVER_BIT : FASTOPEN_CLIENT_BIT;
	if ((value & bit) == 0)
		usage_fail("--%s-fastopen %s needs bit 0x%lx (%s) of net.ipv4.tcp_fastopen in this "
			   "namespace, which is %ld: set it first (sysctl -w net.ipv4.tcp_fastopen=3)",
			   segment->name, pep_fastopen_name(segment->fastopen), bit,
			   accepted ? "accept with Fast Open" : "connect with Fast Open", value);
}

void pep_segment_check(const pep_segment *segment, bool accepted)
{
	if (segment->congestion != NULL)
		check_congestion(segment);
	if (segment->fastopen != PEP_FASTOPEN_OFF)
		check_fastopen(segment, accepted);
}

/* set_buffer sets SO_SNDBUF or SO_RCVBUF to `bytes` (0: leave autotuning
 * on). The FORCE variant, for root, is not capped by net.core.*mem_max. */
static int set_buffer(int fd, int option, int force_option, int bytes)
{
	if (bytes == 0)
		return 0;
	if (setsockopt(fd, SOL_SOCKET, force_option, &bytes, sizeof bytes) == 0)
		return 0;
	return setsockopt(fd, SOL_SOCKET, option, &bytes, sizeof bytes);
}

static int set_int(int fd, int level, int option, int value)
{
	return setsockopt(fd, level, option, &value, sizeof value);
}

/* apply_common sets what both sides take; returns the failed action. */
static const char *apply_common(int fd, const pep_segment *segment)
{
	if (segment->congestion != NULL &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, segment->congestion,
		       (socklen_t)strlen(segment->congestion)) != 0)
		return "set TCP_CONGESTION";
	if (set_buffer(fd, SO_SNDBUF, SO_SNDBUFFORCE, segment->sndbuf_bytes) != 0)
		return "set SO_SNDBUF";
	if (set_buffer(fd, SO_RCVBUF, SO_RCVBUFFORCE, segment->rcvbuf_bytes) != 0)
		return "set SO_RCVBUF";
	/* The end hosts' own Nagle already coalesced what they sent: the relay
	 * must not hold a small segment back for an ACK a round trip away. */
	if (set_int(fd, IPPROTO_TCP, TCP_NODELAY, 1) != 0)
		return "set TCP_NODELAY";
	if (segment->fastopen == PEP_FASTOPEN_NO_COOKIE &&
	    set_int(fd, IPPROTO_TCP, TCP_FASTOPEN_NO_COOKIE, 1) != 0)
		return "set TCP_FASTOPEN_NO_COOKIE";
	return NULL;
}

void pep_segment_apply_listener(int fd, const pep_segment *segment)
{
	const char *failed = apply_common(fd, segment);
	if (failed == NULL && segment->fastopen != PEP_FASTOPEN_OFF &&
	    set_int(fd, IPPROTO_TCP, TCP_FASTOPEN, FASTOPEN_QUEUE) != 0)
		failed = "set TCP_FASTOPEN";
	if (failed != NULL)
		fail_errno("%s on the listening socket (--%s-* options)", failed, segment->name);
}

const char *pep_segment_apply_connecting(int fd, const pep_segment *segment, bool use_fastopen)
{
	const char *failed = apply_common(fd, segment);
	if (failed == NULL && use_fastopen && set_int(fd, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, 1) != 0)
		failed = "set TCP_FASTOPEN_CONNECT";
	return failed;
}

void pep_segment_print(FILE *out, const pep_segment *segment)
{
	fprintf(out, "{\"congestion\":");
	if (segment->congestion != NULL)
		fprintf(out, "\"%s\"", segment->congestion);
	else
		fprintf(out, "null");
	fprintf(out, ",\"sndbuf_bytes\":%d,\"rcvbuf_bytes\":%d,\"fastopen\":\"%s\"}",
		segment->sndbuf_bytes, segment->rcvbuf_bytes, pep_fastopen_name(segment->fastopen));
}

static int get_int(int fd, int level, int option)
{
	int value = -1;
	socklen_t len = sizeof value;
	getsockopt(fd, level, option, &value, &len);
	return value;
}

/* print_queued writes ,"name":N with the bytes of the stream the socket
 * holds by SIOCINQ or SIOCOUTQ, or null if it cannot tell. SIOCOUTQ counts
 * the FIN too while it waits for its ACK (the states after a shutdown and
 * before that ACK): it is no byte of the stream. */
static void print_queued(FILE *out, const char *name, int fd, unsigned long request, uint8_t state)
{
	int bytes;
	if (ioctl(fd, request, &bytes) != 0) {
		fprintf(out, ",\"%s\":null", name);
		return;
	}
	bool fin_unacknowledged = state == STATE_FIN_WAIT1 || state == STATE_LAST_ACK || state == STATE_CLOSING;
	if (request == SIOCOUTQ && fin_unacknowledged && bytes > 0)
		bytes--;
	fprintf(out, ",\"%s\":%d", name, bytes);
}

void pep_tcp_print(FILE *out, int fd)
{
	struct tcp_info info;
	socklen_t len = sizeof info;
	memset(&info, 0, sizeof info);
	char congestion[16] = "";
	socklen_t congestion_len = sizeof congestion - 1;
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, congestion, &congestion_len) != 0) {
		fprintf(out, "null");
		return;
	}
	/* The kernel reports its initial "infinite" ssthresh as 0x7fffffff. */
	bool ssthresh_set = info.tcpi_snd_ssthresh < 0x7fffffffu;
	fprintf(out,
		"{\"congestion\":\"%s\",\"sndbuf_bytes\":%d,\"rcvbuf_bytes\":%d,\"state\":%u,"
		"\"rtt_us\":%" PRIu32 ",\"min_rtt_us\":%" PRIu32 ",\"cwnd_packets\":%" PRIu32
		",\"ssthresh_packets\":",
		congestion, get_int(fd, SOL_SOCKET, SO_SNDBUF), get_int(fd, SOL_SOCKET, SO_RCVBUF),
		info.tcpi_state, info.tcpi_rtt, info.tcpi_min_rtt, info.tcpi_snd_cwnd);
	if (ssthresh_set)
		fprintf(out, "%" PRIu32, info.tcpi_snd_ssthresh);
	else
		fprintf(out, "null");
	fprintf(out,
		",\"total_retrans\":%" PRIu32 ",\"lost_packets\":%" PRIu32
		",\"unacked_packets\":%" PRIu32 ",\"bytes_sent\":%llu,\"bytes_retrans\":%llu"
		",\"bytes_acked\":%llu,\"bytes_received\":%llu,\"notsent_bytes\":%" PRIu32
		",\"delivery_rate_bytes_per_s\":%llu,\"syn_data\":%s,\"mss_bytes\":%" PRIu32,
		info.tcpi_total_retrans, info.tcpi_lost, info.tcpi_unacked,
		(unsigned long long)info.tcpi_bytes_sent, (unsigned long long)info.tcpi_bytes_retrans,
		(unsigned long long)info.tcpi_bytes_acked,
		(unsigned long long)info.tcpi_bytes_received, info.tcpi_notsent_bytes,
		(unsigned long long)info.tcpi_delivery_rate,
		(info.tcpi_options & TCPI_OPT_SYN_DATA) ? "true" : "false", info.tcpi_snd_mss);
	/* What the PEP holds of the stream in this socket: received and not
	 * yet read, and written and not yet acknowledged (sent or not). */
	print_queued(out, "inq_bytes", fd, SIOCINQ, info.tcpi_state);
	print_queued(out, "outq_bytes", fd, SIOCOUTQ, info.tcpi_state);
	fputc('}', out);
}
