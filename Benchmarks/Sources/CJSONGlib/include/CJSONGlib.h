#ifndef QUIRE_BENCH_JSON_GLIB_H
#define QUIRE_BENCH_JSON_GLIB_H
#include <stddef.h>

/* The json-glib baseline of the loading benchmark: parses `length` bytes of JSON with
 * json_parser_load_from_data into a JsonNode tree and frees it. Returns 1 on success, 0 when
 * json-glib rejects the document, -1 when the benchmarks were built without json-glib. */
int quire_bench_json_glib_load(const char *bytes, size_t length);

#endif
