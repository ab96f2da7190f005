/*
 * tool.h - what satlink and swf-tunnel share: fatal errors that name the
 * action, argument parsing with errors that name the argument, real-time
 * threads, the monotonic clock, and a stop signal that wakes every thread.
 */
#ifndef TOOL_H
#define TOOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "swf.h"

/* The program name that prefixes every message ("satlink"). */
extern const char *tool_name;

/* fail prints "<tool>: <message>\n" to stderr and exits with status 1. */
_Noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* usage_fail is fail for a bad command line: exit status 2. */
_Noreturn void usage_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* fail_errno is fail with ": <strerror(errno)>" appended, for a failed
 * system call; the message names the action ("open /dev/net/tun"). */
_Noreturn void fail_errno(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* next_option reads the option at argv[*i] and returns it, with its value
 * in *value (*i then points at the value): --help or -h prints usage to
 * stdout and exits 0; an argument that does not start with "--" is
 * refused; an option named in flags (a NULL-terminated list, or NULL) takes
 * no value (*value NULL); any other needs one. */
const char *next_option(int argc, char **argv, int *i, const char *usage,
			const char *const *flags, const char **value);

/* Parsers for option values; each one exits through usage_fail with a
 * sentence naming the option and the value it got. */
double parse_double(const char *option, const char *text, double min, bool min_inclusive,
		    double max);
uint64_t parse_uint(const char *option, const char *text, uint64_t min, uint64_t max);

/* read_pairs loads a trace file of lines of two numbers ('#' starts a
 * comment, blank lines are skipped) and returns them in file order, their
 * number in *count (NULL if none; the caller frees the array). A line that
 * is not two numbers exits through usage_fail naming the option, the file,
 * the line and its form (e.g. "t_ms delay_ms"). */
typedef struct number_pair {
	double first, second;
} number_pair;
number_pair *read_pairs(const char *option, const char *path, const char *form, size_t *count);

/* parse_channel fills config from a channel specification such as
 * "bernoulli:loss=0.05,seed=7" (see --help) and validates it with libswf.
 * Trace intervals are allocated and owned by the caller's config. */
void parse_channel(const char *option, const char *spec, swf_channel_config *config);

/* channel_kind_name returns the model name of a kind ("ge-time"). */
const char *channel_kind_name(swf_channel_kind kind);

/* print_json_string writes text as a JSON string, quoted and escaped. */
void print_json_string(FILE *out, const char *text);

/* start_thread starts fn(arg) in *thread, and with realtime asks SCHED_FIFO
 * for it at REALTIME_PRIORITY: the emulated path's threads (satlink's
 * forwarding, swf-tunnel's endpoints) must wake on time whatever else the
 * host runs, as dedicated equipment would. Exits through fail, naming what,
 * if the thread cannot start; returns whether it got SCHED_FIFO (a process
 * without CAP_SYS_NICE or RLIMIT_RTPRIO runs it as a normal thread). */
bool start_thread(pthread_t *thread, void *(*fn)(void *), void *arg, bool realtime,
		  const char *what);

/* now_ns reads CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

/* The stop signal. stop_init blocks SIGINT, SIGTERM and SIGHUP in the
 * calling thread (call it before creating threads, which inherit the mask)
 * and creates the eventfd that stop_request makes readable. Worker threads
 * poll stop_fd next to their own descriptors and test stop_requested in
 * busy loops. wait_signal_until returns true once SIGINT, SIGTERM or SIGHUP
 * arrived, false at the monotonic time deadline_ns (0: no deadline). */
extern int stop_fd;
void stop_init(void);
void stop_request(void);
bool stop_requested(void);
bool wait_signal_until(uint64_t deadline_ns);

#endif /* TOOL_H */
