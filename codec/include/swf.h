/*
 * swf.h - libswf, the sliding-window FEC codec of satlab.
 *
 * The Random Linear Code (RLC) FEC scheme of RFC 8681 over GF(2^8), with the
 * S(k,z) schedule (a repair symbol after every k source symbols, computed over
 * the last z source symbols), and the channel models satlab uses to emulate
 * satellite losses. One C11 source tree, built natively and to WebAssembly.
 *
 * Conventions:
 * - Every function that can fail returns an swf_status; SWF_OK is zero and
 *   every error is negative. A failed call changes nothing.
 * - Objects are opaque, created by swf_*_new() and released by swf_*_free();
 *   passing NULL to a free function does nothing.
 * - One object must not be used by two threads at once; distinct objects are
 *   independent. The GF(2^8) kernel is chosen once per process, thread-safely.
 * - The library never prints and never reads the clock: callers pass time in.
 */
#ifndef SWF_H
#define SWF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SWF_VERSION "0.1.0"

typedef enum swf_status {
	SWF_OK = 0,
	SWF_E_INVALID = -1,   /* an argument is out of its documented range */
	SWF_E_NOMEM = -2,     /* an allocation failed */
	SWF_E_MALFORMED = -3, /* bytes from the wire do not parse */
	SWF_E_RANGE = -4,     /* an ESI is too far from the decoder's window */
} swf_status;

/* swf_status_string returns a static English sentence for a status. */
const char *swf_status_string(swf_status status);

/* ---------------------------------------------------------------------- */
/* Limits of the RLC scheme (RFC 8681, section 4.1)                        */

#define SWF_MAX_WINDOW 4095u       /* NSS is a 12-bit field */
#define SWF_MAX_SYMBOL_BYTES 65535u
#define SWF_MAX_DT 15u             /* DT is a 4-bit field; 15 = dense */

/* ---------------------------------------------------------------------- */
/* FEC payload IDs (RFC 8681, section 4.1.1), in network byte order.      */
/*
 * Source FEC Payload ID (4 bytes):         Repair FEC Payload ID (8 bytes):
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                              ESI                              |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |          Repair_Key           |  DT   |NSS (# src symb in ew)|
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                            FSS_ESI                            |
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 */

#define SWF_SOURCE_ID_BYTES 4u
#define SWF_REPAIR_ID_BYTES 8u

typedef struct swf_repair_id {
	uint16_t repair_key; /* seeds the coding coefficients */
	uint8_t dt;          /* density threshold, 0..15 (15: all non-zero) */
	uint16_t nss;        /* source symbols in the encoding window, 1..4095 */
	uint32_t first_esi;  /* ESI of the window's first source symbol */
} swf_repair_id;

/* swf_repair_id_write writes the 8-byte Repair FEC Payload ID of id into
 * out. Returns SWF_E_INVALID (writing nothing) if dt > 15 or nss is 0 or
 * above 4095. */
swf_status swf_repair_id_write(const swf_repair_id *id, uint8_t out[SWF_REPAIR_ID_BYTES]);

/* swf_repair_id_read parses a Repair FEC Payload ID from the first
 * SWF_REPAIR_ID_BYTES of buf (len bytes available). Returns
 * SWF_E_MALFORMED if len is short, NSS is 0 (DT cannot exceed 15 in 4 bits). */
swf_status swf_repair_id_read(const uint8_t *buf, size_t len, swf_repair_id *id);

/* swf_coefficients fills coefs[0..nss-1] with the coding coefficients RFC 8681
 * (section 3.6) derives from repair_key and dt for m = 8: TinyMT32 (RFC 8682)
 * seeded by the repair key; with dt = 15 every coefficient is non-zero, with
 * a smaller dt a coefficient is non-zero with probability (dt + 1) / 16.
 * coefs[i] multiplies the source symbol with ESI first_esi + i. */
swf_status swf_coefficients(uint16_t repair_key, uint8_t dt, uint16_t nss, uint8_t *coefs);

