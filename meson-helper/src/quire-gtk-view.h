/* quire-gtk-view.h — QuireView: a QuireSession shown as a GTK 4 widget (libquire-gtk). */
#pragma once

#include <gtk/gtk.h>

#include "quire-session.h"

G_BEGIN_DECLS

#define QUIRE_TYPE_VIEW (quire_view_get_type ())
QUIRE_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (QuireView, quire_view, QUIRE, VIEW, GtkWidget)

QUIRE_AVAILABLE_IN_0_1
GtkWidget    *quire_view_new         (QuireSession *session);
QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_view_get_session (QuireView    *self);
QUIRE_AVAILABLE_IN_0_1
void          quire_view_set_session (QuireView    *self,
                                      QuireSession *session);

QUIRE_AVAILABLE_IN_0_1
GtkWidget    *quire_gtk_view_new     (QuireSession *session);

G_END_DECLS
