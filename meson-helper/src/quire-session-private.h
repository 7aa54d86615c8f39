/* quire-session-private.h — what the GTK view (libquire-gtk) needs of a QuireSession; not installed. */
#pragma once

#include <quire.h>

#include "quire-session.h"

G_BEGIN_DECLS

/* The engine a session owns (it lives as long as the session). Exported by libquire for
 * libquire-gtk only, in the QUIRE_PRIVATE symbol version (src/libquire.map). */
QuireEngine *quire_session_get_engine (QuireSession *self);

/* quire_engine_free() from any thread: QuireSession's finalize, which runs where the last
 * reference drops. Swift code of libquire (Sources/QuireEmbed/API.swift), local to it. */
void quire_private_engine_release (QuireEngine *engine);

G_END_DECLS
