/*
 * satlab-pep - a transparent split-TCP performance-enhancing proxy (RFC 3135).
 *
 * It runs in one network namespace, the satellite terminal's or the
 * gateway's, where the caller's iptables TPROXY rules deliver the TCP
 * connections forwarded through the namespace to its listening socket
 * (IP_TRANSPARENT), without rewriting them. For each one it accepts, it opens
 * its own connection to the original destination, bound to the client's
 * address and port, so that the server (or a PEP further on, which
 * intercepts it in turn) sees the client; and it relays both directions
 * (pep_relay.h). The client's handshake thus ends at the PEP, and each
 * segment recovers its own losses with its own settings (pep_socket.h).
 *
 * One thread, edge-triggered epoll; signals, the stats timer and the
 * listening socket are descriptors in the same epoll set.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "pep_relay.h"
#include "pep_socket.h"
#include "tool.h"

/* Splice pairs one connection may do per direction before the others get
 * their turn. */
#define PUMP_ROUNDS 16
#define EVENT_BATCH 64
/* Descriptors a connection holds: two sockets, two pipes. */
#define FDS_PER_CONNECTION 6u
#define FDS_SPARE 32u

typedef enum role { ROLE_TERMINAL, ROLE_GATEWAY } role;

static struct {
	role role;
	bool have_role;
	struct sockaddr_in listen;
	bool have_listen;
	pep_segment sat, ground;
	uint32_t fastopen_wait_ms;
	uint32_t pipe_bytes;
	uint32_t max_connections;
	uint32_t stats_interval_ms;
} opt = {
	.sat = {.name = "sat"},
	.ground = {.name = "ground"},
	.fastopen_wait_ms = 20,
	.pipe_bytes = 1u << 20,
	.max_connections = 1024,
	.stats_interval_ms = 100,
};

typedef enum handle_kind {
	HANDLE_LISTENER,
	HANDLE_SIGNAL,
	HANDLE_TIMER,
	HANDLE_CLIENT,
	HANDLE_SERVER,
} handle_kind;

typedef struct connection connection;

/* What an epoll event points at. */
typedef struct handle {
	handle_kind kind;
	connection *conn;
} handle;

struct connection {
	pep_relay relay;
	handle client_handle, server_handle;
	connection *prev, *next; /* the open list */
	connection *next_ready;  /* the list to pump again */
	bool ready_listed, closed;
	bool waiting; /* counted in waiting_count */
	uint64_t connect_deadline_ns; /* while PEP_WAITING */
};

static struct {
	uint64_t accepted, refused, finished, failed;
	uint64_t closed_bytes_to_server, closed_bytes_to_client;
} totals;

static int epoll_fd, listen_fd;
static uint64_t start_ns, next_id;
static connection *open_list, *ready_list, *graveyard;
static uint32_t open_count, waiting_count;
static size_t pipe_capacity; /* what F_SETPIPE_SZ gives for opt.pipe_bytes */