/* ---------------------------------------------------------------------- */
/* GF(2^8) with RFC 8681's polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D).   */
/*
 * The kernel (scalar, ssse3, avx2, gfni, or simd128 in WebAssembly) is the
 * best the CPU supports, unless the environment variable
 * SWF_DISABLE_CPU_FEATURES lists features to ignore, comma-separated, from
 * "ssse3", "avx2", "gfni" (e.g. "gfni,avx2" selects ssse3). It is read once.
 */

/* swf_gf_kernel names the kernel in use: "scalar", "ssse3", "avx2", "gfni"
 * or "simd128". */
const char *swf_gf_kernel(void);

/* swf_gf_mul returns a * b. */
uint8_t swf_gf_mul(uint8_t a, uint8_t b);

/* swf_gf_inv returns the multiplicative inverse of a; a must not be 0. */
uint8_t swf_gf_inv(uint8_t a);

/* swf_gf_mul_add: dst[i] ^= c * src[i] for i < len. */
void swf_gf_mul_add(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);

/* swf_gf_mul_region: dst[i] = c * src[i] for i < len; dst may equal src. */
void swf_gf_mul_region(uint8_t *dst, const uint8_t *src, uint8_t c, size_t len);

/* swf_gf_dot_add: dst[i] ^= sum over j < count of coefs[j] * srcs[j][i]. */
void swf_gf_dot_add(uint8_t *dst, const uint8_t *const *srcs, const uint8_t *coefs,
		    size_t count, size_t len);

/* ---------------------------------------------------------------------- */
/* Encoder: the S(k,z) schedule.                                          */

typedef struct swf_encoder swf_encoder;

typedef struct swf_encoder_config {
	uint32_t symbol_bytes; /* 1..65535; shorter sources are zero-padded */
	uint16_t k;            /* a repair is due after every k sources, k >= 1 */
	uint16_t z;            /* the window: at most z sources, 1..4095 */
	uint8_t dt;            /* density threshold, 0..15; 15 is the usual */
	uint32_t first_esi;    /* ESI of the first source symbol */
	uint16_t first_repair_key; /* repair keys count up from here */
} swf_encoder_config;

/* swf_encoder_new creates an encoder; *out is set only on SWF_OK.
 * SWF_E_INVALID for a config swf_encoder_config_check refuses. */
swf_status swf_encoder_new(const swf_encoder_config *config, swf_encoder **out);
void swf_encoder_free(swf_encoder *encoder);

/* swf_encoder_config_check returns NULL if config is valid, or the name of
 * the first invalid field ("symbol_bytes", "k", "z", "dt"). */
const char *swf_encoder_config_check(const swf_encoder_config *config);

/* swf_encoder_add_source copies a source symbol of len <= symbol_bytes bytes
 * (zero-padded) into the encoding window, sets *esi to its ESI and
 * *repair_due to whether the schedule wants a repair symbol now (after every
 * k sources since the last repair). */
swf_status swf_encoder_add_source(swf_encoder *encoder, const void *data, size_t len,
				  uint32_t *esi, bool *repair_due);

/* swf_encoder_build_repair writes a repair symbol of symbol_bytes bytes into
 * out, over the current window (the last min(z, sources added) sources), and
 * its payload ID into *id. It may be called at any time after the first
 * source (for a flush timer) and restarts the count towards the next due
 * repair. SWF_E_INVALID if no source was added yet. */
swf_status swf_encoder_build_repair(swf_encoder *encoder, uint8_t *out, swf_repair_id *id);

/* ---------------------------------------------------------------------- */
/* Decoder                                                                */
/*
 * Takes source and repair symbols in any order, with duplicates and gaps,
 * and rebuilds each lost source symbol as soon as the symbols received so far
 * determine it (the reduced row-echelon form of the received equations is
 * kept up to date). Memory is bounded by the window: the decoder keeps the
 * last `window_capacity` ESIs rounded up to a power of two (its ring of slots)
 * behind the newest ESI it has heard of; an unknown that falls out of them is
 * given up and counted. ESIs the window jumps over, and those before the first
 * one heard of, were never held and are not counted.
 */

typedef struct swf_decoder swf_decoder;

