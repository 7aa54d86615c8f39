/* quire-gtk-walkthrough — a small GTK 4 app that embeds a flow with quire_gtk_view_new().
 *
 *   quire-gtk-walkthrough FLOW
 *       A window showing the flow. When it completes, prints the result and quits; closing the
 *       window, or SIGTERM, prints the state and quits (so a test can drive it with real key
 *       events and then ask for the state).
 *   quire-gtk-walkthrough --replay SCRIPT... [--screenshot PNG]
 *       For each script: shows its flow, sends the script's events through quire_session_send()
 *       while the view is shown (each one updates it) and prints the final state, one line a
 *       script, as `quire test --final-states` does; --screenshot saves the last view as a PNG.
 *
 * Exit codes: 0 done, 1 a flow, script or event was rejected (the message says where and why),
 * 2 usage, 3 no display.
 */
#include <quire-glib.h>
#include <quire-gtk-view.h>

#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef struct
{
  QuireSession *session;
  GtkWidget *window;
  GMainLoop *loop;
  gboolean printed;
} App;

static void
print_state (App *app)
{
  g_autofree char *state = quire_session_get_state_json (app->session);

  if (app->printed)
    return;
  app->printed = TRUE;
  printf ("%s\n", state);
  fflush (stdout);
}

/* A page with `apply`: a fake server (a GLib timeout of 400 ms) accepts the answers, unless the
 * user stops the apply first (the cancellable). The view shows the spinner and Cancel meanwhile.
 * A real host would save or check the values here, asynchronously. */
typedef struct
{
  QuireSession *session;
  char *page;
  GCancellable *cancellable;
} Apply;

static void
apply_free (gpointer data)
{
  Apply *apply = data;

  g_object_unref (apply->session);
  g_object_unref (apply->cancellable);
  g_free (apply->page);
  g_free (apply);
}

static gboolean
on_server_answer (gpointer data)
{
  Apply *apply = data;
  g_autoptr (GError) error = NULL;

  if (!g_cancellable_is_cancelled (apply->cancellable)
      && !quire_session_apply_finish (apply->session, apply->page, NULL, NULL, &error))
    g_printerr ("apply: %s\n", error->message);
  return G_SOURCE_REMOVE;
}

static void
on_apply_requested (QuireSession *session, const char *page, JsonNode *values, GCancellable *cancellable,
                    gpointer user_data)
{
  Apply *apply = g_new0 (Apply, 1);

  (void) values;
  (void) user_data;
  apply->session = g_object_ref (session);
  apply->page = g_strdup (page);
  apply->cancellable = g_object_ref (cancellable);
  g_timeout_add_full (G_PRIORITY_DEFAULT, 400, on_server_answer, apply, apply_free);
}

/* The app's own observer: the view sent the events, the session tells the app. */
static void
on_completed (QuireSession *session, const char *name, JsonNode *payload, gpointer user_data)
{
  App *app = user_data;
  g_autofree char *result = json_to_string (payload, FALSE);

  (void) session;
  (void) name;
  g_printerr ("completed: %s\n", result);
  print_state (app);
  g_main_loop_quit (app->loop);
}

static gboolean
on_close_request (GtkWindow *window, gpointer user_data)
{
  App *app = user_data;

  (void) window;
  print_state (app);
  g_main_loop_quit (app->loop);
  return FALSE;
}

static gboolean
on_terminate (gpointer user_data)
{
  App *app = user_data;

  print_state (app);
  g_main_loop_quit (app->loop);
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @done says so (or two seconds pass). */
static void
iterate_until (gboolean (*done) (GtkWidget *), GtkWidget *widget)
{
  gint64 end = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while (!done (widget) && g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
is_mapped (GtkWidget *widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

static void
open_window (App *app, int width)
{
  app->window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (app->window), "Quire walkthrough");
  gtk_window_set_default_size (GTK_WINDOW (app->window), width, 640);
  g_signal_connect (app->window, "close-request", G_CALLBACK (on_close_request), app);
  gtk_window_present (GTK_WINDOW (app->window));
}

static GtkWidget *
show_session (App *app)
{
  GtkWidget *view = quire_gtk_view_new (app->session);   /* floating: the window takes it */

  gtk_window_set_child (GTK_WINDOW (app->window), view);
  return view;
}

/* A session script's flow, locale, viewport and starting values, as quire-replay reads them. */
static JsonObject *
load_script (JsonParser *parser, const char *path, GError **error)
{
  JsonObject *script;

  if (!json_parser_load_from_file (parser, path, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: not a session script", path);
      return NULL;
    }
  script = json_node_get_object (json_parser_get_root (parser));
  if (json_object_get_array_member (script, "steps") == NULL || !json_object_has_member (script, "flow"))
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: a script needs a flow and steps", path);
      return NULL;
    }
  return script;
}

static QuireSession *
script_session (JsonObject *script, const char *path, double *width, GError **error)
{
  JsonNode *flow = json_object_get_member (script, "flow");
  g_autoptr (QuireSession) session = NULL;

  if (JSON_NODE_HOLDS_VALUE (flow) && json_node_get_value_type (flow) == G_TYPE_STRING)
    {
      g_autofree char *folder = g_path_get_dirname (path);
      g_autofree char *file = g_build_filename (folder, json_node_get_string (flow), NULL);
      session = quire_session_new_from_file (file, error);
    }
  else
    session = quire_session_new_from_node (flow, error);
  if (session == NULL)
    return NULL;
  if (json_object_has_member (script, "locale")
      && !quire_session_set_locale (session, json_object_get_string_member (script, "locale"), error))
    return NULL;
  *width = quire_session_get_viewport_width (session);
  if (json_object_has_member (script, "viewport"))
    {
      JsonObject *viewport = json_object_get_object_member (script, "viewport");
      if (viewport != NULL && json_object_has_member (viewport, "width"))
        *width = json_object_get_double_member (viewport, "width");
    }
  if (!quire_session_set_viewport_width (session, *width, error))
    return NULL;
  /* The answers it starts from, before a view shows it. */
  if (json_object_has_member (script, "values")
      && !quire_session_set_starting_values_node (session, json_object_get_member (script, "values"), error))
    return NULL;
  return g_steal_pointer (&session);
}

static gboolean
save_screenshot (GtkWidget *view, const char *path, GError **error)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (view);
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (view));
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int width = gtk_widget_get_width (view);
  int height = gtk_widget_get_height (view);

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: the view drew nothing", path);
      return FALSE;
    }
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot write the screenshot", path);
      return FALSE;
    }
  return TRUE;
}