static const char usage[] =
	"Usage: satlab-pep --role terminal|gateway --listen IP:PORT [options]\n"
	"\n"
	"A transparent split-TCP performance-enhancing proxy (RFC 3135). The caller's\n"
	"iptables TPROXY rules deliver the TCP connections to intercept to IP:PORT\n"
	"(see codec/README.md); for each, the PEP opens its own connection to the\n"
	"original destination from the client's address and port, and relays both ways.\n"
	"\n"
	"  --role terminal|gateway  where it runs: at the terminal the connections it\n"
	"                           opens cross the satellite (sat), the ones it accepts\n"
	"                           come from the ground; at the gateway the other way\n"
	"  --listen IP:PORT         the TPROXY target (--on-ip IP --on-port PORT)\n"
	"  --sat-congestion NAME    TCP congestion control of the satellite side\n"
	"  --ground-congestion NAME ... of the ground side (default: the namespace's)\n"
	"  --sat-sndbuf-bytes N, --sat-rcvbuf-bytes N, --ground-sndbuf-bytes N,\n"
	"  --ground-rcvbuf-bytes N  socket buffers (SO_SNDBUF, SO_RCVBUF; the kernel\n"
	"                           doubles N); default: the kernel's autotuning\n"
	"  --sat-fastopen MODE, --ground-fastopen MODE  TCP Fast Open on that side: off\n"
	"                           (default), cookie (RFC 7413), no-cookie (data in every\n"
	"                           SYN; both PEPs then use it); needs net.ipv4.tcp_fastopen\n"
	"                           bit 0x1 to connect, 0x2 to accept\n"
	"  --fastopen-wait-ms MS    with Fast Open on the side it opens, how long to wait\n"
	"                           for the client's first bytes to put in the SYN before\n"
	"                           connecting without them (default 20)\n"
	"  --pipe-bytes N           buffer of each direction of a connection (default\n"
	"                           1048576; the kernel rounds up to a power of two pages)\n"
	"  --max-connections N      connections relayed at once; more are reset (default 1024)\n"
	"  --stats-interval-ms MS   period of the stats lines (default 100; 0: none)\n"
	"  --help                   this text\n"
	"\n"
	"The initial congestion window is a route attribute: the caller sets it\n"
	"(ip route change ... initcwnd N initrwnd N).\n"
	"\n"
	"stdout carries JSON lines: {\"event\":\"ready\",...}; every interval a\n"
	"{\"event\":\"connection\",...} per open connection and a {\"event\":\"stats\",...};\n"
	"{\"event\":\"closed\",...} when a connection ends; {\"event\":\"summary\",...} on\n"
	"SIGTERM, SIGINT or SIGHUP, which reset the connections still open.\n";

/* ---------------------------------------------------------------------- */
/* Reports                                                                */

static const char *role_name(role r)
{
	return r == ROLE_TERMINAL ? "terminal" : "gateway";
}

static const char *const state_names[] = {
	[PEP_WAITING] = "waiting", [PEP_CONNECTING] = "connecting", [PEP_RELAYING] = "relaying",
	[PEP_FINISHED] = "finished", [PEP_FAILED] = "failed",
};

static void print_direction(const char *name, const pep_direction *d)
{
	printf("\"%s\":{\"bytes\":%" PRIu64 ",\"pipe_bytes\":%zu,\"pipe_peak_bytes\":%zu}", name,
	       d->relayed_bytes, d->pipe_bytes, d->pipe_peak_bytes);
}

static void print_socket(const char *name, int fd)
{
	printf(",\"%s\":", name);
	if (fd >= 0)
		pep_tcp_print(stdout, fd);
	else
		printf("null");
}

/* print_connection writes a connection's line: its state, bytes and pipe
 * occupancy each way, and what each of its sockets reports. */
static void print_connection(const char *event, const connection *conn, const char *state)
{
	const pep_relay *r = &conn->relay;
	char client[24], server[24];
	pep_format_address(&r->client, client);
	pep_format_address(&r->server, server);
	uint64_t now = now_ns();
	printf("{\"event\":\"%s\",\"t_s\":%.3f,\"id\":%" PRIu64 ",\"state\":\"%s\",\"client\":\"%s\","
	       "\"server\":\"%s\",\"age_s\":%.3f,",
	       event, (now - start_ns) / 1e9, r->id, state, client, server,
	       (now - r->accepted_ns) / 1e9);
	print_direction("to_server", &r->to_server);
	putchar(',');
	print_direction("to_client", &r->to_client);
	bool sat_is_server = opt.role == ROLE_TERMINAL;
	print_socket("sat", sat_is_server ? r->server_fd : r->client_fd);
	print_socket("ground", sat_is_server ? r->client_fd : r->server_fd);
	printf(",\"error\":");
	if (r->state == PEP_FAILED)
		printf("\"%s\"}\n", r->error);
	else
		printf("null}\n");
}

static void print_stats(const char *event)
{
	uint64_t to_server = totals.closed_bytes_to_server, to_client = totals.closed_bytes_to_client;
	for (const connection *c = open_list; c != NULL; c = c->next) {
		to_server += c->relay.to_server.relayed_bytes;
		to_client += c->relay.to_client.relayed_bytes;
	}
	printf("{\"event\":\"%s\",\"t_s\":%.3f,\"accepted\":%" PRIu64 ",\"open\":%" PRIu32
	       ",\"finished\":%" PRIu64 ",\"failed\":%" PRIu64 ",\"refused\":%" PRIu64
	       ",\"bytes_to_server\":%" PRIu64 ",\"bytes_to_client\":%" PRIu64 "}\n",
	       event, (now_ns() - start_ns) / 1e9, totals.accepted, open_count, totals.finished,
	       totals.failed, totals.refused, to_server, to_client);
}

