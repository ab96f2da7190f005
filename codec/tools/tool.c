/* tool.c - errors, argument parsing, threads, clock and stop signal of the tools. */
#define _GNU_SOURCE
#include "tool.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

const char *tool_name = "tool";
int stop_fd = -1;
static atomic_bool stopping;
static sigset_t stop_signals;

static _Noreturn void vfail(int status, int errnum, const char *fmt, va_list args)
{
	fprintf(stderr, "%s: ", tool_name);
	vfprintf(stderr, fmt, args);
	if (errnum != 0)
		fprintf(stderr, ": %s", strerror(errnum));
	fputc('\n', stderr);
	exit(status);
}

void fail(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vfail(1, 0, fmt, args);
}

void usage_fail(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vfail(2, 0, fmt, args);
}

void fail_errno(const char *fmt, ...)
{
	int errnum = errno;
	va_list args;
	va_start(args, fmt);
	vfail(1, errnum, fmt, args);
}

const char *next_option(int argc, char **argv, int *i, const char *usage,
			const char *const *flags, const char **value)
{
	const char *option = argv[*i];
	if (strcmp(option, "--help") == 0 || strcmp(option, "-h") == 0) {
		fputs(usage, stdout);
		exit(0);
	}
	if (strncmp(option, "--", 2) != 0)
		usage_fail("unexpected argument \"%s\" (see --help)", option);
	for (const char *const *flag = flags; flag != NULL && *flag != NULL; flag++) {
		if (strcmp(option, *flag) == 0) {
			*value = NULL;
			return option;
		}
	}
	if (*i + 1 == argc)
		usage_fail("%s needs a value", option);
	*value = argv[++*i];
	return option;
}

double parse_double(const char *option, const char *text, double min, bool min_inclusive,
		    double max)
{
	char *end;
	errno = 0;
	double value = strtod(text, &end);
	if (end == text || *end != '\0' || errno != 0 || !isfinite(value))
		usage_fail("%s must be a number, got \"%s\"", option, text);
	if (min_inclusive ? value < min : value <= min)
		usage_fail("%s must be %s %g, got %s", option, min_inclusive ? ">=" : ">", min,
			   text);
	if (value > max)
		usage_fail("%s must be <= %g, got %s", option, max, text);
	return value;
}

uint64_t parse_uint(const char *option, const char *text, uint64_t min, uint64_t max)
{
	char *end;
	errno = 0;
	unsigned long long value = strtoull(text, &end, 10);
	if (end == text || *end != '\0' || errno != 0 || text[0] == '-')
		usage_fail("%s must be a whole number, got \"%s\"", option, text);
	if (value < min || value > max)
		usage_fail("%s must be in [%llu, %llu], got %s", option, (unsigned long long)min,
			   (unsigned long long)max, text);
	return value;
}

/* Each model's name and keys: those it needs, then those it may take
 * besides seed (space-separated), and an example. */
static const struct channel_model {
	const char *name, *required, *optional, *example;
} channel_models[] = {
	[SWF_CHANNEL_PERFECT] = {"perfect", "", "", "perfect"},
	[SWF_CHANNEL_BERNOULLI] = {"bernoulli", "loss", "", "bernoulli:loss=0.01"},
	[SWF_CHANNEL_GE_PACKET] = {"ge-packet", "p q", "loss_good loss_bad",
				   "ge-packet:p=0.01,q=0.3"},
	[SWF_CHANNEL_GE_TIME] = {"ge-time", "p q step_ms", "", "ge-time:p=0.01,q=0.167,step_ms=10"},
	[SWF_CHANNEL_OUTAGE] = {"outage", "period_ms duration_ms", "phase_ms jitter_ms",
				"outage:period_ms=258,duration_ms=15.5"},
	[SWF_CHANNEL_TRACE] = {"trace", "file", "trace_period_ms", "trace:file=PATH"},
};
#define CHANNEL_MODELS (sizeof channel_models / sizeof channel_models[0])