typedef struct swf_decoder_config {
	uint32_t symbol_bytes; /* 1..65535 */
	uint16_t max_window;   /* the largest NSS accepted, 1..4095 (e.g. z) */
	/* ESIs kept behind the newest one, >= max_window, rounded up to a power of
	 * two; 0 picks 2 * max_window (so 2z rounded up: 32 for z = 9).
	 * Repairs whose window reaches further back are of no use; sources
	 * arriving later than this are ignored. */
	uint32_t window_capacity;
} swf_decoder_config;

typedef struct swf_decoder_stats {
	uint64_t sources;     /* distinct source symbols received */
	uint64_t repairs;     /* repair symbols received (valid ones) */
	uint64_t useful_repairs; /* repairs that added an equation */
	uint64_t rebuilt;     /* source symbols rebuilt */
	uint64_t given_up;    /* unknown ESIs that left the window unrebuilt */
	uint64_t duplicates;  /* sources already known, and stale symbols */
	uint64_t rejected;    /* calls that returned an error */
	uint32_t equations;   /* equations held now */
	uint32_t unknowns;    /* ESIs of the stream in the window, neither received nor rebuilt */
	size_t memory_bytes;  /* bytes allocated now */
	size_t peak_memory_bytes;
} swf_decoder_stats;

/* swf_decoder_config_check returns NULL if config is valid, or the name of
 * the first invalid field ("symbol_bytes", "max_window", "window_capacity":
 * 0, or from max_window to 65536). */
const char *swf_decoder_config_check(const swf_decoder_config *config);

/* swf_decoder_new creates a decoder; *out is set only on SWF_OK.
 * SWF_E_INVALID for a config swf_decoder_config_check refuses. */
swf_status swf_decoder_new(const swf_decoder_config *config, swf_decoder **out);
void swf_decoder_free(swf_decoder *decoder);

/* swf_decoder_add_source gives the decoder the source symbol with this ESI;
 * len must be symbol_bytes (the symbol as it was encoded, padding included).
 * SWF_E_MALFORMED for another length; SWF_E_RANGE if the ESI is more than
 * 2^20 ahead of the newest ESI seen (a jump no stream makes); duplicates and
 * sources older than the window are counted and ignored. */
swf_status swf_decoder_add_source(swf_decoder *decoder, uint32_t esi, const void *symbol,
				  size_t len);

/* swf_decoder_add_repair gives the decoder a repair symbol (len must be
 * symbol_bytes). SWF_E_MALFORMED if dt > 15, nss is 0 or above max_window, or
 * len is wrong; SWF_E_RANGE as for sources (for the window's last ESI). */
swf_status swf_decoder_add_repair(swf_decoder *decoder, const swf_repair_id *id,
				  const void *symbol, size_t len);

/* swf_decoder_next_rebuilt pops the next source symbol rebuilt since the last
 * call: true with *esi and *symbol (symbol_bytes bytes, owned by the decoder,
 * valid until the next call on this decoder), false when none is pending.
 * Symbols come out in the order they were rebuilt. */
bool swf_decoder_next_rebuilt(swf_decoder *decoder, uint32_t *esi, const uint8_t **symbol);

void swf_decoder_get_stats(const swf_decoder *decoder, swf_decoder_stats *stats);

/* ---------------------------------------------------------------------- */
/* Seeded pseudo-random numbers                                           */
/*
 * TinyMT32 (RFC 8682) with the parameters RFC 8681 fixes: the generator of
 * every draw libswf makes, for callers whose own draws must come from a seed
 * the same way (satlink's AQM and delay variation). A value type, so that it
 * can live inside the caller's structs; its state is private. The same seed
 * gives the same numbers in every build.
 */

typedef struct swf_prng {
	uint32_t state[4]; /* private */
} swf_prng;

/* swf_prng_init seeds *prng; every seed is valid. */
void swf_prng_init(swf_prng *prng, uint32_t seed);

/* swf_prng_next returns the next number, uniform over the uint32 range
 * (RFC 8682's tinymt32_generate_uint32). */
uint32_t swf_prng_next(swf_prng *prng);

/* ---------------------------------------------------------------------- */
/* Channel models                                                         */
/*
 * Each model decides, packet by packet, whether the channel loses it. All
 * draw from one TinyMT32 generator seeded by `seed`, so the same seed and
 * parameters give the same decisions in every build. Time-driven models use
 * the send time t_us (microseconds, non-decreasing; an earlier time counts as
 * the latest one seen). Probabilities are in [0, 1].
 */

