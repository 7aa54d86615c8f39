/* quire-view-builder — a QuireView (and its QuireSession) built from a .ui file by GtkBuilder,
 * the way a GTK app declares its windows.
 *
 *   quire-view-builder UI_FILE
 *
 * Shows the window of UI_FILE (quire-view.ui: a session from its flow-file property, a view of
 * it), then drives the session as an app would: Next, then Cancel, with quire_session_send().
 * Checks that the view emitted page-changed and completed with the session's values and that it
 * ended insensitive with the CSS class `completed`, prints `page-changed INDEX ID` and
 * `completed OUTCOME` as they come, and exits 0 (1 when a check fails, 2 on bad usage, 3 without
 * a display). */
#include <quire-glib.h>
#include <quire-gtk-view.h>

#include <stdio.h>
#include <string.h>

static void
on_page_changed (QuireView *view, int index, const char *id, int *count)
{
  (void) view;
  printf ("page-changed %d %s\n", index, id);
  ++*count;
}

/* Who heard the completion, in order: the app's session handler (connected after GtkBuilder gave
 * the view its session) must run before the view's `completed`, as the docs say. */
static GString *heard;

static void
on_completed (QuireView *view, const char *outcome, char **seen)
{
  (void) view;
  printf ("completed %s\n", outcome);
  g_string_append (heard, "view ");
  g_free (*seen);
  *seen = g_strdup (outcome);
}

static void
on_session_completed (QuireSession *session, const char *name, JsonNode *payload, gpointer data)
{
  (void) session, (void) name, (void) payload, (void) data;
  g_string_append (heard, "session ");
}

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int argc, char **argv)
{
  g_autoptr (GtkBuilder) builder = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *outcome = NULL;
  QuireSession *session;
  GtkWidget *view;
  GtkWindow *window;
  int pages = 0;
  gboolean ok = TRUE;

  if (argc != 2)
    {
      fprintf (stderr, "usage: quire-view-builder UI_FILE\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      fprintf (stderr, "quire-view-builder: no display\n");
      return 3;
    }
  /* GtkBuilder finds types by name once they are registered. */
  g_type_ensure (QUIRE_TYPE_SESSION);
  g_type_ensure (QUIRE_TYPE_VIEW);
  builder = gtk_builder_new ();
  if (!gtk_builder_add_from_file (builder, argv[1], &error))
    {
      fprintf (stderr, "quire-view-builder: %s\n", error->message);
      return 1;
    }
  session = QUIRE_SESSION (gtk_builder_get_object (builder, "session"));
  view = GTK_WIDGET (gtk_builder_get_object (builder, "view"));
  window = GTK_WINDOW (gtk_builder_get_object (builder, "window"));
  g_assert (QUIRE_IS_VIEW (view));
  g_assert (quire_view_get_session (QUIRE_VIEW (view)) == session);
  g_signal_connect (view, "page-changed", G_CALLBACK (on_page_changed), &pages);
  g_signal_connect (view, "completed", G_CALLBACK (on_completed), &outcome);
  heard = g_string_new (NULL);
  g_signal_connect (session, "notification::completed", G_CALLBACK (on_session_completed), NULL);
  gtk_window_present (window);
  drain ();

  quire_session_send (session, "{\"tap\": \"button:next\"}", NULL);
  quire_session_send (session, "{\"settle\": true}", NULL);
  drain ();
  if (pages != 1 || g_strcmp0 (quire_session_get_page_id (session), "profile") != 0)
    ok = FALSE, fprintf (stderr, "quire-view-builder: %d page-changed signals, on %s\n", pages,
                         quire_session_get_page_id (session));
  quire_session_send (session, "{\"tap\": \"button:cancel\"}", NULL);
  drain ();
  if (g_strcmp0 (outcome, "cancelled") != 0 || gtk_widget_get_sensitive (view) ||
      !gtk_widget_has_css_class (view, "completed"))
    ok = FALSE, fprintf (stderr, "quire-view-builder: completed with %s, sensitive %d\n",
                         outcome ? outcome : "nothing", gtk_widget_get_sensitive (view));
  if (strcmp (heard->str, "session view ") != 0)
    ok = FALSE, fprintf (stderr, "quire-view-builder: the completion was heard in the order '%s', "
                         "not the session's handler, then the view's completed\n", heard->str);
  g_string_free (heard, TRUE);
  /* Another session replaces the first: notify::session, the view sensitive again. */
  {
    g_autoptr (QuireSession) other = quire_session_new_from_file ("data/flows/five-pages.json", NULL);
    quire_view_set_session (QUIRE_VIEW (view), other);
    if (quire_view_get_session (QUIRE_VIEW (view)) != other || !gtk_widget_get_sensitive (view))
      ok = FALSE, fprintf (stderr, "quire-view-builder: set_session did not replace the session\n");
  }
  gtk_window_destroy (window);
  drain ();
  return ok ? 0 : 1;
}