static void report_interval(void)
{
	for (connection *c = open_list; c != NULL; c = c->next) {
		print_connection("connection", c, state_names[c->relay.state]);
		pep_relay_report_done(&c->relay);
	}
	print_stats("stats");
	fflush(stdout);
}

/* ---------------------------------------------------------------------- */
/* Connections                                                            */

/* The side the PEP opens: toward the server. */
static const pep_segment *connecting_segment(void)
{
	return opt.role == ROLE_TERMINAL ? &opt.sat : &opt.ground;
}

static const pep_segment *accepting_segment(void)
{
	return opt.role == ROLE_TERMINAL ? &opt.ground : &opt.sat;
}

static void watch(int fd, handle *h, uint32_t events)
{
	struct epoll_event event = {.events = events, .data.ptr = h};
	if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0)
		fail_errno("add a descriptor to epoll");
}

static const uint32_t SOCKET_EVENTS = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;

static void stop_waiting(connection *conn)
{
	if (conn->waiting)
		waiting_count--;
	conn->waiting = false;
}

/* finish reports a connection's end, closes it (resetting both sides if
 * it failed or the PEP stops) and leaves it to be freed after the current
 * batch of events, which may still name it. */
static void finish(connection *conn, const char *state, bool reset)
{
	pep_relay *r = &conn->relay;
	print_connection("closed", conn, state);
	fflush(stdout);
	totals.closed_bytes_to_server += r->to_server.relayed_bytes;
	totals.closed_bytes_to_client += r->to_client.relayed_bytes;
	if (r->state == PEP_FAILED)
		totals.failed++;
	else if (r->state == PEP_FINISHED)
		totals.finished++;
	stop_waiting(conn);
	pep_relay_close(r, reset);
	conn->closed = true;
	if (conn->prev != NULL)
		conn->prev->next = conn->next;
	else
		open_list = conn->next;
	if (conn->next != NULL)
		conn->next->prev = conn->prev;
	open_count--;
	conn->next = graveyard;
	graveyard = conn;
}

static void start_connect(connection *conn)
{
	pep_relay *r = &conn->relay;
	stop_waiting(conn);
	bool fastopen = connecting_segment()->fastopen != PEP_FASTOPEN_OFF &&
			r->to_server.pipe_bytes > 0;
	pep_relay_connect(r, connecting_segment(), fastopen);
	if (r->server_fd >= 0 && r->state != PEP_FAILED)
		watch(r->server_fd, &conn->server_handle, SOCKET_EVENTS);
}

/* pump moves what can move and settles the connection's fate: connect
 * once the client's first bytes (or its end, or the wait's end) are there,
 * close when finished or failed, pump again later when it stopped at its
 * bound. */
static void pump(connection *conn)
{
	pep_relay *r = &conn->relay;
	bool more = pep_relay_pump(r, PUMP_ROUNDS);
	if (r->state == PEP_WAITING &&
	    (r->to_server.pipe_bytes > 0 || r->to_server.source_ended ||
	     now_ns() >= conn->connect_deadline_ns)) {
		start_connect(conn);
		more = pep_relay_pump(r, PUMP_ROUNDS);
	}
	if (r->state == PEP_FAILED)
		finish(conn, "failed", true);
	else if (r->state == PEP_FINISHED)
		finish(conn, "finished", false);
	else if (more && !conn->ready_listed) {
		conn->ready_listed = true;
		conn->next_ready = ready_list;
		ready_list = conn;
	}
}

/* refuse resets a connection the PEP cannot take. */
static void refuse(int fd)
{
	struct linger abort_on_close = {.l_onoff = 1, .l_linger = 0};
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
	close(fd);
	totals.refused++;
}

