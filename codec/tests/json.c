/*
 * json.c - the strict JSON reader of json.h: a recursive-descent parser over
 * RFC 8259's grammar that builds a tree of json_value nodes.
 */
#define _POSIX_C_SOURCE 200809L /* dirent, stat: C11 alone cannot list a directory */

#include "json.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct json_value {
	json_kind kind;
	size_t length;     /* array elements or object members */
	double number;     /* JSON_NUMBER */
	char *string;      /* JSON_STRING, NUL-terminated */
	json_value *items; /* array elements, or object member values */
	char **keys;       /* object member names, parallel to items */
};

typedef struct parser {
	const char *text, *pos, *end;
	const char *name;
	char *error;
	size_t error_bytes;
	int depth;
} parser;

/* ---------------------------------------------------------------------- */
/* Errors: "NAME:LINE:COLUMN: message", LINE and COLUMN counted from 1.    */

static void fail(const parser *p, const char *at, const char *format, ...)
{
	unsigned line = 1;
	const char *line_start = p->text;
	for (const char *c = p->text; c < at; c++) {
		if (*c == '\n') {
			line++;
			line_start = c + 1;
		}
	}
	if (p->error_bytes == 0)
		return;
	int used = snprintf(p->error, p->error_bytes, "%s:%u:%zu: ", p->name, line,
			    (size_t)(at - line_start) + 1);
	if (used < 0 || (size_t)used >= p->error_bytes)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(p->error + used, p->error_bytes - (size_t)used, format, args);
	va_end(args);
}

static void fail_expected(const parser *p, const char *at, const char *expected)
{
	if (at >= p->end)
		fail(p, at, "expected %s, found the end of the input", expected);
	else if (*at >= 0x20 && *at < 0x7f)
		fail(p, at, "expected %s, found '%c'", expected, *at);
	else
		fail(p, at, "expected %s, found byte 0x%02x", expected, (unsigned char)*at);
}

/* ---------------------------------------------------------------------- */
/* The tree                                                               */

static void free_contents(json_value *value)
{
	free(value->string);
	for (size_t i = 0; i < value->length; i++) {
		free_contents(&value->items[i]);
		if (value->keys)
			free(value->keys[i]);
	}
	free(value->items);
	free(value->keys);
}

void json_free(json_value *value)
{
	if (!value)
		return;
	free_contents(value);
	free(value);
}

/* Appends item (and key, for objects) to container, taking ownership of both;
 * on failure releases them and reports. */
static bool append(parser *p, json_value *container, json_value *item, char *key,
		   size_t *capacity)
{
	if (container->length == *capacity) {
		size_t grown = *capacity ? 2 * *capacity : 8;
		bool grew = true;
		json_value *items = realloc(container->items, grown * sizeof(*items));
		if (items)
			container->items = items;
		else
			grew = false;
		if (grew && container->kind == JSON_OBJECT) {
			char **keys = realloc(container->keys, grown * sizeof(*keys));
			if (keys)
				container->keys = keys;
			else
				grew = false;
		}
		if (!grew) {
			free_contents(item);
			free(key);
			fail(p, p->pos, "out of memory");
			return false;
		}
		*capacity = grown;
	}
	container->items[container->length] = *item;
	if (container->kind == JSON_OBJECT)
		container->keys[container->length] = key;
	container->length++;
	return true;
}

/* ---------------------------------------------------------------------- */
/* The grammar                                                            */

static void skip_whitespace(parser *p)
{
	while (p->pos < p->end &&
	       (*p->pos == ' ' || *p->pos == '\t' || *p->pos == '\n' || *p->pos == '\r'))
		p->pos++;
}

static bool is_digit(const parser *p, const char *at)
{
	return at < p->end && *at >= '0' && *at <= '9';
}

static bool parse_value(parser *p, json_value *out);

static bool parse_literal(parser *p, const char *word, json_kind kind, json_value *out)
{
	size_t len = strlen(word);
	if ((size_t)(p->end - p->pos) < len || memcmp(p->pos, word, len) != 0) {
		fail(p, p->pos, "expected the literal %s", word);
		return false;
	}
	p->pos += len;
	out->kind = kind;
	return true;
}

