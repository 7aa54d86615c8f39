/* quire-gtk-view.h — a QuireSession shown as a GTK 4 widget (libquire-glib built with GTK). */
#pragma once

#include <gtk/gtk.h>

#include "quire-session.h"

G_BEGIN_DECLS

GtkWidget *quire_gtk_view_new (QuireSession *session);

G_END_DECLS