static void accept_connections(void)
{
	for (;;) {
		int fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			if (errno == ECONNABORTED || errno == EPERM || errno == EPROTO)
				continue; /* that client gave up already */
			fail_errno("accept a connection");
		}
		totals.accepted++;
		if (open_count >= opt.max_connections) {
			refuse(fd);
			continue;
		}
		connection *conn = calloc(1, sizeof *conn);
		if (conn == NULL) {
			refuse(fd);
			continue;
		}
		conn->client_handle = (handle){HANDLE_CLIENT, conn};
		conn->server_handle = (handle){HANDLE_SERVER, conn};
		conn->next = open_list;
		if (open_list != NULL)
			open_list->prev = conn;
		open_list = conn;
		open_count++;
		uint64_t now = now_ns();
		if (!pep_relay_init(&conn->relay, ++next_id, fd, opt.pipe_bytes, now)) {
			finish(conn, "failed", true);
			continue;
		}
		conn->waiting = true;
		waiting_count++;
		watch(fd, &conn->client_handle, SOCKET_EVENTS);
		/* Without Fast Open there is nothing to wait for. */
		uint64_t wait_ns = connecting_segment()->fastopen != PEP_FASTOPEN_OFF
					   ? (uint64_t)opt.fastopen_wait_ms * 1000000u
					   : 0;
		conn->connect_deadline_ns = now + wait_ns;
		pump(conn);
	}
}

/* connect_due connects the waiting connections whose wait is over, and
 * returns the epoll timeout (ms) until the next one's (-1: none). */
static int connect_due(void)
{
	if (waiting_count == 0)
		return -1;
	uint64_t now = now_ns(), next = UINT64_MAX;
	for (connection *c = open_list, *following; c != NULL; c = following) {
		following = c->next;
		if (c->relay.state != PEP_WAITING)
			continue;
		if (now >= c->connect_deadline_ns)
			pump(c);
		else if (c->connect_deadline_ns < next)
			next = c->connect_deadline_ns;
	}
	return next == UINT64_MAX ? -1 : (int)((next - now + 999999u) / 1000000u);
}

static void pump_ready(void)
{
	connection *list = ready_list;
	ready_list = NULL;
	while (list != NULL) {
		connection *conn = list;
		list = conn->next_ready;
		conn->ready_listed = false;
		if (!conn->closed)
			pump(conn);
	}
}

static void bury(void)
{
	while (graveyard != NULL) {
		connection *conn = graveyard;
		graveyard = conn->next;
		free(conn);
	}
}

/* ---------------------------------------------------------------------- */
/* Set-up and the command line                                            */

static void parse_listen(const char *option, const char *text)
{
	char address[INET_ADDRSTRLEN], port[8], extra;
	if (sscanf(text, "%15[0-9.]:%7[0-9]%c", address, port, &extra) != 2 ||
	    inet_pton(AF_INET, address, &opt.listen.sin_addr) != 1)
		usage_fail("%s must be IPv4:PORT like 127.0.0.1:7000, got \"%s\"", option, text);
	opt.listen.sin_family = AF_INET;
	opt.listen.sin_port = htons((uint16_t)parse_uint(option, port, 1, 65535));
	opt.have_listen = true;
}

/* segment_option handles --sat-X and --ground-X; false if option is neither. */
static bool segment_option(const char *option, const char *value)
{
	pep_segment *segment;
	const char *key;
	if (strncmp(option, "--sat-", 6) == 0) {
		segment = &opt.sat;
		key = option + 6;
	} else if (strncmp(option, "--ground-", 9) == 0) {
		segment = &opt.ground;
		key = option + 9;
	} else {
		return false;
	}
	if (strcmp(key, "congestion") == 0) {
		if (value[0] == '\0' || strlen(value) >= 16)
			usage_fail("%s must name a congestion control (1 to 15 characters), got \"%s\"",
				   option, value);
		segment->congestion = value;
	} else if (strcmp(key, "sndbuf-bytes") == 0) {
		segment->sndbuf_bytes = (int)parse_uint(option, value, 4096, 1u << 30);
	} else if (strcmp(key, "rcvbuf-bytes") == 0) {
		segment->rcvbuf_bytes = (int)parse_uint(option, value, 4096, 1u << 30);
	} else if (strcmp(key, "fastopen") == 0) {
		segment->fastopen = pep_fastopen_parse(option, value);
	} else {
		return false;
	}
	return true;
}

