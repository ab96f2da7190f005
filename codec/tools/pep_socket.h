/*
 * pep_socket.h - the per-segment TCP settings of satlab-pep and what its
 * sockets report.
 *
 * A PEP splits each connection in two: the socket it accepted (toward the
 * client) and the one it opened (toward the server). One of them crosses the
 * satellite, the other stays on the ground; each gets its segment's
 * settings. Settings of the accepted side go on the listening socket, which
 * its connections inherit (the receive buffer must be known before the
 * SYN-ACK: it sets the window scale); those of the opened side go on each new
 * socket before connect().
 */
#ifndef PEP_SOCKET_H
#define PEP_SOCKET_H

#include <stdbool.h>
#include <stdio.h>

/* TCP Fast Open (RFC 7413) on a segment: off; with a cookie (the first
 * connection to a server fetches it, later ones carry data in their SYN);
 * or without one (every SYN carries data: only between two PEPs that trust
 * each other, both set to no-cookie). */
typedef enum pep_fastopen {
	PEP_FASTOPEN_OFF,
	PEP_FASTOPEN_COOKIE,
	PEP_FASTOPEN_NO_COOKIE,
} pep_fastopen;

typedef struct pep_segment {
	const char *name;       /* "sat" or "ground": the options' prefix */
	const char *congestion; /* TCP_CONGESTION; NULL: the namespace's default */
	int sndbuf_bytes;       /* SO_SNDBUF; 0: the kernel's autotuning */
	int rcvbuf_bytes;       /* SO_RCVBUF; 0: the kernel's autotuning */
	pep_fastopen fastopen;
} pep_segment;

/* pep_fastopen_parse maps "off", "cookie", "no-cookie"; refuses anything
 * else through usage_fail naming the option. */
pep_fastopen pep_fastopen_parse(const char *option, const char *text);
const char *pep_fastopen_name(pep_fastopen fastopen);

/* pep_segment_check refuses (exit 2, a sentence naming the option) what this
 * kernel and namespace cannot do: a congestion control it does not offer
 * (the sentence lists those it has), or Fast Open while net.ipv4.tcp_fastopen
 * lacks the bit the segment's side needs (0x1 to connect, 0x2 to accept).
 * `accepted` says which side of the connection the segment is. */
void pep_segment_check(const pep_segment *segment, bool accepted);

/* pep_segment_apply_listener puts the accepted side's settings on the
 * listening socket; fails (exit 1) naming the option. */
void pep_segment_apply_listener(int fd, const pep_segment *segment);

/* pep_segment_apply_connecting puts the opened side's settings on a new
 * socket before connect(); TCP_FASTOPEN_CONNECT only if use_fastopen (the
 * PEP has data for the SYN). Returns NULL, or the action that failed (errno
 * tells why) for the connection's error sentence. */
const char *pep_segment_apply_connecting(int fd, const pep_segment *segment, bool use_fastopen);

/* pep_segment_print writes the segment's settings as a JSON object. */
void pep_segment_print(FILE *out, const pep_segment *segment);

/* pep_tcp_print writes what the socket reports as a JSON object: its
 * congestion control, buffers and TCP_INFO (RTT, window, MSS,
 * retransmissions, bytes sent, acknowledged and received, whether its SYN
 * carried data), and the bytes of the stream it holds (SIOCINQ: received,
 * not yet read; SIOCOUTQ: written, not yet acknowledged). */
void pep_tcp_print(FILE *out, int fd);

#endif /* PEP_SOCKET_H */
