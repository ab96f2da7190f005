/* pep_relay.c - one split connection of satlab-pep: sockets, pipes, splice. */
#define _GNU_SOURCE
#include "pep_relay.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* fail_relay records "<action>: <strerror(errno)>" as the relay's failure. */
static bool fail_relay(pep_relay *relay, const char *action)
{
	snprintf(relay->error, sizeof relay->error, "%s: %s", action, strerror(errno));
	relay->state = PEP_FAILED;
	return false;
}

static bool open_pipe(pep_relay *relay, pep_direction *direction, size_t capacity)
{
	int fds[2];
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
		return fail_relay(relay, "create a pipe");
	direction->pipe_read = fds[0];
	direction->pipe_write = fds[1];
	/* The kernel rounds the size up to a power of two pages. */
	int size = fcntl(fds[1], F_SETPIPE_SZ, (int)capacity);
	if (size < 0)
		return fail_relay(relay, "set the pipe's size (F_SETPIPE_SZ)");
	relay->pipe_capacity = (size_t)size;
	return true;
}

bool pep_relay_init(pep_relay *relay, uint64_t id, int client_fd, size_t pipe_capacity,
		    uint64_t now_ns)
{
	*relay = (pep_relay){.id = id, .client_fd = client_fd, .server_fd = -1,
			     .state = PEP_WAITING, .accepted_ns = now_ns};
	relay->to_server.pipe_read = relay->to_server.pipe_write = -1;
	relay->to_client.pipe_read = relay->to_client.pipe_write = -1;
	socklen_t len = sizeof relay->client;
	if (getpeername(client_fd, (struct sockaddr *)&relay->client, &len) != 0)
		return fail_relay(relay, "read the client's address");
	/* TPROXY delivered the connection without rewriting it: the accepted
	 * socket's own address is where the client meant to go. */
	len = sizeof relay->server;
	if (getsockname(client_fd, (struct sockaddr *)&relay->server, &len) != 0)
		return fail_relay(relay, "read the original destination");
	return open_pipe(relay, &relay->to_server, pipe_capacity) &&
	       open_pipe(relay, &relay->to_client, pipe_capacity);
}

void pep_relay_connect(pep_relay *relay, const pep_segment *segment, bool fastopen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		fail_relay(relay, "open a socket to the server");
		return;
	}
	relay->server_fd = fd;
	int one = 1;
	if (setsockopt(fd, SOL_IP, IP_TRANSPARENT, &one, sizeof one) != 0) {
		fail_relay(relay, "set IP_TRANSPARENT on the socket to the server");
		return;
	}
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0) {
		fail_relay(relay, "set SO_REUSEADDR on the socket to the server");
		return;
	}
	const char *failed = pep_segment_apply_connecting(fd, segment, fastopen);
	if (failed != NULL) {
		char action[96];
		snprintf(action, sizeof action, "%s on the socket to the server", failed);
		fail_relay(relay, action);
		return;
	}
	/* The client's own port too, so that a PEP further on sees the very
	 * connection the client opened; another port only if that one is
	 * taken here. */
	if (bind(fd, (struct sockaddr *)&relay->client, sizeof relay->client) != 0) {
		struct sockaddr_in any_port = relay->client;
		any_port.sin_port = 0;
		if (errno != EADDRINUSE ||
		    bind(fd, (struct sockaddr *)&any_port, sizeof any_port) != 0) {
			fail_relay(relay, "bind to the client's address");
			return;
		}
	}
	if (connect(fd, (struct sockaddr *)&relay->server, sizeof relay->server) == 0)
		relay->state = PEP_RELAYING; /* Fast Open: the SYN leaves with the first write */
	else if (errno == EINPROGRESS)
		relay->state = PEP_CONNECTING;
	else
		fail_relay(relay, "connect to the server");
}

/* handshaking says whether fd still waits for its SYN-ACK: shutdown() in
 * SYN_SENT would abort the connection instead of sending a FIN after it (a
 * Fast Open SYN may carry a whole request and be followed by its end). */
static bool handshaking(int fd)
{
	struct tcp_info info;
	socklen_t len = sizeof info;
	return getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) == 0 &&
	       info.tcpi_state == TCP_SYN_SENT;
}

