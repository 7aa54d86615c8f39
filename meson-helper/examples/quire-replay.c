/* quire-replay — replays session scripts (quire.session/1) headlessly through libquire's
 * GObject layer and prints each one's final state as JSON, a line per script, in order.
 *
 *   quire-replay [--notifications] SCRIPT...
 *
 * A script's events are sent in order and `restart` snapshots the session and restores it, as
 * `quire test` does; expectations (`expect`, `expectEmitted` and their `…Exactly` forms) are not
 * checked here (compare the states with `quire test --final-states`). With --notifications, each
 * notification is printed to standard error as it is emitted. Exit codes: 0 every script
 * replayed; 2 a script, flow or event was rejected (its line is `null`, the error goes to standard
 * error, and the others still run).
 *
 * Build it with `dependency('quire')` (meson) or `pkg-config --cflags --libs quire`.
 */
#include <quire-glib.h>

#include <stdio.h>
#include <string.h>

static void
on_notification (QuireSession *session, const char *name, JsonNode *payload, gpointer user_data)
{
  g_autofree char *text = json_to_string (payload, FALSE);

  (void) session;
  (void) user_data;
  g_printerr ("%s %s\n", name, text);
}

static QuireSession *
open_session (JsonObject *script, const char *script_path, gboolean notifications, GError **error)
{
  JsonNode *flow = json_object_get_member (script, "flow");
  g_autoptr (QuireSession) session = NULL;

  if (flow == NULL)
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: the script has no flow", script_path);
      return NULL;
    }
  if (JSON_NODE_HOLDS_VALUE (flow) && json_node_get_value_type (flow) == G_TYPE_STRING)
    {
      /* A path relative to the script. */
      g_autofree char *folder = g_path_get_dirname (script_path);
      g_autofree char *path = g_build_filename (folder, json_node_get_string (flow), NULL);
      session = quire_session_new_from_file (path, error);
    }
  else
    {
      session = quire_session_new_from_node (flow, error);
    }
  if (session == NULL)
    return NULL;

  if (json_object_has_member (script, "locale")
      && !quire_session_set_locale (session, json_object_get_string_member (script, "locale"), error))
    return NULL;
  if (json_object_has_member (script, "viewport"))
    {
      JsonObject *viewport = json_object_get_object_member (script, "viewport");
      if (viewport != NULL && json_object_has_member (viewport, "width")
          && !quire_session_set_viewport_width (session, json_object_get_double_member (viewport, "width"), error))
        return NULL;
    }
  /* The answers the session starts from, and reduced motion: a front's setting. */
  if (json_object_has_member (script, "values")
      && !quire_session_set_starting_values_node (session, json_object_get_member (script, "values"), error))
    return NULL;
  quire_session_set_reduced_motion (session, json_object_get_boolean_member_with_default (script, "reducedMotion", FALSE));
  if (notifications)
    g_signal_connect (session, "notification", G_CALLBACK (on_notification), NULL);
  return g_steal_pointer (&session);
}

/* Snapshots the session and restores it: the new session goes on in its place. */
static gboolean
restart (QuireSession **session, gboolean notifications, GError **error)
{
  g_autofree char *snapshot = quire_session_snapshot_json (*session);
  QuireSession *restored = quire_session_restore (snapshot, error);

  if (restored == NULL)
    return FALSE;
  /* A snapshot does not hold reduced motion (the front's setting): the front sets it again. */
  quire_session_set_reduced_motion (restored, quire_session_get_reduced_motion (*session));
  if (notifications)
    g_signal_connect (restored, "notification", G_CALLBACK (on_notification), NULL);
  g_object_unref (*session);
  *session = restored;
  return TRUE;
}

static gboolean
replay (const char *script_path, gboolean notifications, GError **error)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (QuireSession) session = NULL;
  g_autofree char *state = NULL;
  JsonObject *script;
  JsonArray *steps;
  guint count;

  if (!json_parser_load_from_file (parser, script_path, error))
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: not a session script", script_path);
      return FALSE;
    }
  script = json_node_get_object (json_parser_get_root (parser));
  if (g_strcmp0 (json_object_get_string_member_with_default (script, "format", ""), "quire.session/1") != 0)
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: not a quire.session/1 script", script_path);
      return FALSE;
    }
  steps = json_object_get_array_member (script, "steps");
  if (steps == NULL)
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: the script has no steps", script_path);
      return FALSE;
    }

  session = open_session (script, script_path, notifications, error);
  if (session == NULL)
    return FALSE;

  count = json_array_get_length (steps);
  for (guint i = 0; i < count; i++)
    {
      JsonNode *step = json_array_get_element (steps, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (step) ? json_node_get_object (step) : NULL;

      if (object != NULL && (json_object_has_member (object, "expect") || json_object_has_member (object, "expectEmitted")
                             || json_object_has_member (object, "expectExactly") || json_object_has_member (object, "expectEmittedExactly")
                             || json_object_has_member (object, "expectKeyboardFocus")
                             || json_object_has_member (object, "expectNotice")
                             || json_object_has_member (object, "expectAnnounced")
                             || json_object_has_member (object, "expectAccessible")))
        continue;
      if (object != NULL && json_object_has_member (object, "restart"))
        {
          if (!restart (&session, notifications, error))
            return FALSE;
          continue;
        }
      if (!quire_session_send_node (session, step, error))
        {
          g_prefix_error (error, "%s: step %u: ", script_path, i + 1);
          return FALSE;
        }
    }

  state = quire_session_get_state_json (session);
  printf ("%s\n", state);
  return TRUE;
}

int
main (int argc, char **argv)
{
  gboolean notifications = FALSE;
  gboolean usage_error = FALSE;
  int status = 0;
  int scripts = 0;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--notifications") == 0)
        notifications = TRUE;
      else if (argv[i][0] == '-')
        usage_error = TRUE;
      else
        scripts++;
    }
  if (scripts == 0 || usage_error)
    {
      g_printerr ("usage: quire-replay [--notifications] SCRIPT...\n");
      return 2;
    }
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GError) error = NULL;

      if (argv[i][0] == '-')
        continue;
      if (!replay (argv[i], notifications, &error))
        {
          g_printerr ("quire-replay: %s\n", error->message);
          printf ("null\n");
          status = 2;
        }
    }
  return status;
}