typedef enum swf_channel_kind {
	SWF_CHANNEL_PERFECT = 0,   /* loses nothing */
	SWF_CHANNEL_BERNOULLI = 1, /* each packet lost with probability loss */
	SWF_CHANNEL_GE_PACKET = 2, /* Gilbert-Elliott, one transition per packet */
	SWF_CHANNEL_GE_TIME = 3,   /* Gilbert-Elliott in time: a step of step_ms */
	SWF_CHANNEL_OUTAGE = 4,    /* periodic outages */
	SWF_CHANNEL_TRACE = 5,     /* replay of recorded loss intervals */
} swf_channel_kind;

typedef struct swf_loss_interval {
	double start_ms, end_ms; /* packets sent in [start_ms, end_ms) are lost */
} swf_loss_interval;

typedef struct swf_channel_config {
	swf_channel_kind kind;
	uint32_t seed;
	/* SWF_CHANNEL_BERNOULLI */
	double loss;
	/* SWF_CHANNEL_GE_PACKET and SWF_CHANNEL_GE_TIME: p is good -> bad, q is
	 * bad -> good, per packet or per step. GE_PACKET loses a packet with
	 * loss_good or loss_bad by state; GE_TIME loses everything sent during a
	 * bad step and nothing else. Both start in the good state. */
	double p, q;
	double loss_good, loss_bad;
	double step_ms;
	/* SWF_CHANNEL_OUTAGE: outage n covers [phase_ms + n * period_ms + j_n,
	 * ... + duration_ms) with j_n uniform in [0, jitter_ms) */
	double period_ms, duration_ms, phase_ms, jitter_ms;
	/* SWF_CHANNEL_TRACE: intervals sorted, not overlapping; if
	 * trace_period_ms > 0 the trace repeats with that period. The channel
	 * keeps its own copy. */
	const swf_loss_interval *intervals;
	size_t interval_count;
	double trace_period_ms;
} swf_channel_config;

typedef struct swf_channel swf_channel;

/* swf_channel_config_check returns NULL if config is valid, or the name of
 * the first invalid field (e.g. "loss", "p", "step_ms", "intervals"). It
 * checks only the fields the kind reads: probabilities in [0, 1]; times
 * finite in [0, 1e12] ms; step_ms, period_ms and a non-zero trace_period_ms
 * at least 1 us; intervals with start < end, each starting at or after the
 * end of the one before, within trace_period_ms when the trace repeats;
 * duration_ms + jitter_ms <= period_ms. */
const char *swf_channel_config_check(const swf_channel_config *config);

swf_status swf_channel_new(const swf_channel_config *config, swf_channel **out);
void swf_channel_free(swf_channel *channel);

/* swf_channel_lost decides whether a packet sent at t_us is lost. */
bool swf_channel_lost(swf_channel *channel, uint64_t t_us);

/* swf_channel_lost_during decides whether a packet on the air during
 * [start_us, end_us) is lost: a time-based model (perfect, ge-time, outage,
 * trace) loses it if it loses any microsecond of that interval, a packet
 * hit anywhere in its serialisation being lost on a real link; a per-packet
 * model (bernoulli, ge-packet) decides once, as swf_channel_lost(start_us).
 * end_us <= start_us is the instant start_us. Times are non-decreasing from
 * call to call as for swf_channel_lost (a packet's interval begins at or
 * after the previous one's last microsecond). A time-based model's draws
 * depend on time alone, so asking this way or at the start of each packet
 * (swf_loss_rule) changes which packets its lost time hits, never the lost
 * time itself. */
bool swf_channel_lost_during(swf_channel *channel, uint64_t start_us, uint64_t end_us);

/* swf_channel_time_based tells whether a kind decides by the send time alone
 * (perfect, ge-time, outage, trace), so that its losses form intervals of
 * time, the same whatever times the channel is asked about; the others
 * (bernoulli, ge-packet) decide packet by packet. */
bool swf_channel_time_based(swf_channel_kind kind);