static void parse_arguments(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *value;
		const char *option = next_option(argc, argv, &i, usage, NULL, &value);
		if (strcmp(option, "--role") == 0) {
			if (strcmp(value, "terminal") == 0)
				opt.role = ROLE_TERMINAL;
			else if (strcmp(value, "gateway") == 0)
				opt.role = ROLE_GATEWAY;
			else
				usage_fail("--role must be terminal or gateway, got \"%s\"", value);
			opt.have_role = true;
		} else if (strcmp(option, "--listen") == 0) {
			parse_listen(option, value);
		} else if (segment_option(option, value)) {
			continue;
		} else if (strcmp(option, "--fastopen-wait-ms") == 0) {
			opt.fastopen_wait_ms = (uint32_t)parse_uint(option, value, 0, 10000);
		} else if (strcmp(option, "--pipe-bytes") == 0) {
			opt.pipe_bytes = (uint32_t)parse_uint(option, value, 4096, 1u << 28);
		} else if (strcmp(option, "--max-connections") == 0) {
			opt.max_connections = (uint32_t)parse_uint(option, value, 1, 100000);
		} else if (strcmp(option, "--stats-interval-ms") == 0) {
			opt.stats_interval_ms = (uint32_t)parse_uint(option, value, 0, 3600000);
		} else {
			usage_fail("unknown option %s (see --help)", option);
		}
	}
	if (!opt.have_role || !opt.have_listen)
		usage_fail("--role and --listen are required (see --help)");
	pep_segment_check(&opt.sat, opt.role == ROLE_GATEWAY);
	pep_segment_check(&opt.ground, opt.role == ROLE_TERMINAL);
}

/* reserve_descriptors raises the open-file limit to what max_connections
 * needs, or refuses the option. */
static void reserve_descriptors(void)
{
	struct rlimit limit;
	if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
		fail_errno("read the open-file limit");
	rlim_t needed = (rlim_t)opt.max_connections * FDS_PER_CONNECTION + FDS_SPARE;
	if (limit.rlim_max != RLIM_INFINITY && limit.rlim_max < needed)
		usage_fail("--max-connections %" PRIu32 " needs %llu descriptors, above this "
			   "process's limit of %llu: give at most %llu", opt.max_connections,
			   (unsigned long long)needed, (unsigned long long)limit.rlim_max,
			   (unsigned long long)((limit.rlim_max - FDS_SPARE) / FDS_PER_CONNECTION));
	if (limit.rlim_cur < needed) {
		limit.rlim_cur = needed;
		if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
			fail_errno("raise the open-file limit to %llu", (unsigned long long)needed);
	}
}

/* probe_pipe_capacity finds what the kernel makes of --pipe-bytes, before
 * any connection depends on it. */
static void probe_pipe_capacity(void)
{
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) != 0)
		fail_errno("create a pipe");
	int size = fcntl(fds[1], F_SETPIPE_SZ, (int)opt.pipe_bytes);
	if (size < 0 && errno == EPERM) {
		unsigned long max_bytes = 0;
		FILE *file = fopen("/proc/sys/fs/pipe-max-size", "r");
		if (file == NULL || fscanf(file, "%lu", &max_bytes) != 1)
			fail_errno("set a pipe's size to --pipe-bytes %" PRIu32, opt.pipe_bytes);
		fclose(file);
		usage_fail("--pipe-bytes %" PRIu32 " is above fs.pipe-max-size (%lu), which this "
			   "process may not exceed (no CAP_SYS_RESOURCE): give at most %lu",
			   opt.pipe_bytes, max_bytes, max_bytes);
	}
	if (size < 0)
		fail_errno("set a pipe's size to --pipe-bytes %" PRIu32 " (F_SETPIPE_SZ)",
			   opt.pipe_bytes);
	pipe_capacity = (size_t)size;
	close(fds[0]);
	close(fds[1]);
}

