/* quire-glib.h — everything Quire offers a GLib program: the C API (<quire.h>) and QuireSession,
 * its GObject layer. Link with `pkg-config --libs quire`. */
#pragma once

#include <quire.h>
#include <quire-session.h>