/* What swf_channel_config_check allows of each field it can name. */
static const struct {
	const char *field, *allowed;
} channel_ranges[] = {
	{"loss", "a probability in [0, 1]"},
	{"p", "a probability in [0, 1]"},
	{"q", "a probability in [0, 1]"},
	{"loss_good", "a probability in [0, 1]"},
	{"loss_bad", "a probability in [0, 1]"},
	{"step_ms", "a time in [0.001, 1e12] ms"},
	{"period_ms", "a time in [0.001, 1e12] ms"},
	{"duration_ms", "a time in [0, period_ms] ms"},
	{"phase_ms", "a time in [0, 1e12] ms"},
	{"jitter_ms", "a time in [0, period_ms - duration_ms] ms"},
	{"trace_period_ms", "0 (no repeat) or a time in [0.001, 1e12] ms that the trace's last "
			    "interval ends within"},
	{"intervals", "intervals in [0, 1e12] ms, each with start < end, after the one before"},
};

const char *channel_kind_name(swf_channel_kind kind)
{
	return channel_models[kind].name;
}

/* has_word says whether the space-separated list holds word. */
static bool has_word(const char *list, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = list; (p = strstr(p, word)) != NULL; p += len)
		if ((p == list || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
			return true;
	return false;
}

number_pair *read_pairs(const char *option, const char *path, const char *form, size_t *count)
{
	FILE *file = fopen(path, "r");
	if (file == NULL)
		fail_errno("%s: open trace file %s", option, path);
	number_pair *pairs = NULL;
	size_t capacity = 0;
	*count = 0;
	char line[256];
	for (unsigned number = 1; fgets(line, sizeof line, file) != NULL; number++) {
		char *hash = strchr(line, '#');
		if (hash != NULL)
			*hash = '\0';
		double first, second;
		char extra;
		int fields = sscanf(line, "%lf %lf %c", &first, &second, &extra);
		if (fields == EOF)
			continue;
		if (fields != 2)
			usage_fail("%s: %s line %u must be \"%s\"", option, path, number, form);
		if (*count == capacity) {
			capacity = capacity ? 2 * capacity : 64;
			pairs = realloc(pairs, capacity * sizeof *pairs);
			if (pairs == NULL)
				fail("out of memory reading %s", path);
		}
		pairs[(*count)++] = (number_pair){first, second};
	}
	fclose(file);
	return pairs;
}

/* read_trace loads a loss trace: "start_ms end_ms" lines. */
static void read_trace(const char *option, const char *path, swf_channel_config *config)
{
	size_t count;
	number_pair *pairs = read_pairs(option, path, "start_ms end_ms", &count);
	swf_loss_interval *intervals = count ? malloc(count * sizeof *intervals) : NULL;
	if (count && intervals == NULL)
		fail("out of memory reading %s", path);
	for (size_t i = 0; i < count; i++)
		intervals[i] = (swf_loss_interval){pairs[i].first, pairs[i].second};
	free(pairs);
	config->intervals = intervals;
	config->interval_count = count;
}

void parse_channel(const char *option, const char *spec, swf_channel_config *config)
{
	*config = (swf_channel_config){.seed = 1, .loss_bad = 1.0};
	size_t name_len = strcspn(spec, ":");
	const struct channel_model *model = NULL;
	for (size_t kind = 0; kind < CHANNEL_MODELS; kind++) {
		if (strlen(channel_models[kind].name) == name_len &&
		    strncmp(spec, channel_models[kind].name, name_len) == 0) {
			config->kind = (swf_channel_kind)kind;
			model = &channel_models[kind];
		}
	}
	if (model == NULL)
		usage_fail("%s must start with perfect, bernoulli, ge-packet, ge-time, outage or "
			   "trace, got \"%s\"", option, spec);

	char *params = strdup(spec[name_len] == ':' ? spec + name_len + 1 : "");
	char given[256] = ""; /* the keys seen, space-separated */
	char *saveptr = NULL;
	for (char *item = strtok_r(params, ",", &saveptr); item != NULL;
	     item = strtok_r(NULL, ",", &saveptr)) {
		char *equals = strchr(item, '=');
		if (equals == NULL)
			usage_fail("%s: \"%s\" in \"%s\" must be key=value", option, item, spec);
		*equals = '\0';
		const char *key = item, *value = equals + 1;
		if (strcmp(key, "seed") != 0 && !has_word(model->required, key) &&
		    !has_word(model->optional, key))
			usage_fail("%s: the %s model takes no key \"%s\" (it takes %s%s%s seed; see "
				   "--help)", option, model->name, key, model->required,
				   model->optional[0] ? " " : "", model->optional);
		if (has_word(given, key))
			usage_fail("%s: %s is given twice in \"%s\"", option, key, spec);
		snprintf(given + strlen(given), sizeof given - strlen(given), " %s", key);
		char name[128];
		snprintf(name, sizeof name, "%s %s", option, key);
		struct {
			const char *key;
			double *field;
		} const doubles[] = {
			{"loss", &config->loss},
			{"p", &config->p},
			{"q", &config->q},
			{"loss_good", &config->loss_good},
			{"loss_bad", &config->loss_bad},
			{"step_ms", &config->step_ms},
			{"period_ms", &config->period_ms},
			{"duration_ms", &config->duration_ms},
			{"phase_ms", &config->phase_ms},
			{"jitter_ms", &config->jitter_ms},
			{"trace_period_ms", &config->trace_period_ms},
		};
		for (size_t i = 0; i < sizeof doubles / sizeof doubles[0]; i++)
			if (strcmp(key, doubles[i].key) == 0)
				*doubles[i].field = parse_double(name, value, -INFINITY, true,
								 INFINITY);
		if (strcmp(key, "seed") == 0)
			config->seed = (uint32_t)parse_uint(name, value, 0, UINT32_MAX);
		else if (strcmp(key, "file") == 0)
			read_trace(option, value, config);
	}
	free(params);
	char missing[128] = "";
	char required[128];
	snprintf(required, sizeof required, "%s", model->required);
	for (char *key = strtok_r(required, " ", &saveptr); key != NULL;
	     key = strtok_r(NULL, " ", &saveptr))
		if (!has_word(given, key))
			snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%s",
				 missing[0] ? " and " : "", key);
	if (missing[0])
		usage_fail("%s: the %s model needs %s, missing from \"%s\" (e.g. %s)", option,
			   model->name, missing, spec, model->example);
	const char *bad_field = swf_channel_config_check(config);
	if (bad_field == NULL)
		return;
	const char *allowed = "as --help describes";
	for (size_t i = 0; i < sizeof channel_ranges / sizeof channel_ranges[0]; i++)
		if (strcmp(bad_field, channel_ranges[i].field) == 0)
			allowed = channel_ranges[i].allowed;
	usage_fail("%s: %s is out of range for the %s model in \"%s\": it must be %s", option,
		   bad_field, model->name, spec, allowed);
}

