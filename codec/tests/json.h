/*
 * json.h - a small, strict JSON reader for the test vectors (C11 + POSIX
 * dirent, no other dependency). Test code only: the library never reads JSON.
 *
 * Strict means RFC 8259 and nothing more: no comments, no trailing commas, no
 * NaN or Infinity, no duplicate keys, no control characters inside strings,
 * no bytes after the top-level value. Two limits of its own: strings may not
 * contain "\u0000" (they are handed out NUL-terminated) and values nest at
 * most JSON_MAX_DEPTH deep.
 *
 * Accessors accept NULL and the wrong type, answering "nothing" (NULL, 0 or
 * NaN), so lookups chain: json_number(json_get(json_at(cases, 3), "seed")).
 */
#ifndef SWF_TEST_JSON_H
#define SWF_TEST_JSON_H

#include <stddef.h>

#define JSON_MAX_DEPTH 256

typedef enum json_kind {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
} json_kind;

typedef struct json_value json_value;

/* json_parse parses len bytes of text (need not be NUL-terminated) into a
 * tree the caller releases with json_free. On a syntax error it returns NULL
 * and writes "NAME:LINE:COLUMN: expected ..., found ..." into error (at most
 * error_bytes bytes, NUL included); name only labels that message. */
json_value *json_parse(const char *text, size_t len, const char *name, char *error,
		       size_t error_bytes);

/* json_parse_file reads and parses the file at path, as json_parse; a file
 * that cannot be read gives "PATH: cannot read: REASON". */
json_value *json_parse_file(const char *path, char *error, size_t error_bytes);

/* json_free releases a tree returned by a parse function; NULL does nothing. */
void json_free(json_value *value);

/* json_type returns the kind of value; JSON_NULL for NULL. */
json_kind json_type(const json_value *value);

/* json_get returns the member of object named key, or NULL if there is none
 * or object is not an object. */
const json_value *json_get(const json_value *object, const char *key);

/* json_at returns element i of an array, or the value of member i of an
 * object (members keep their order in the text); NULL if i is out of range or
 * container is neither. */
const json_value *json_at(const json_value *container, size_t i);

/* json_key returns the name of member i of object, or NULL if i is out of
 * range or object is not an object. */
const char *json_key(const json_value *object, size_t i);

/* json_length returns the number of elements of an array or members of an
 * object, and 0 for anything else. */
size_t json_length(const json_value *value);

/* json_number returns a number's value, or NaN if value is not a number. */
double json_number(const json_value *value);

/* json_string returns a string's bytes, NUL-terminated and owned by the tree,
 * or NULL if value is not a string. */
const char *json_string(const json_value *value);

/* json_for_each_file calls fn(path, ctx) for each regular file in dir whose
 * name ends with suffix, in strcmp order of the names, with path being
 * "DIR/NAME". It returns how many files it called fn for: 0 when dir cannot
 * be opened or holds no such file. */
size_t json_for_each_file(const char *dir, const char *suffix,
			  void (*fn)(const char *path, void *ctx), void *ctx);

#endif
