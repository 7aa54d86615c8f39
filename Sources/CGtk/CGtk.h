// GTK 4 as Swift sees it: the system library target over pkg-config's gtk4 (cflags and libs come
// from gtk4.pc). What Swift cannot import from these headers (macros) is in CGtkShim.
#include <gtk/gtk.h>