/* swf_channel_decision_end_us returns the first time after the latest one
 * the channel was asked about at which its decision may change: the end of
 * the step, of the outage or the gap before it, of the trace interval or the
 * gap before the next one; UINT64_MAX if it never changes again (perfect)
 * or the kind decides per packet. Asking a time-based channel at 0, then at
 * each time this returns, walks its lost intervals exactly, without
 * sampling (swf_channel_measure and the swf-channel tool do). */
uint64_t swf_channel_decision_end_us(const swf_channel *channel);

/* How a packet's fate is decided from a time-based model. */
typedef enum swf_loss_rule {
	/* At the start of its serialisation: swf_channel_lost(start). */
	SWF_LOSS_AT_START = 0,
	/* By overlap: lost if its time on the air overlaps lost time
	 * (swf_channel_lost_during). */
	SWF_LOSS_OVERLAP = 1,
} swf_loss_rule;

/* ---------------------------------------------------------------------- */
/* Channel statistics                                                     */
/*
 * What a channel model does over a stretch of time, computed by running the
 * model itself: the loss process in time, and a constant-rate packet stream
 * through it, decided packet by packet by either of satlink's rules.
 */

/* A constant-rate stream: packet i (from 0) is sent at
 * t_i = floor(i * packet_bytes * 8 / rate_mbps) microseconds (binary64
 * arithmetic), for every such time before duration_ms, and decided by
 * loss_rule: at t_i, or by the overlap of its time on the air,
 * [t_i, t_i + air_us) with air_us = ceil(packet_bytes * 8 / link_rate_mbps)
 * (binary64), the link's serialisation time (lost time after duration_ms
 * counts for a packet sent before it). The fields after packet_bytes may be
 * left 0: decided at the send time, on a link at the stream's rate. */
typedef struct swf_stream {
	double duration_ms;    /* how long the channel runs: (0, 1e12] ms, >= 1 us */
	double rate_mbps;      /* the stream's rate in Mbit/s: (0, 1e6] */
	uint32_t packet_bytes; /* bytes per packet, >= 1 */
	swf_loss_rule loss_rule;
	/* The rate of the link the stream crosses, [rate_mbps, 1e6]; 0: the
	 * stream's rate (packets back to back). */
	double link_rate_mbps;
} swf_stream;

/* Bursts go into SWF_CHANNEL_BURST_BINS bins of equal width,
 * SWF_CHANNEL_BURST_BIN_MS for time-based models and one packet for
 * per-packet ones: bin i counts bursts of length in [i * width, (i + 1) *
 * width) ms, or of exactly i + 1 packets; the last bin also counts every
 * longer burst. */
#define SWF_CHANNEL_BURST_BINS 16
#define SWF_CHANNEL_BURST_BIN_MS 5.0

typedef struct swf_channel_stats {
	/* True for the models that decide by time (perfect, ge-time, outage,
	 * trace): their loss process is a set of lost time intervals, and
	 * bursts are measured in milliseconds. False for the per-packet models
	 * (bernoulli, ge-packet), whose loss process exists only packet by
	 * packet: time_lost_ratio is NaN and bursts are runs of lost packets
	 * of the stream. */
	bool time_based;
	uint64_t duration_us;   /* the duration, in whole microseconds */
	uint64_t lost_us;       /* time during which a packet sent is lost (time-based) */
	double time_lost_ratio; /* lost_us / duration_us (time-based), else NaN */
	uint64_t packets;       /* packets of the stream sent */
	uint64_t packets_lost;  /* ... and lost */
	double packet_loss_ratio; /* packets_lost / packets; 0 if no packet */
	/* Bursts: maximal runs of loss (a run cut by the end of the duration
	 * counts with the length it has), in ms or packets as time_based says;
	 * min, mean and max are 0 when there is no burst. */
	uint64_t bursts;
	double burst_min, burst_mean, burst_max;
	uint64_t burst_histogram[SWF_CHANNEL_BURST_BINS];
} swf_channel_stats;

/* swf_stream_check returns NULL if stream is valid, or the name of the first
 * invalid field ("duration_ms", "rate_mbps", "packet_bytes", "loss_rule",
 * "link_rate_mbps"). */