void pep_relay_server_event(pep_relay *relay, bool writable)
{
	if (relay->server_established || !writable ||
	    (relay->state != PEP_CONNECTING && relay->state != PEP_RELAYING))
		return;
	if (relay->state == PEP_RELAYING) {
		/* A Fast Open connect: relaying since connect(), established
		 * once the SYN-ACK came. */
		relay->server_established = !handshaking(relay->server_fd);
		return;
	}
	int error = 0;
	socklen_t len = sizeof error;
	if (getsockopt(relay->server_fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
		error = errno;
	if (error != 0) {
		errno = error;
		fail_relay(relay, "connect to the server");
	} else {
		relay->state = PEP_RELAYING;
		relay->server_established = true;
	}
}

typedef enum move_result { MOVE_WAITS, MOVE_MORE, MOVE_FAILED } move_result;

typedef struct move_ends {
	int source, destination;  /* source -1: none yet */
	bool writable;            /* the destination may be written */
	const char *from, *to;    /* "client", "server" */
} move_ends;

static move_result move_failed(pep_relay *relay, const char *verb, const char *side)
{
	char action[64];
	/* A Fast Open SYN refused or unanswered fails the first read or write. */
	if (strcmp(side, "server") == 0 && !relay->server_established)
		verb = "connect to";
	snprintf(action, sizeof action, "%s the %s", verb, side);
	fail_relay(relay, action);
	return MOVE_FAILED;
}

/* move relays one direction: source -> pipe -> destination, until both
 * splices would block, or `rounds` times. */
static move_result move(pep_relay *relay, pep_direction *d, const move_ends *ends, unsigned rounds)
{
	const unsigned flags = SPLICE_F_MOVE | SPLICE_F_NONBLOCK;
	for (unsigned round = 0; round < rounds; round++) {
		bool progress = false;
		if (!d->source_ended && ends->source >= 0 && d->pipe_bytes < relay->pipe_capacity) {
			ssize_t n = splice(ends->source, NULL, d->pipe_write, NULL,
					   relay->pipe_capacity - d->pipe_bytes, flags);
			if (n > 0) {
				d->pipe_bytes += (size_t)n;
				if (d->pipe_bytes > d->pipe_peak_bytes)
					d->pipe_peak_bytes = d->pipe_bytes;
			} else if (n == 0) {
				d->source_ended = true;
			} else if (errno != EAGAIN) {
				return move_failed(relay, "read from", ends->from);
			}
			progress |= n >= 0;
		}
		if (ends->writable && d->pipe_bytes > 0) {
			ssize_t n = splice(d->pipe_read, NULL, ends->destination, NULL, d->pipe_bytes,
					   flags);
			if (n > 0) {
				d->pipe_bytes -= (size_t)n;
				d->relayed_bytes += (uint64_t)n;
				progress = true;
			} else if (n < 0 && errno != EAGAIN && errno != EINPROGRESS) {
				return move_failed(relay, "write to", ends->to);
			}
		}
		if (ends->writable && d->source_ended && d->pipe_bytes == 0 && !d->destination_shut &&
		    !handshaking(ends->destination)) {
			if (shutdown(ends->destination, SHUT_WR) != 0 && errno != ENOTCONN)
				return move_failed(relay, "pass the end of stream on to", ends->to);
			d->destination_shut = true;
		}
		if (!progress)
			return MOVE_WAITS;
	}
	return MOVE_MORE;
}

static bool ended(const pep_direction *d)
{
	return d->source_ended && d->pipe_bytes == 0 && d->destination_shut;
}

bool pep_relay_pump(pep_relay *relay, unsigned rounds)
{
	if (relay->state == PEP_FINISHED || relay->state == PEP_FAILED)
		return false;
	/* While connecting, only pep_relay_server_event reads the outcome. */
	bool relaying = relay->state == PEP_RELAYING;
	move_ends up = {relay->client_fd, relay->server_fd, relaying, "client", "server"};
	move_ends down = {relaying ? relay->server_fd : -1, relay->client_fd, true, "server",
			  "client"};
	move_result to_server = move(relay, &relay->to_server, &up, rounds);
	if (to_server == MOVE_FAILED)
		return false;
	move_result to_client = move(relay, &relay->to_client, &down, rounds);
	if (to_client == MOVE_FAILED)
		return false;
	if (ended(&relay->to_server) && ended(&relay->to_client))
		relay->state = PEP_FINISHED;
	return to_server == MOVE_MORE || to_client == MOVE_MORE;
}

void pep_relay_report_done(pep_relay *relay)
{
	relay->to_server.pipe_peak_bytes = relay->to_server.pipe_bytes;
	relay->to_client.pipe_peak_bytes = relay->to_client.pipe_bytes;
}

static void close_socket(int *fd, bool reset)
{
	if (*fd < 0)
		return;
	if (reset) {
		struct linger abort_on_close = {.l_onoff = 1, .l_linger = 0};
		setsockopt(*fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
	}
	close(*fd);
	*fd = -1;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void pep_relay_close(pep_relay *relay, bool reset)
{
	close_socket(&relay->client_fd, reset);
	close_socket(&relay->server_fd, reset);
	close_fd(&relay->to_server.pipe_read);
	close_fd(&relay->to_server.pipe_write);
	close_fd(&relay->to_client.pipe_read);
	close_fd(&relay->to_client.pipe_write);
}

void pep_format_address(const struct sockaddr_in *address, char *out)
{
	char ip[INET_ADDRSTRLEN];
	inet_ntop(AF_INET, &address->sin_addr, ip, sizeof ip);
	snprintf(out, 22, "%s:%u", ip, ntohs(address->sin_port));
}
