// The element tree GLib's GMarkup reads from a layout, as GtkBuilder calls it (Fuzz/gmarkup-tree.c),
// for the `layout` fuzz target's differential check against LayoutXML.
#ifndef QUIRE_GMARKUP_TREE_H
#define QUIRE_GMARKUP_TREE_H

#include <stddef.h>

/// Parses `size` bytes with GMarkup (G_MARKUP_TREAT_CDATA_AS_TEXT, one parse call, then end_parse)
/// and returns the tree in the canonical form `Fuzz/Targets/layout.swift` also writes, or, when
/// GMarkup refuses the bytes, "error: " and its message. The caller frees the result with free().
char *quire_gmarkup_tree(const unsigned char *bytes, size_t size);

#endif