const char *swf_stream_check(const swf_stream *stream);

/* swf_channel_measure runs a fresh channel built from config (its seed
 * included) for stream->duration_ms and fills *stats; the same config and
 * stream give the same figures in every build. It costs time in proportion
 * to the steps, outages or trace intervals of the duration plus the packets
 * of the stream, and allocates one channel, or two for a time-based model
 * (one walks the lost time, the other decides the packets). SWF_E_INVALID
 * (filling nothing) if swf_channel_config_check or swf_stream_check
 * refuses. */
swf_status swf_channel_measure(const swf_channel_config *config, const swf_stream *stream,
			       swf_channel_stats *stats);

/* ---------------------------------------------------------------------- */
/* Residual loss: S(k,z) over a channel, by Monte-Carlo                    */
/*
 * An endless stream of source symbols through the real encoder, channel and
 * decoder, with the S(k,z) schedule on the wire (a repair after every k
 * sources, packets packet_ms apart), counting a stretch at a time the sources
 * the receiver neither receives nor rebuilds. The whole loop runs here, so a
 * caller across a language boundary (WebAssembly) pays one call per stretch.
 *
 * Each source carries its ESI (4 bytes, little-endian) as its symbol, so that
 * every rebuilt symbol is checked against what was sent. The decoder keeps
 * window_capacity ESIs, 2z rounded up to a power of two; a source is settled
 * (counted) once the stream has gone that far past it, so that the decoder
 * has let it go, rebuilt or given up, and nothing later can change it.
 * Stretches are consecutive pieces of one stream: the channel's state
 * carries over, as it would on a link.
 *
 * A repair the channel drops, or whose window holds no source the receiver
 * lacks, cannot help the decoder (its equation would read 0 = 0): the stream
 * does not build it. That keeps the schedule and skips most of the encoder's
 * work on a good channel; the repairs built take the encoder's next keys.
 */

typedef struct swf_residual swf_residual;

typedef struct swf_residual_config {
	uint16_t k;        /* a repair after every k sources, k >= 1 */
	uint16_t z;        /* each repair covers the last z sources, 1..4095 */
	double packet_ms;  /* time between two packets on the wire, >= 0 */
	/* Packet n of this stream (sources and repairs, from 0) is sent at
	 * (first_packet + n) * packet_ms, as microseconds by channel.c's rule:
	 * a stream that goes on from where another's packets would end. */
	uint64_t first_packet;
	swf_channel_config channel; /* copied: intervals need not outlive the call */
} swf_residual_config;

typedef struct swf_residual_counts {
	uint64_t sources;      /* sources settled */
	uint64_t lost;         /* of those, neither received nor rebuilt (rightly) */
	uint64_t packets;      /* packets on the wire, sources and repairs, sent meanwhile */
	uint64_t packets_lost; /* of those, dropped by the channel */
	uint64_t rebuilt;      /* sources the decoder rebuilt meanwhile, rightly */
	/* Rebuilt sources whose bytes differ from those sent: 0 unless the
	 * decoder is wrong. They are not delivered, and count as lost. */
	uint64_t rebuilt_wrong;
} swf_residual_counts;

/* swf_residual_config_check returns NULL if config is valid, or the name of
 * the first invalid field ("k", "z", "packet_ms", or the channel's field as
 * swf_channel_config_check names it). */
const char *swf_residual_config_check(const swf_residual_config *config);

/* swf_residual_new creates a stream; *out is set only on SWF_OK.
 * SWF_E_INVALID for a config swf_residual_config_check refuses. */
swf_status swf_residual_new(const swf_residual_config *config, swf_residual **out);
void swf_residual_free(swf_residual *residual);

/* swf_residual_advance settles `sources` more sources and fills *counts with
 * what became of them. SWF_E_RANGE (counting nothing) if a packet's send time
 * would pass 1e12 ms. On SWF_E_NOMEM the stream is left part-way: free it. */
swf_status swf_residual_advance(swf_residual *residual, uint64_t sources,
				swf_residual_counts *counts);

#ifdef __cplusplus
}
#endif

#endif /* SWF_H */