void print_json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* Low among real-time priorities: above every normal thread, below the
 * kernel's own real-time threads. */
#define REALTIME_PRIORITY 10

bool start_thread(pthread_t *thread, void *(*fn)(void *), void *arg, bool realtime,
		  const char *what)
{
	int error = pthread_create(thread, NULL, fn, arg);
	if (error != 0) {
		errno = error;
		fail_errno("start the %s thread", what);
	}
	struct sched_param param = {.sched_priority = REALTIME_PRIORITY};
	return realtime && pthread_setschedparam(*thread, SCHED_FIFO, &param) == 0;
}

uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void stop_init(void)
{
	sigemptyset(&stop_signals);
	sigaddset(&stop_signals, SIGINT);
	sigaddset(&stop_signals, SIGTERM);
	sigaddset(&stop_signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
	/* A reader that went away must not kill the forwarding. */
	signal(SIGPIPE, SIG_IGN);
	stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (stop_fd < 0)
		fail_errno("create the stop eventfd");
}

void stop_request(void)
{
	atomic_store(&stopping, true);
	uint64_t one = 1;
	if (write(stop_fd, &one, sizeof one) < 0)
		fail_errno("signal the stop eventfd");
}

bool stop_requested(void)
{
	return atomic_load_explicit(&stopping, memory_order_relaxed);
}

bool wait_signal_until(uint64_t deadline_ns)
{
	for (;;) {
		int signal_number;
		if (deadline_ns == 0) {
			signal_number = sigwaitinfo(&stop_signals, NULL);
		} else {
			uint64_t now = now_ns();
			if (now >= deadline_ns)
				return false;
			uint64_t left = deadline_ns - now;
			struct timespec timeout = {(time_t)(left / 1000000000u),
						   (long)(left % 1000000000u)};
			signal_number = sigtimedwait(&stop_signals, NULL, &timeout);
		}
		if (signal_number > 0)
			return true;
		if (errno != EAGAIN && errno != EINTR)
			fail_errno("wait for a signal");
	}
}
