#include "CJSONGlib.h"

#ifdef QUIRE_BENCH_HAVE_JSON_GLIB
#include <json-glib/json-glib.h>

int quire_bench_json_glib_load(const char *bytes, size_t length) {
    JsonParser *parser = json_parser_new();
    GError *error = NULL;
    gboolean loaded = json_parser_load_from_data(parser, bytes, (gssize)length, &error);
    if (error != NULL) g_error_free(error);
    g_object_unref(parser);
    return loaded ? 1 : 0;
}
#else
int quire_bench_json_glib_load(const char *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return -1;
}
#endif