/* number = [ "-" ] ( "0" / [1-9] *DIGIT ) [ "." 1*DIGIT ] [ [eE] [+-] 1*DIGIT ] */
static bool parse_number(parser *p, json_value *out)
{
	const char *start = p->pos, *c = p->pos;
	if (*c == '-')
		c++;
	if (!is_digit(p, c)) {
		fail_expected(p, c, "a digit");
		return false;
	}
	if (*c == '0')
		c++;
	else
		while (is_digit(p, c))
			c++;
	if (c < p->end && *c == '.') {
		c++;
		if (!is_digit(p, c)) {
			fail_expected(p, c, "a digit after the decimal point");
			return false;
		}
		while (is_digit(p, c))
			c++;
	}
	if (c < p->end && (*c == 'e' || *c == 'E')) {
		c++;
		if (c < p->end && (*c == '+' || *c == '-'))
			c++;
		if (!is_digit(p, c)) {
			fail_expected(p, c, "a digit in the exponent");
			return false;
		}
		while (is_digit(p, c))
			c++;
	}
	/* strtod wants a NUL-terminated copy; it reads the "C" locale's '.'
	 * because test programs never call setlocale. */
	size_t len = (size_t)(c - start);
	char *copy = malloc(len + 1);
	if (!copy) {
		fail(p, start, "out of memory");
		return false;
	}
	memcpy(copy, start, len);
	copy[len] = '\0';
	errno = 0;
	double number = strtod(copy, NULL);
	bool overflow = errno == ERANGE && (number == HUGE_VAL || number == -HUGE_VAL);
	free(copy);
	if (overflow) {
		fail(p, start, "expected a number within the range of a double, found %.*s",
		     (int)len, start);
		return false;
	}
	p->pos = c;
	out->kind = JSON_NUMBER;
	out->number = number;
	return true;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Reads the XXXX of a "\uXXXX" escape that starts at p->pos. */
static bool parse_u_escape(parser *p, unsigned *code)
{
	if (p->end - p->pos < 6 || p->pos[0] != '\\' || p->pos[1] != 'u') {
		fail_expected(p, p->pos, "\"\\u\" and four hex digits");
		return false;
	}
	*code = 0;
	for (int i = 2; i < 6; i++) {
		int digit = hex_digit(p->pos[i]);
		if (digit < 0) {
			fail_expected(p, p->pos + i, "a hex digit in a \\u escape");
			return false;
		}
		*code = *code << 4 | (unsigned)digit;
	}
	p->pos += 6;
	return true;
}

/* Decodes a "\uXXXX" escape (two for a surrogate pair) into UTF-8 at *out. */
static bool decode_u_escape(parser *p, char **out)
{
	const char *at = p->pos;
	unsigned code;
	if (!parse_u_escape(p, &code))
		return false;
	if (code == 0) {
		fail(p, at, "expected a string without \\u0000 (strings are NUL-terminated)");
		return false;
	}
	if (code >= 0xdc00 && code <= 0xdfff) {
		fail(p, at, "expected a high surrogate before the low surrogate \\u%04x", code);
		return false;
	}
	if (code >= 0xd800 && code <= 0xdbff) {
		unsigned low;
		if (!parse_u_escape(p, &low))
			return false;
		if (low < 0xdc00 || low > 0xdfff) {
			fail(p, p->pos - 6, "expected a low surrogate after \\u%04x", code);
			return false;
		}
		code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
	}
	unsigned char *o = (unsigned char *)*out;
	if (code < 0x80) {
		*o++ = (unsigned char)code;
	} else if (code < 0x800) {
		*o++ = (unsigned char)(0xc0 | code >> 6);
		*o++ = (unsigned char)(0x80 | (code & 0x3f));
	} else if (code < 0x10000) {
		*o++ = (unsigned char)(0xe0 | code >> 12);
		*o++ = (unsigned char)(0x80 | (code >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (code & 0x3f));
	} else {
		*o++ = (unsigned char)(0xf0 | code >> 18);
		*o++ = (unsigned char)(0x80 | (code >> 12 & 0x3f));
		*o++ = (unsigned char)(0x80 | (code >> 6 & 0x3f));
		*o++ = (unsigned char)(0x80 | (code & 0x3f));
	}
	*out = (char *)o;
	return true;
}

/* Parses the string at p->pos (its opening quote) into a new NUL-terminated
 * buffer; decoding never lengthens a string, so its span is enough room. */
static bool parse_string(parser *p, char **out)
{
	const char *close = p->pos + 1;
	while (close < p->end && *close != '"') {
		if (*close == '\\' && close + 1 < p->end)
			close++;
		close++;
	}
	if (close >= p->end) {
		fail(p, p->pos, "expected a closing '\"' for the string that starts here");
		return false;
	}
	char *string = malloc((size_t)(close - p->pos));
	if (!string) {
		fail(p, p->pos, "out of memory");
		return false;
	}
	char *o = string;
	p->pos++;
	while (p->pos < close) {
		unsigned char c = (unsigned char)*p->pos;
		if (c < 0x20) {
			fail_expected(p, p->pos, "an escape for a control character in a string");
			free(string);
			return false;
		}
		if (c != '\\') {
			*o++ = (char)c;
			p->pos++;
			continue;
		}
		static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
		const char *e = NULL;
		for (const char *k = escapes; *k && !e; k += 2)
			if (*k == p->pos[1])
				e = k;
		if (e) {
			*o++ = e[1];
			p->pos += 2;
		} else if (p->pos[1] == 'u') {
			if (!decode_u_escape(p, &o)) {
				free(string);
				return false;
			}
		} else {
			fail_expected(p, p->pos + 1, "an escape character among \"\\/bfnrtu");
			free(string);
			return false;
		}
	}
	*o = '\0';
	p->pos = close + 1;
	*out = string;
	return true;
}

static bool parse_array(parser *p, json_value *out)
{
	size_t capacity = 0;
	out->kind = JSON_ARRAY;
	p->pos++;
	skip_whitespace(p);
	if (p->pos < p->end && *p->pos == ']') {
		p->pos++;
		return true;
	}
	for (;;) {
		json_value item = {0};
		if (!parse_value(p, &item)) {
			free_contents(&item);
			return false;
		}
		if (!append(p, out, &item, NULL, &capacity))
			return false;
		skip_whitespace(p);
		if (p->pos < p->end && *p->pos == ',') {
			p->pos++;
		} else if (p->pos < p->end && *p->pos == ']') {
			p->pos++;
			return true;
		} else {
			fail_expected(p, p->pos, "',' or ']' after an array element");
			return false;
		}
	}
}

static bool parse_object(parser *p, json_value *out)
{
	size_t capacity = 0;
	out->kind = JSON_OBJECT;
	p->pos++;
	skip_whitespace(p);
	if (p->pos < p->end && *p->pos == '}') {
		p->pos++;
		return true;
	}
	for (;;) {
		skip_whitespace(p);
		const char *key_at = p->pos;
		char *key;
		if (p->pos >= p->end || *p->pos != '"') {
			fail_expected(p, p->pos, "a '\"' to start a member name");
			return false;
		}
		if (!parse_string(p, &key))
			return false;
		if (json_get(out, key)) {
			fail(p, key_at, "expected each member name once, found \"%s\" again", key);
			free(key);
			return false;
		}
		skip_whitespace(p);
		if (p->pos >= p->end || *p->pos != ':') {
			fail_expected(p, p->pos, "':' after a member name");
			free(key);
			return false;
		}
		p->pos++;
		json_value item = {0};
		if (!parse_value(p, &item)) {
			free_contents(&item);
			free(key);
			return false;
		}
		if (!append(p, out, &item, key, &capacity))
			return false;
		skip_whitespace(p);
		if (p->pos < p->end && *p->pos == ',') {
			p->pos++;
		} else if (p->pos < p->end && *p->pos == '}') {
			p->pos++;
			return true;
		} else {
			fail_expected(p, p->pos, "',' or '}' after an object member");
			return false;
		}
	}
}

/* Parses one value into out. On failure out may hold a partial tree, which
 * free_contents releases. */
static bool parse_value(parser *p, json_value *out)
{
	skip_whitespace(p);
	if (p->pos >= p->end) {
		fail_expected(p, p->pos, "a value");
		return false;
	}
	bool ok;
	switch (*p->pos) {
	case '{':
	case '[':
		if (p->depth == JSON_MAX_DEPTH) {
			fail(p, p->pos, "expected at most %d nested arrays and objects",
			     JSON_MAX_DEPTH);
			return false;
		}
		p->depth++;
		ok = *p->pos == '{' ? parse_object(p, out) : parse_array(p, out);
		p->depth--;
		return ok;
	case '"':
		out->kind = JSON_STRING;
		return parse_string(p, &out->string);
	case 't':
		return parse_literal(p, "true", JSON_TRUE, out);
	case 'f':
		return parse_literal(p, "false", JSON_FALSE, out);
	case 'n':
		return parse_literal(p, "null", JSON_NULL, out);
	default:
		if (*p->pos == '-' || is_digit(p, p->pos))
			return parse_number(p, out);
		fail_expected(p, p->pos, "a value");
		return false;
	}
}

json_value *json_parse(const char *text, size_t len, const char *name, char *error,
		       size_t error_bytes)
{
	parser p = {text, text, text + len, name, error, error_bytes, 0};
	json_value *root = calloc(1, sizeof(*root));
	if (!root) {
		fail(&p, text, "out of memory");
		return NULL;
	}
	bool ok = parse_value(&p, root);
	if (ok) {
		skip_whitespace(&p);
		if (p.pos != p.end) {
			fail_expected(&p, p.pos, "the end of the input after the top-level value");
			ok = false;
		}
	}
	if (!ok) {
		json_free(root);
		return NULL;
	}
	return root;
}

json_value *json_parse_file(const char *path, char *error, size_t error_bytes)
{
	FILE *file = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0, capacity = 0;
	bool read_ok = file != NULL;
	while (read_ok) {
		if (len == capacity) {
			capacity = capacity ? 2 * capacity : 65536;
			char *grown = realloc(text, capacity);
			if (!grown) {
				errno = ENOMEM;
				read_ok = false;
				break;
			}
			text = grown;
		}
		len += fread(text + len, 1, capacity - len, file);
		if (len < capacity) {
			read_ok = !ferror(file);
			break;
		}
	}
	int read_errno = errno;
	if (file)
		fclose(file);
	if (!read_ok) {
		if (error_bytes)
			snprintf(error, error_bytes, "%s: cannot read: %s", path,
				 strerror(read_errno));
		free(text);
		return NULL;
	}
	json_value *root = json_parse(text, len, path, error, error_bytes);
	free(text);
	return root;
}

/* ---------------------------------------------------------------------- */
/* Accessors                                                              */

json_kind json_type(const json_value *value)
{
	return value ? value->kind : JSON_NULL;
}

const json_value *json_get(const json_value *object, const char *key)
{
	if (json_type(object) != JSON_OBJECT)
		return NULL;
	for (size_t i = 0; i < object->length; i++)
		if (strcmp(object->keys[i], key) == 0)
			return &object->items[i];
	return NULL;
}

const json_value *json_at(const json_value *container, size_t i)
{
	if (i >= json_length(container))
		return NULL;
	return &container->items[i];
}

const char *json_key(const json_value *object, size_t i)
{
	if (json_type(object) != JSON_OBJECT || i >= object->length)
		return NULL;
	return object->keys[i];
}

size_t json_length(const json_value *value)
{
	json_kind kind = json_type(value);
	return kind == JSON_ARRAY || kind == JSON_OBJECT ? value->length : 0;
}

double json_number(const json_value *value)
{
	return json_type(value) == JSON_NUMBER ? value->number : NAN;
}

const char *json_string(const json_value *value)
{
	return json_type(value) == JSON_STRING ? value->string : NULL;
}

/* ---------------------------------------------------------------------- */
/* Directories                                                            */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join_path(const char *dir, const char *name)
{
	size_t bytes = strlen(dir) + 1 + strlen(name) + 1;
	char *path = malloc(bytes);
	if (path)
		snprintf(path, bytes, "%s/%s", dir, name);
	return path;
}

size_t json_for_each_file(const char *dir, const char *suffix,
			  void (*fn)(const char *path, void *ctx), void *ctx)
{
	DIR *listing = opendir(dir);
	if (!listing)
		return 0;
	char **paths = NULL;
	size_t count = 0, capacity = 0;
	size_t suffix_len = strlen(suffix);
	const struct dirent *entry;
	while ((entry = readdir(listing)) != NULL) {
		size_t name_len = strlen(entry->d_name);
		if (name_len < suffix_len ||
		    strcmp(entry->d_name + name_len - suffix_len, suffix) != 0)
			continue;
		char *path = join_path(dir, entry->d_name);
		struct stat info;
		if (!path || stat(path, &info) != 0 || !S_ISREG(info.st_mode)) {
			free(path);
			continue;
		}
		if (count == capacity) {
			capacity = capacity ? 2 * capacity : 16;
			char **grown = realloc(paths, capacity * sizeof(*paths));
			if (!grown) {
				free(path);
				break;
			}
			paths = grown;
		}
		paths[count++] = path;
	}
	closedir(listing);
	/* The paths share the "DIR/" prefix, so they sort as the names do. */
	if (count)
		qsort(paths, count, sizeof(*paths), compare_names);
	for (size_t i = 0; i < count; i++) {
		fn(paths[i], ctx);
		free(paths[i]);
	}
	free(paths);
	return count;
}
