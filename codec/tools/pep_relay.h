/*
 * pep_relay.h - one connection split by satlab-pep: the socket it accepted
 * from the client, the one it opened to the server (the client's original
 * destination, bound to the client's own address and port), and a pipe per
 * direction through which splice() moves the bytes without copying them to
 * user space.
 *
 * The pipe is the relay's only buffer besides the sockets': a direction
 * reads its source only while the pipe holds fewer than pipe_capacity bytes,
 * so what a connection holds is bounded whatever the two segments' speeds.
 * When a source ends, its end is passed on (shutdown(SHUT_WR)) once the pipe
 * is empty: half-closed connections work. A failure on either side resets
 * both (RST), so that neither end mistakes a broken relay for a clean end.
 *
 * All descriptors are non-blocking and meant for edge-triggered epoll: after
 * any event on either socket, pep_relay_pump moves what can move.
 */
#ifndef PEP_RELAY_H
#define PEP_RELAY_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pep_socket.h"

typedef struct pep_direction {
	int pipe_read, pipe_write;
	size_t pipe_bytes;      /* in the pipe now */
	size_t pipe_peak_bytes; /* the most in it since pep_relay_report_done */
	uint64_t relayed_bytes; /* written to the destination */
	bool source_ended;      /* the source said end of stream */
	bool destination_shut;  /* that end was passed on */
} pep_direction;

typedef enum pep_relay_state {
	PEP_WAITING,    /* for the client's first bytes, to send them in a Fast Open SYN */
	PEP_CONNECTING, /* to the server */
	PEP_RELAYING,   /* both ways (with Fast Open also before the handshake's end) */
	PEP_FINISHED,   /* both directions ended and were passed on */
	PEP_FAILED,     /* error holds the sentence */
} pep_relay_state;

typedef struct pep_relay {
	uint64_t id;
	int client_fd, server_fd; /* -1: none (yet, or any more) */
	struct sockaddr_in client, server;
	pep_relay_state state;
	bool server_established; /* its handshake ended (so a failure is not the connect's) */
	pep_direction to_server, to_client;
	size_t pipe_capacity; /* bytes each pipe may hold */
	uint64_t accepted_ns;
	char error[192];
} pep_relay;

/* pep_relay_init sets relay up for the accepted socket client_fd (made
 * non-blocking here): the client's address, its original destination (the
 * accepted socket's own address, as TPROXY keeps it), and two pipes of
 * pipe_capacity bytes. Returns false, with the failed action in
 * relay->error, if it cannot; the caller then closes client_fd. */
bool pep_relay_init(pep_relay *relay, uint64_t id, int client_fd, size_t pipe_capacity,
		    uint64_t now_ns);

/* pep_relay_connect opens the socket to the server with the segment's
 * settings (Fast Open if `fastopen`), bound transparently (IP_TRANSPARENT)
 * to the client's address and port, so the far side sees the client; then
 * connects without waiting. The state becomes PEP_CONNECTING, PEP_RELAYING
 * (a Fast Open connect deferred to the first write) or PEP_FAILED. Add
 * server_fd to epoll after it. */
void pep_relay_connect(pep_relay *relay, const pep_segment *segment, bool fastopen);

/* pep_relay_server_event handles an event on the server socket until its
 * handshake ends: the connection is up (PEP_RELAYING, server_established)
 * or failed (PEP_FAILED). */
void pep_relay_server_event(pep_relay *relay, bool writable);

/* pep_relay_pump moves what can move in both directions, at most `rounds`
 * splice pairs each. Returns true if it stopped at that bound with more to
 * move (call it again: edge-triggered epoll will not say so); false once
 * everything waits for an event. The state may become PEP_FINISHED or
 * PEP_FAILED. */
bool pep_relay_pump(pep_relay *relay, unsigned rounds);

/* pep_relay_report_done starts new peak occupancies for the next report. */
void pep_relay_report_done(pep_relay *relay);

/* pep_relay_close closes every descriptor; `reset` aborts the sockets with
 * an RST (SO_LINGER 0) instead of closing them in order. */
void pep_relay_close(pep_relay *relay, bool reset);

/* pep_format_address writes "a.b.c.d:port" into out (at least 22 bytes). */
void pep_format_address(const struct sockaddr_in *address, char *out);

#endif /* PEP_RELAY_H */
