/* quire-gtk-view.c — quire_gtk_view_new(): the GTK view of libquire over a QuireSession. */
#include "quire-gtk-view.h"

#include <quire-gtk.h>

#include "quire-session-private.h"

/**
 * quire_gtk_view_new:
 * @session: a #QuireSession
 *
 * A widget that shows @session and sends it what the user does, as `quire run` shows a flow:
 * the pages (or their page layouts) in a pager, the page indicator, the Back/Next/Skip/Finish
 * buttons, the input panel (choice lists, duration wheels, the accessory bar), the keys and the
 * drags of the walkthrough. Pack it into a container like any widget.
 *
 * Events go both ways. The widget sends what the user does to @session, so its
 * #QuireSession::notification signals and `notify` come for them (the frame clock's `tick`s
 * too, while a page moves); events sent with quire_session_send() while the widget is shown
 * update it. When the session completes, handlers of `notification::completed` run and the
 * widget keeps showing the last page, insensitive, with the CSS class `completed`: what comes
 * next is the app's to show.
 *
 * Ownership: the widget holds a reference on @session, so the session lives at least as long
 * as the widget; the caller keeps its own reference and drops it when it likes. Once the widget
 * is destroyed it no longer touches @session, and its reference is dropped when it is
 * finalized.
 *
 * Call it after gtk_init(), on the thread GTK runs on (the process's first thread).
 *
 * Returns: (transfer floating): a new #GtkWidget with a floating reference (the container it is
 *   packed into takes it)
 */
GtkWidget *
quire_gtk_view_new (QuireSession *session)
{
  GtkWidget *view;

  g_return_val_if_fail (QUIRE_IS_SESSION (session), NULL);
  g_return_val_if_fail (gtk_is_initialized (), NULL);

  view = quire_engine_gtk_view_new (quire_session_get_engine (session));
  /* NULL only off the process's first thread: a programmer error, like a NULL session. */
  g_return_val_if_fail (view != NULL, NULL);
  g_object_set_data_full (G_OBJECT (view), "quire-session", g_object_ref (session), g_object_unref);
  return view;
}