static void open_listener(void)
{
	char address[24];
	pep_format_address(&opt.listen, address);
	listen_fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (listen_fd < 0)
		fail_errno("open the listening socket");
	int one = 1;
	if (setsockopt(listen_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0)
		fail_errno("set SO_REUSEADDR on the listening socket");
	/* Accept connections addressed to anyone, as TPROXY delivers them. */
	if (setsockopt(listen_fd, SOL_IP, IP_TRANSPARENT, &one, sizeof one) != 0)
		fail_errno("set IP_TRANSPARENT on the listening socket (needs CAP_NET_ADMIN)");
	pep_segment_apply_listener(listen_fd, accepting_segment());
	if (bind(listen_fd, (struct sockaddr *)&opt.listen, sizeof opt.listen) != 0)
		fail_errno("bind the listening socket to %s", address);
	if (listen(listen_fd, SOMAXCONN) != 0)
		fail_errno("listen on %s", address);
}

static int open_signals(void)
{
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &signals, NULL) != 0)
		fail_errno("block the stop signals");
	/* A peer that went away must not kill the relay: EPIPE says it. */
	signal(SIGPIPE, SIG_IGN);
	int fd = signalfd(-1, &signals, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		fail_errno("create the signalfd");
	return fd;
}

static int open_timer(void)
{
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd < 0)
		fail_errno("create the stats timer");
	struct timespec period = {(time_t)(opt.stats_interval_ms / 1000),
				  (long)(opt.stats_interval_ms % 1000) * 1000000};
	struct itimerspec spec = {.it_interval = period, .it_value = period};
	if (timerfd_settime(fd, 0, &spec, NULL) != 0)
		fail_errno("start the stats timer");
	return fd;
}

static void print_ready(void)
{
	char address[24];
	pep_format_address(&opt.listen, address);
	printf("{\"event\":\"ready\",\"pid\":%d,\"role\":\"%s\",\"listen\":\"%s\",\"pipe_bytes\":%zu,"
	       "\"max_connections\":%" PRIu32 ",\"fastopen_wait_ms\":%" PRIu32 ",\"sat\":",
	       (int)getpid(), role_name(opt.role), address, pipe_capacity, opt.max_connections,
	       opt.fastopen_wait_ms);
	pep_segment_print(stdout, &opt.sat);
	printf(",\"ground\":");
	pep_segment_print(stdout, &opt.ground);
	printf("}\n");
	fflush(stdout);
}

/* run handles events until a stop signal. */
static void run(int signal_fd, int timer_fd)
{
	handle listener = {HANDLE_LISTENER, NULL}, signals = {HANDLE_SIGNAL, NULL},
	       timer = {HANDLE_TIMER, NULL};
	/* Level-triggered: accept_connections takes them all anyway. */
	watch(listen_fd, &listener, EPOLLIN);
	watch(signal_fd, &signals, EPOLLIN);
	if (timer_fd >= 0)
		watch(timer_fd, &timer, EPOLLIN);
	struct epoll_event events[EVENT_BATCH];
	for (;;) {
		int timeout_ms = ready_list != NULL ? 0 : connect_due();
		int count = epoll_wait(epoll_fd, events, EVENT_BATCH, timeout_ms);
		if (count < 0) {
			if (errno == EINTR)
				continue;
			fail_errno("wait for events");
		}
		for (int i = 0; i < count; i++) {
			handle *h = events[i].data.ptr;
			switch (h->kind) {
			case HANDLE_LISTENER:
				accept_connections();
				break;
			case HANDLE_SIGNAL:
				return;
			case HANDLE_TIMER: {
				uint64_t expirations;
				if (read(timer_fd, &expirations, sizeof expirations) > 0)
					report_interval();
				break;
			}
			case HANDLE_SERVER:
				if (!h->conn->closed)
					pep_relay_server_event(&h->conn->relay,
							       (events[i].events & EPOLLOUT) != 0);
				/* fall through */
			case HANDLE_CLIENT:
				if (!h->conn->closed)
					pump(h->conn);
				break;
			}
		}
		pump_ready();
		bury();
	}
}

int main(int argc, char **argv)
{
	tool_name = "satlab-pep";
	parse_arguments(argc, argv);
	reserve_descriptors();
	probe_pipe_capacity();
	int signal_fd = open_signals();
	epoll_fd = epoll_create1(EPOLL_CLOEXEC);
	if (epoll_fd < 0)
		fail_errno("create the epoll set");
	open_listener();
	int timer_fd = opt.stats_interval_ms > 0 ? open_timer() : -1;
	start_ns = now_ns();
	print_ready();
	run(signal_fd, timer_fd);

	close(listen_fd);
	while (open_list != NULL)
		finish(open_list, "stopped", true);
	bury();
	print_stats("summary");
	fflush(stdout);
	return 0;
}