/* Sends the script's events while the view is shown. */
static gboolean
replay (App *app, const char *path, const char *screenshot, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonObject *script = load_script (parser, path, error);
  JsonArray *steps;
  GtkWidget *view;
  double width = 800;

  if (script == NULL)
    return FALSE;
  app->session = script_session (script, path, &width, error);
  if (app->session == NULL)
    return FALSE;
  /* The window is mapped before the view comes in, and the loop does not run again until the
   * events are sent: no frame clock tick or allocation of the view's own gets into the session,
   * whose final state is then the script's. */
  open_window (app, (int) width);
  iterate_until (is_mapped, app->window);
  /* Reduced motion is the desktop's: the view follows gtk-enable-animations (and sets the
   * session's from it), so a host with animations off is what a script's reducedMotion is. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations",
                !json_object_get_boolean_member_with_default (script, "reducedMotion", FALSE), NULL);
  view = show_session (app);

  steps = json_object_get_array_member (script, "steps");
  for (guint i = 0; i < json_array_get_length (steps); i++)
    {
      JsonNode *step = json_array_get_element (steps, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (step) ? json_node_get_object (step) : NULL;

      if (object != NULL && (json_object_has_member (object, "expect") || json_object_has_member (object, "expectEmitted")
                             || json_object_has_member (object, "expectExactly")
                             || json_object_has_member (object, "expectEmittedExactly")
                             || json_object_has_member (object, "expectKeyboardFocus")
                             || json_object_has_member (object, "expectNotice")
                             || json_object_has_member (object, "expectAnnounced")
                             || json_object_has_member (object, "expectAccessible")
                             || json_object_has_member (object, "restart")))
        continue;
      if (!quire_session_send_node (app->session, step, error))
        {
          g_prefix_error (error, "%s: step %u: ", path, i + 1);
          return FALSE;
        }
    }
  print_state (app);
  app->printed = FALSE;
  if (screenshot != NULL)
    {
      /* A few frames: the view lays out and draws what the events changed. */
      gint64 end = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
      while (g_get_monotonic_time () < end)
        if (!g_main_context_iteration (NULL, FALSE))
          g_usleep (1000);
      if (!save_screenshot (view, screenshot, error))
        return FALSE;
    }
  gtk_window_destroy (GTK_WINDOW (app->window));
  app->window = NULL;
  g_clear_object (&app->session);
  return TRUE;
}

int
main (int argc, char **argv)
{
  App app = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) scripts = g_ptr_array_new ();
  const char *screenshot = NULL, *flow = NULL;
  gboolean replaying = FALSE, usage_error = FALSE;
  int status = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--replay") == 0)
        replaying = TRUE;
      else if (strcmp (argv[i], "--screenshot") == 0 && i + 1 < argc)
        screenshot = argv[++i];
      else if (argv[i][0] == '-')
        usage_error = TRUE;
      else if (replaying)
        g_ptr_array_add (scripts, argv[i]);
      else if (flow == NULL)
        flow = argv[i];
      else
        usage_error = TRUE;
    }
  if (usage_error || (replaying ? scripts->len == 0 || flow != NULL : flow == NULL || screenshot != NULL))
    {
      g_printerr ("usage: quire-gtk-walkthrough FLOW\n"
                  "       quire-gtk-walkthrough --replay SCRIPT... [--screenshot PNG]\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("quire-gtk-walkthrough: cannot open a display\n");
      return 3;
    }
  app.loop = g_main_loop_new (NULL, FALSE);
  if (replaying)
    {
      for (guint i = 0; i < scripts->len && status == 0; i++)
        if (!replay (&app, scripts->pdata[i], i + 1 == scripts->len ? screenshot : NULL, &error))
          status = 1;
    }
  else
    {
      app.session = quire_session_new_from_file (flow, &error);
      if (app.session == NULL)
        status = 1;
      else
        {
          g_signal_connect (app.session, "notification::completed", G_CALLBACK (on_completed), &app);
          g_signal_connect (app.session, "apply-requested", G_CALLBACK (on_apply_requested), NULL);
          open_window (&app, 800);
          show_session (&app);
          g_unix_signal_add (SIGTERM, on_terminate, &app);
          g_main_loop_run (app.loop);
          if (app.window != NULL)
            gtk_window_destroy (GTK_WINDOW (app.window));
        }
    }
  if (error != NULL)
    g_printerr ("quire-gtk-walkthrough: %s\n", error->message);
  /* The windows are gone: the views dropped their references; ours is the last. */
  g_clear_object (&app.session);
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
  g_main_loop_unref (app.loop);
  return status;
}
