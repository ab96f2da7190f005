/*
 * pcapng.h - the pcapng blocks satlink's and swf-tunnel's captures are made
 * of, encoded into memory (no I/O), in the host's byte order, which the
 * section header's magic declares (draft-ietf-opsawg-pcapng):
 *
 *   Section Header Block        shb_comment, shb_userappl
 *   Interface Description Block if_name, if_description, if_tsresol = 9 (ns)
 *   Enhanced Packet Block       the packet's first bytes, opt_comment
 *   Interface Statistics Block  isb_starttime, isb_endtime, isb_ifrecv,
 *                               isb_osdrop, isb_usrdeliv, opt_comment
 *
 * A packet's story (its fate, its times) is its EPB's opt_comment:
 * Wireshark shows it in the packet list and details, and filters on it
 * (frame.comment contains "fate=channel-loss"). What is not a packet (a note
 * that the capture stopped, an ESI the decoder gave up) is an EPB on an
 * interface of link type LINKTYPE_WIRESHARK_UPPER_PDU whose data asks for
 * the data-text-lines dissector and holds the text, also its comment: shown
 * as a line of text rather than as a malformed packet.
 *
 * Each function writes one block into out when it fits in size bytes and
 * returns the block's length either way (as snprintf does), so a caller can
 * ask for the length with size 0. A comment is UTF-8 without its NUL;
 * strings are cut at PCAPNG_MAX_TEXT bytes.
 */
#ifndef PCAPNG_H
#define PCAPNG_H

#include <stddef.h>
#include <stdint.h>

#define PCAPNG_LINKTYPE_RAW 101       /* an IPv4 or IPv6 packet, no link header */
#define PCAPNG_LINKTYPE_UPPER_PDU 252 /* Wireshark's exported PDU: here, text */

#define PCAPNG_BLOCK_SECTION 0x0A0D0D0Au
#define PCAPNG_BLOCK_INTERFACE 1u
#define PCAPNG_BLOCK_STATISTICS 5u
#define PCAPNG_BLOCK_PACKET 6u

#define PCAPNG_MAX_TEXT 1024u

/* pcapng_section writes a Section Header Block of unknown section length. */
size_t pcapng_section(uint8_t *out, size_t size, const char *comment, const char *application);

/* pcapng_interface writes an Interface Description Block with nanosecond
 * timestamps. */
size_t pcapng_interface(uint8_t *out, size_t size, uint16_t linktype, uint32_t snap_bytes,
			const char *name, const char *description);

/* pcapng_packet writes an Enhanced Packet Block: data_len bytes of a packet
 * of wire_len, on interface (its IDB's index in the section), at
 * timestamp_ns (UTC, since the epoch), comment NULL for none. */
size_t pcapng_packet(uint8_t *out, size_t size, uint32_t interface, uint64_t timestamp_ns,
		     const uint8_t *data, uint32_t data_len, uint32_t wire_len, const char *comment);

/* pcapng_text writes an Enhanced Packet Block on an UPPER_PDU interface
 * whose packet is the line `text` (a newline is added) for the
 * data-text-lines dissector, and whose comment is `text` too. */
size_t pcapng_text(uint8_t *out, size_t size, uint32_t interface, uint64_t timestamp_ns,
		   const char *text);

/* What an Interface Statistics Block says of an interface. */
typedef struct pcapng_statistics {
	uint64_t start_ns, end_ns; /* the capture's span (UTC, since the epoch) */
	uint64_t received;         /* isb_ifrecv: what the interface saw */
	uint64_t capture_drops;    /* isb_osdrop: seen but not written */
	uint64_t written;          /* isb_usrdeliv: written to the file */
} pcapng_statistics;

size_t pcapng_statistics_block(uint8_t *out, size_t size, uint32_t interface,
			       uint64_t timestamp_ns, const pcapng_statistics *stats,
			       const char *comment);

#endif /* PCAPNG_H */
