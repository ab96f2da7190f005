/* pcapng.c - pcapng blocks encoded into memory. */
#include "pcapng.h"

#include <string.h>

enum {
	OPT_END = 0,
	OPT_COMMENT = 1,
	SHB_USERAPPL = 4,
	IF_NAME = 2,
	IF_DESCRIPTION = 3,
	IF_TSRESOL = 9,
	ISB_STARTTIME = 2,
	ISB_ENDTIME = 3,
	ISB_IFRECV = 4,
	ISB_OSDROP = 7,
	ISB_USRDELIV = 8,
};

/* Exported PDU tags (Wireshark's epan/exported_pdu.h). */
enum { EXP_PDU_TAG_END = 0, EXP_PDU_TAG_DISSECTOR_NAME = 12 };
static const char TEXT_DISSECTOR[] = "data-text-lines";

/* A block being written: bytes go in while they fit, and are counted
 * whether they fit or not. */
typedef struct cursor {
	uint8_t *out;
	size_t size, len;
} cursor;

static void put(cursor *c, const void *bytes, size_t n)
{
	if (n != 0 && c->len + n <= c->size)
		memcpy(c->out + c->len, bytes, n);
	c->len += n;
}

static void put16(cursor *c, uint16_t value)
{
	put(c, &value, sizeof value);
}

static void put32(cursor *c, uint32_t value)
{
	put(c, &value, sizeof value);
}

static void put64(cursor *c, uint64_t value)
{
	put(c, &value, sizeof value);
}

static void pad32(cursor *c)
{
	static const uint8_t zeros[3];
	put(c, zeros, (4 - c->len % 4) % 4);
}

/* Big-endian, as exported PDU tags are. */
static void put16_network(cursor *c, uint16_t value)
{
	uint8_t bytes[2] = {(uint8_t)(value >> 8), (uint8_t)value};
	put(c, bytes, 2);
}

static size_t text_len(const char *text)
{
	size_t len = strlen(text);
	return len < PCAPNG_MAX_TEXT ? len : PCAPNG_MAX_TEXT;
}

static void option(cursor *c, uint16_t code, const void *value, uint16_t len)
{
	put16(c, code);
	put16(c, len);
	put(c, value, len);
	pad32(c);
}

static void option_text(cursor *c, uint16_t code, const char *text)
{
	if (text != NULL && text[0] != '\0')
		option(c, code, text, (uint16_t)text_len(text));
}

static void option64(cursor *c, uint16_t code, uint64_t value)
{
	option(c, code, &value, sizeof value);
}

/* A timestamp as pcapng stores it: high then low 32 bits. */
static void option_time(cursor *c, uint16_t code, uint64_t ns)
{
	uint32_t halves[2] = {(uint32_t)(ns >> 32), (uint32_t)ns};
	option(c, code, halves, sizeof halves);
}

static void end_options(cursor *c)
{
	put16(c, OPT_END);
	put16(c, 0);
}

/* begin writes a block's type and a length to be set by finish. */
static cursor begin(uint8_t *out, size_t size, uint32_t type)
{
	cursor c = {out, size, 0};
	put32(&c, type);
	put32(&c, 0);
	return c;
}

static size_t finish(cursor *c)
{
	uint32_t total = (uint32_t)(c->len + 4);
	put32(c, total);
	if (c->len <= c->size)
		memcpy(c->out + 4, &total, 4);
	return c->len;
}

size_t pcapng_section(uint8_t *out, size_t size, const char *comment, const char *application)
{
	cursor c = begin(out, size, PCAPNG_BLOCK_SECTION);
	put32(&c, 0x1A2B3C4Du); /* byte-order magic, in the host's order */
	put16(&c, 1);           /* version 1.0 */
	put16(&c, 0);
	put64(&c, UINT64_MAX); /* section length: not known in advance */
	option_text(&c, OPT_COMMENT, comment);
	option_text(&c, SHB_USERAPPL, application);
	end_options(&c);
	return finish(&c);
}

size_t pcapng_interface(uint8_t *out, size_t size, uint16_t linktype, uint32_t snap_bytes,
			const char *name, const char *description)
{
	cursor c = begin(out, size, PCAPNG_BLOCK_INTERFACE);
	put16(&c, linktype);
	put16(&c, 0);
	put32(&c, snap_bytes);
	option_text(&c, IF_NAME, name);
	option_text(&c, IF_DESCRIPTION, description);
	uint8_t nanoseconds = 9; /* 10^-9 s */
	option(&c, IF_TSRESOL, &nanoseconds, 1);
	end_options(&c);
	return finish(&c);
}

/* packet_header writes an EPB's fixed fields. */
static void packet_header(cursor *c, uint32_t interface, uint64_t timestamp_ns,
			  uint32_t data_len, uint32_t wire_len)
{
	put32(c, interface);
	put32(c, (uint32_t)(timestamp_ns >> 32));
	put32(c, (uint32_t)timestamp_ns);
	put32(c, data_len);
	put32(c, wire_len);
}

size_t pcapng_packet(uint8_t *out, size_t size, uint32_t interface, uint64_t timestamp_ns,
		     const uint8_t *data, uint32_t data_len, uint32_t wire_len, const char *comment)
{
	cursor c = begin(out, size, PCAPNG_BLOCK_PACKET);
	packet_header(&c, interface, timestamp_ns, data_len, wire_len);
	put(&c, data, data_len);
	pad32(&c);
	option_text(&c, OPT_COMMENT, comment);
	end_options(&c);
	return finish(&c);
}

size_t pcapng_text(uint8_t *out, size_t size, uint32_t interface, uint64_t timestamp_ns,
		   const char *text)
{
	/* The exported PDU: a tag naming the dissector (its value padded with
	 * NULs to 32 bits, the padding counted in its length), the end tag,
	 * then the text. */
	size_t name_len = sizeof TEXT_DISSECTOR - 1, name_padded = (name_len + 4) & ~(size_t)3;
	size_t len = text_len(text);
	uint32_t pdu_len = (uint32_t)(4 + name_padded + 4 + len + 1);
	cursor c = begin(out, size, PCAPNG_BLOCK_PACKET);
	packet_header(&c, interface, timestamp_ns, pdu_len, pdu_len);
	put16_network(&c, EXP_PDU_TAG_DISSECTOR_NAME);
	put16_network(&c, (uint16_t)name_padded);
	put(&c, TEXT_DISSECTOR, name_len);
	static const uint8_t zeros[4];
	put(&c, zeros, name_padded - name_len);
	put16_network(&c, EXP_PDU_TAG_END);
	put16_network(&c, 0);
	put(&c, text, len);
	put(&c, "\n", 1);
	pad32(&c);
	option_text(&c, OPT_COMMENT, text);
	end_options(&c);
	return finish(&c);
}

size_t pcapng_statistics_block(uint8_t *out, size_t size, uint32_t interface,
			       uint64_t timestamp_ns, const pcapng_statistics *stats,
			       const char *comment)
{
	cursor c = begin(out, size, PCAPNG_BLOCK_STATISTICS);
	put32(&c, interface);
	put32(&c, (uint32_t)(timestamp_ns >> 32));
	put32(&c, (uint32_t)timestamp_ns);
	option_text(&c, OPT_COMMENT, comment);
	option_time(&c, ISB_STARTTIME, stats->start_ns);
	option_time(&c, ISB_ENDTIME, stats->end_ns);
	option64(&c, ISB_IFRECV, stats->received);
	option64(&c, ISB_OSDROP, stats->capture_drops);
	option64(&c, ISB_USRDELIV, stats->written);
	end_options(&c);
	return finish(&c);
}
