// GTK 4 as Swift sees it: the system library target over pkg-config's gtk4 (cflags and libs come
// from gtk4.pc). What Swift cannot import from these headers (macros) is in CGtkShim.
#include <gtk/gtk.h>
// gettext (glibc's): the app's own strings (Sources/QuireApp/App/AppStrings.swift). Swift's Glibc
// module leaves <libintl.h> out.
#include <libintl.h>
