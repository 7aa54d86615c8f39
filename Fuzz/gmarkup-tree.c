// GMarkup's reading of a layout, for the `layout` fuzz target (Fuzz/Targets/layout.swift): the
// element tree GtkBuilder would be handed, in a canonical text form both sides write alike.
//
// GtkBuilder (gtk/gtkbuilderparser.c, GTK 4.8) makes its context with G_MARKUP_TREAT_CDATA_AS_TEXT,
// no passthrough callback, and gives it the whole file in one g_markup_parse_context_parse. It
// never calls g_markup_parse_context_end_parse; this does, so a file left open is an error here
// too (LayoutXML refuses one, which is stricter and fine).
//
// The canonical form, one line each, bytes below 0x20, 0x7F and '\' written as \xHH:
//   (NAME            an element starts
//   @NAME=VALUE      each attribute, in order
//   "TEXT            the element's text: every text callback while it is the innermost, joined
//   )                the element ends (its children are between)
#include "gmarkup-tree.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  GString *out;
  // The text of each open element, innermost last (its line is written when it ends, after the
  // lines of its children, so the form puts it just before the ')').
  GPtrArray *texts;
} Tree;

static void escape(GString *out, const char *text, gsize length) {
  for (gsize i = 0; i < length; i++) {
    unsigned char c = (unsigned char)text[i];
    if (c < 0x20 || c == 0x7F || c == '\\')
      g_string_append_printf(out, "\\x%02X", c);
    else
      g_string_append_c(out, (char)c);
  }
}

static void start_element(GMarkupParseContext *context, const char *name, const char **names, const char **values,
                          gpointer data, GError **error) {
  Tree *tree = data;
  (void)context;
  (void)error;
  g_string_append_c(tree->out, '(');
  escape(tree->out, name, strlen(name));
  g_string_append_c(tree->out, '\n');
  for (int i = 0; names[i] != NULL; i++) {
    g_string_append_c(tree->out, '@');
    escape(tree->out, names[i], strlen(names[i]));
    g_string_append_c(tree->out, '=');
    escape(tree->out, values[i], strlen(values[i]));
    g_string_append_c(tree->out, '\n');
  }
  g_ptr_array_add(tree->texts, g_string_new(NULL));
}

static void end_element(GMarkupParseContext *context, const char *name, gpointer data, GError **error) {
  Tree *tree = data;
  (void)context;
  (void)name;
  (void)error;
  GString *text = g_ptr_array_steal_index(tree->texts, tree->texts->len - 1);
  g_string_append_c(tree->out, '"');
  escape(tree->out, text->str, text->len);
  g_string_append(tree->out, "\n)\n");
  g_string_free(text, TRUE);
}

static void text(GMarkupParseContext *context, const char *text, gsize length, gpointer data, GError **error) {
  Tree *tree = data;
  (void)context;
  (void)error;
  // GMarkup calls this outside the root too (whitespace, CDATA at the top level): that text is
  // no element's, so it is written as its own line, which LayoutXML never writes.
  if (tree->texts->len == 0) {
    if (length == 0) return;
    g_string_append(tree->out, "top-level text: ");
    escape(tree->out, text, length);
    g_string_append_c(tree->out, '\n');
    return;
  }
  GString *open = g_ptr_array_index(tree->texts, tree->texts->len - 1);
  g_string_append_len(open, text, (gssize)length);
}

static void free_text(gpointer text) { g_string_free(text, TRUE); }

char *quire_gmarkup_tree(const unsigned char *bytes, size_t size) {
  static const GMarkupParser parser = {start_element, end_element, text, NULL, NULL};
  Tree tree = {g_string_new(NULL), g_ptr_array_new_with_free_func(free_text)};
  GMarkupParseContext *context = g_markup_parse_context_new(&parser, G_MARKUP_TREAT_CDATA_AS_TEXT, &tree, NULL);
  GError *error = NULL;
  gboolean ok = size == 0 || g_markup_parse_context_parse(context, (const char *)bytes, (gssize)size, &error);
  if (ok) ok = g_markup_parse_context_end_parse(context, &error);
  g_markup_parse_context_free(context);
  g_ptr_array_free(tree.texts, TRUE);
  char *result;
  if (ok) {
    result = strdup(tree.out->str);
  } else {
    result = malloc(strlen("error: ") + strlen(error->message) + 1);
    strcpy(result, "error: ");
    strcat(result, error->message);
    g_error_free(error);
  }
  g_string_free(tree.out, TRUE);
  return result;
}
