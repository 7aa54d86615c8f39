/* quire-api-checks — the C API and the GObject layer at their edges, as a GLib test program:
 * NULL arguments, text that is not JSON or not UTF-8, events after completion, observers and
 * signal handlers that send events or free the session, sessions freed while observed. Every
 * case is an error, a documented no-op or a notification — never a crash. The embedding test
 * runs it under valgrind, built against the installed library.
 *
 *   quire-api-checks FLOW          (FLOW: data/flows/focus-onboarding.json)
 */
#include <quire-glib.h>

#include <malloc.h>
#include <string.h>

static const char *flow_path;

/* --- the C API ----------------------------------------------------------------------------- */

typedef struct {
  GPtrArray *notifications; /* of char * */
  int destroyed;
  /* What the callback does after recording (0: nothing). */
  enum { ACT_NONE, ACT_FREE, ACT_SEND, ACT_REPLACE } act;
  gboolean acted;
} Recorder;

static Recorder *
recorder_new (void)
{
  Recorder *recorder = g_new0 (Recorder, 1);
  recorder->notifications = g_ptr_array_new_with_free_func (g_free);
  return recorder;
}

static void
recorder_free (Recorder *recorder)
{
  g_ptr_array_unref (recorder->notifications);
  g_free (recorder);
}

static void
count_destroy (void *user_data)
{
  ((Recorder *) user_data)->destroyed++;
}

static void
record (QuireEngine *engine, const char *notification_json, void *user_data)
{
  Recorder *recorder = user_data;

  g_assert_nonnull (engine);
  g_ptr_array_add (recorder->notifications, g_strdup (notification_json));
  if (recorder->acted)
    return;
  recorder->acted = TRUE;
  switch (recorder->act)
    {
    case ACT_FREE:
      quire_engine_free (engine);
      /* Freed: the engine now answers as NULL until the outer send returns. */
      g_assert_null (quire_engine_get_state (engine));
      break;
    case ACT_SEND:
      g_assert_true (quire_engine_send (engine, "{\"key\": \"Escape\"}", NULL));
      break;
    case ACT_REPLACE:
      g_assert_false (quire_engine_set_observer (engine, NULL, NULL, NULL));
      break;
    case ACT_NONE:
      break;
    }
}

static QuireEngine *
demo_engine (void)
{
  QuireEngineError *error = NULL;
  QuireEngine *engine = quire_engine_new_from_file (flow_path, &error);

  g_assert_null (error);
  g_assert_nonnull (engine);
  return engine;
}

/* Asserts that `error` holds `code`, and frees it. */
static void
assert_engine_error (QuireEngineError **error, QuireEngineErrorCode code)
{
  g_assert_nonnull (*error);
  g_assert_cmpint ((*error)->code, ==, code);
  g_assert_nonnull ((*error)->message);
  g_assert_true (g_utf8_validate ((*error)->message, -1, NULL));
  quire_engine_error_free (*error);
  *error = NULL;
}

static void
test_engine_null_arguments (void)
{
  QuireEngineError *error = NULL;
  QuireEngine *engine = demo_engine ();
  Recorder *recorder = recorder_new ();

  g_assert_null (quire_engine_new_from_file (NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_null (quire_engine_new_from_json (NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_null (quire_engine_restore (NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_send (NULL, "{\"tap\": \"button:next\"}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_send (engine, NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_locale (NULL, "en", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_locale (engine, NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_viewport_width (NULL, 100, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  /* A NULL error location is fine everywhere. */
  g_assert_null (quire_engine_new_from_file (NULL, NULL));
  g_assert_false (quire_engine_send (NULL, NULL, NULL));

  g_assert_null (quire_engine_get_state (NULL));
  g_assert_null (quire_engine_get_presentation (NULL));
  g_assert_null (quire_engine_get_page_presentation (NULL, 0));
  g_assert_null (quire_engine_snapshot (NULL));
  g_assert_cmpint (quire_engine_get_page_index (NULL), ==, -1);
  g_assert_cmpint (quire_engine_get_page_count (NULL), ==, -1);
  g_assert_null (quire_engine_get_page_id (NULL));
  g_assert_null (quire_engine_get_focus (NULL));
  g_assert_false (quire_engine_is_completed (NULL));
  g_assert_null (quire_engine_get_outcome (NULL));
  g_assert_null (quire_engine_get_result (NULL));
  g_assert_null (quire_engine_get_locale (NULL));
  g_assert_cmpfloat (quire_engine_get_viewport_width (NULL), ==, 0);

  /* User data handed over with no engine is released at once. */
  g_assert_false (quire_engine_set_observer (NULL, record, recorder, count_destroy));
  g_assert_cmpint (recorder->destroyed, ==, 1);

  quire_engine_free (NULL);
  quire_engine_error_free (NULL);
  quire_free (NULL);
  quire_engine_free (engine);
  recorder_free (recorder);
}

static void
test_engine_invalid_json (void)
{
  QuireEngineError *error = NULL;
  QuireEngine *engine = demo_engine ();
  char *before = quire_engine_get_state (engine);
  char *after;
  const char not_utf8[] = { '{', '"', 't', 'a', 'p', '"', ':', '"', (char) 0xC3, '"', '}', 0 };
  GString *deep = g_string_new (NULL);

  g_assert_null (quire_engine_new_from_json ("{\"format\": ", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);
  g_assert_null (quire_engine_new_from_json ("{\"format\": \"quire.flow/1\"}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_FLOW);
  g_assert_null (quire_engine_new_from_file ("/nonexistent/flow.json", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_FILE);
  g_assert_null (quire_engine_restore ("nope", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);
  g_assert_null (quire_engine_restore ("{\"format\": \"quire.snapshot/1\"}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT);

  g_assert_false (quire_engine_send (engine, "{\"tap\": ", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);
  g_assert_false (quire_engine_send (engine, "[]", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_EVENT);
  g_assert_false (quire_engine_send (engine, "{\"tick\": -1}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_EVENT);
  g_assert_false (quire_engine_send (engine, "{\"spin\": {\"component\": \"minutes\", \"by\": 1e300}}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_EVENT);
  g_assert_false (quire_engine_send (engine, not_utf8, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  for (int i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_assert_false (quire_engine_send (engine, deep->str, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);
  g_assert_false (quire_engine_set_viewport_width (engine, 0.0 / 0.0, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_locale (engine, "", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);

  /* The first error wins; a second failure leaves it alone. */
  g_assert_null (quire_engine_new_from_json ("{", &error));
  g_assert_null (quire_engine_new_from_file (NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);

  after = quire_engine_get_state (engine);
  g_assert_cmpstr (before, ==, after);
  quire_free (before);
  quire_free (after);
  g_string_free (deep, TRUE);
  quire_engine_free (engine);
}

static void
test_engine_events_after_completion (void)
{
  QuireEngine *engine = demo_engine ();
  Recorder *recorder = recorder_new ();
  char *state;
  char *again;
  char *outcome;

  g_assert_true (quire_engine_set_observer (engine, record, recorder, count_destroy));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:cancel\"}", NULL));
  g_assert_true (quire_engine_is_completed (engine));
  outcome = quire_engine_get_outcome (engine);
  g_assert_cmpstr (outcome, ==, "cancelled");
  state = quire_engine_get_state (engine);
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"type\": \"x\"}", NULL));
  g_assert_cmpuint (recorder->notifications->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 0), ==, "{\"completed\":{\"outcome\":\"cancelled\"}}");
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 1), ==,
                   "{\"ignored\":{\"event\":\"tap\",\"target\":\"button:next\",\"reason\":\"completed\"}}");
  again = quire_engine_get_state (engine);
  g_assert_cmpstr (state, ==, again);
  quire_free (state);
  quire_free (again);
  quire_free (outcome);
  quire_engine_free (engine);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder_free (recorder);
}

/* Announcements (CONTRACT §6.4): "priority: text" as the announcer was told them. */
static void
record_announcement (QuireEngine *engine, const char *text, const char *priority, void *user_data)
{
  Recorder *recorder = user_data;

  g_assert_nonnull (engine);
  g_ptr_array_add (recorder->notifications, g_strdup_printf ("%s: %s", priority, text));
}

static void
test_engine_announcer (void)
{
  QuireEngine *engine = demo_engine ();
  Recorder *recorder = recorder_new ();
  Recorder *observed = recorder_new ();

  g_assert_false (quire_engine_set_announcer (NULL, record_announcement, recorder, count_destroy));
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder->destroyed = 0;
  g_assert_true (quire_engine_set_observer (engine, record, observed, NULL));
  g_assert_true (quire_engine_set_announcer (engine, record_announcement, recorder, count_destroy));
  /* Skip refused for the name on page 2 (out of sight): the notice's sentence, assertive. */
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:skip\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"settle\": true}", NULL));
  /* Next refused on the page itself: its first error. Typing announces nothing. */
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"userName\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"type\": \"Aki\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:cancel\"}", NULL));
  g_assert_cmpuint (recorder->notifications->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 0), ==,
                   "assertive: Name is required \u2014 on page 2, About you");
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 1), ==, "polite: About you, page 2 of 5");
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 2), ==, "assertive: Name: Required");
  g_assert_cmpstr (g_ptr_array_index (recorder->notifications, 3), ==, "polite: Cancelled");
  /* After the event's notifications: the observer saw `completed` before the announcer ran. */
  g_assert_cmpuint (observed->notifications->len, >, 0);
  /* Removed: its user data released once, nothing more announced. */
  g_assert_false (quire_engine_set_announcer (engine, NULL, NULL, NULL));
  g_assert_cmpint (recorder->destroyed, ==, 1);
  quire_engine_free (engine);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder_free (recorder);
  recorder_free (observed);
}

static void
test_engine_freed_while_observed (void)
{
  QuireEngine *engine = demo_engine ();
  Recorder *first = recorder_new ();
  Recorder *second = recorder_new ();

  g_assert_true (quire_engine_set_observer (engine, record, first, count_destroy));
  g_assert_true (quire_engine_set_observer (engine, record, second, count_destroy));
  g_assert_cmpint (first->destroyed, ==, 1);
  g_assert_true (quire_engine_send (engine, "{\"swipe\": \"next\"}", NULL));
  quire_engine_free (engine);
  g_assert_cmpint (second->destroyed, ==, 1);
  g_assert_cmpuint (second->notifications->len, >, 0);
  g_assert_cmpuint (first->notifications->len, ==, 0);
  recorder_free (first);
  recorder_free (second);
}

static void
test_engine_observer_frees_sends_replaces (void)
{
  QuireEngine *engine = demo_engine ();
  Recorder *recorder = recorder_new ();

  /* Frees the engine from inside: the rest is dropped, the notifier runs after the callback. */
  recorder->act = ACT_FREE;
  g_assert_true (quire_engine_set_observer (engine, record, recorder, count_destroy));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpuint (recorder->notifications->len, ==, 1);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder_free (recorder);

  /* Sends from inside: its notifications arrive inside. */
  engine = demo_engine ();
  recorder = recorder_new ();
  recorder->act = ACT_SEND;
  g_assert_true (quire_engine_set_observer (engine, record, recorder, count_destroy));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  /* pageWillChange (the animation has begun), then the Escape's ignored. */
  g_assert_cmpuint (recorder->notifications->len, ==, 2);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (recorder->notifications, 1), "{\"ignored\""));
  quire_engine_free (engine);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder_free (recorder);

  /* Removes itself from inside: no more notifications, the notifier runs once. */
  engine = demo_engine ();
  recorder = recorder_new ();
  recorder->act = ACT_REPLACE;
  g_assert_true (quire_engine_set_observer (engine, record, recorder, count_destroy));
  g_assert_true (quire_engine_send (engine, "{\"swipe\": \"next\"}", NULL));
  g_assert_cmpuint (recorder->notifications->len, ==, 1);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  quire_engine_free (engine);
  g_assert_cmpint (recorder->destroyed, ==, 1);
  recorder_free (recorder);
}

static void
test_engine_snapshot_round_trip (void)
{
  QuireEngine *engine = demo_engine ();
  QuireEngine *restored;
  char *snapshot;
  char *state;
  char *restored_state;
  char *presentation;

  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_engine_send (engine, "{\"tick\": 100}", NULL));
  g_assert_true (quire_engine_set_locale (engine, "ja", NULL));
  snapshot = quire_engine_snapshot (engine);
  restored = quire_engine_restore (snapshot, NULL);
  g_assert_nonnull (restored);
  state = quire_engine_get_state (engine);
  restored_state = quire_engine_get_state (restored);
  g_assert_cmpstr (state, ==, restored_state);
  presentation = quire_engine_get_presentation (restored);
  g_assert_nonnull (strstr (presentation, "ようこそ"));
  quire_free (snapshot);
  quire_free (state);
  quire_free (restored_state);
  quire_free (presentation);
  quire_engine_free (engine);
  quire_engine_free (restored);
}

/* --- the GObject layer --------------------------------------------------------------------- */

static QuireSession *
demo_session (void)
{
  g_autoptr (GError) error = NULL;
  QuireSession *session = quire_session_new_from_file (flow_path, &error);

  g_assert_no_error (error);
  g_assert_true (QUIRE_IS_SESSION (session));
  return session;
}

static void
on_notification_count (QuireSession *session, const char *name, JsonNode *payload, gpointer user_data)
{
  (void) session;
  g_assert_nonnull (name);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (payload));
  (*(int *) user_data)++;
}

static void
test_session_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (QuireSession) session = demo_session ();
  g_autoptr (JsonNode) array = json_node_new (JSON_NODE_ARRAY);

  g_assert_null (quire_session_new_from_json (NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (quire_session_new_from_json ("{", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_JSON);
  g_clear_error (&error);
  g_assert_null (quire_session_new_from_node (NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (quire_session_new_from_file ("/nonexistent", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_FILE);
  g_clear_error (&error);
  g_assert_null (quire_session_restore ("{}", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_SNAPSHOT);
  g_clear_error (&error);

  g_assert_false (quire_session_send (session, NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (quire_session_send (session, "{\"tapp\": \"x\"}", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_EVENT);
  g_assert_nonnull (strstr (error->message, "did you mean 'tap'?"));
  g_clear_error (&error);
  json_node_take_array (array, json_array_new ());
  g_assert_false (quire_session_send_node (session, array, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_EVENT);
  g_clear_error (&error);
  g_assert_false (quire_session_send_node (session, NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (quire_session_set_viewport_width (session, -1, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_cmpint (quire_session_get_page_index (session), ==, 0);
}

static void
count_notify (GObject *object, GParamSpec *pspec, gpointer user_data)
{
  (void) object;
  g_ptr_array_add (user_data, g_strdup (pspec->name));
}

static void
on_completed_read_outcome (QuireSession *session, const char *name, JsonNode *payload, gpointer user_data)
{
  (void) name;
  (void) payload;
  /* The event is applied before its notifications: the properties are already the new ones. */
  g_assert_true (quire_session_get_completed (session));
  *(char **) user_data = g_strdup (quire_session_get_outcome (session));
}

static void
test_session_signals_and_properties (void)
{
  QuireSession *session = demo_session ();
  g_autoptr (GPtrArray) notified = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (JsonNode) result = NULL;
  g_autoptr (JsonNode) state = NULL;
  int all = 0;
  int completed = 0;
  g_autofree char *outcome_in_handler = NULL;

  g_signal_connect (session, "notification", G_CALLBACK (on_notification_count), &all);
  g_signal_connect (session, "notification::completed", G_CALLBACK (on_notification_count), &completed);
  g_signal_connect (session, "notify", G_CALLBACK (count_notify), notified);
  g_signal_connect (session, "notification::completed", G_CALLBACK (on_completed_read_outcome), &outcome_in_handler);

  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_session_send (session, "{\"settle\": true}", NULL));
  g_assert_cmpint (all, ==, 2);
  g_assert_cmpint (quire_session_get_page_index (session), ==, 1);
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "profile");
  g_assert_true (g_ptr_array_find_with_equal_func (notified, "page-index", g_str_equal, NULL));
  g_assert_true (g_ptr_array_find_with_equal_func (notified, "page-id", g_str_equal, NULL));

  g_assert_true (quire_session_send (session, "{\"tap\": \"userName\"}", NULL));
  g_assert_cmpstr (quire_session_get_focus (session), ==, "userName");
  g_assert_true (quire_session_send (session, "{\"type\": \"Aki\"}", NULL));

  /* Events after completion are ignored notifications, not errors. */
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:cancel\"}", NULL));
  g_assert_true (quire_session_get_completed (session));
  g_assert_cmpstr (quire_session_get_outcome (session), ==, "cancelled");
  g_assert_cmpint (completed, ==, 1);
  g_assert_cmpstr (outcome_in_handler, ==, "cancelled");
  all = 0;
  g_assert_true (quire_session_send (session, "{\"key\": \"Tab\"}", NULL));
  g_assert_cmpint (all, ==, 1);
  g_assert_cmpint (completed, ==, 1);

  result = quire_session_get_result (session);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (result), "outcome"), ==, "cancelled");
  state = quire_session_get_state (session);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (state));

  /* Freed with its handlers connected: they go with it. */
  g_assert_finalize_object (session);
}

typedef struct
{
  int requests;
  char *page;
  GCancellable *cancellable;
  char *userName;
} ApplySeen;

static void
on_apply_requested (QuireSession *session, const char *page, JsonNode *values, GCancellable *cancellable,
                    gpointer user_data)
{
  ApplySeen *seen = user_data;

  (void) session;
  seen->requests++;
  g_free (seen->page);
  seen->page = g_strdup (page);
  g_clear_object (&seen->cancellable);
  seen->cancellable = g_object_ref (cancellable);
  g_free (seen->userName);
  seen->userName = g_strdup (json_object_get_string_member (json_node_get_object (values), "userName"));
}

static JsonNode *
state_member (QuireSession *session, const char *name)
{
  g_autoptr (JsonNode) state = quire_session_get_state (session);
  return json_node_copy (json_object_get_member (json_node_get_object (state), name));
}

/* Issue 37: the app demo's last page applies. apply-requested hands the page, the values and a
 * cancellable; Cancel stops the apply and cancels it; apply_finish with errors or a message
 * keeps the page; with none, the move happens, to a page with no way back. */
static void
test_session_apply (void)
{
  /* The app's demo: the demo flow with an apply on its last page, beside it. */
  g_autofree char *folder = g_path_get_dirname (flow_path);
  g_autofree char *app_flow = g_build_filename (folder, "focus-app.json", NULL);
  QuireSession *session = quire_session_new_from_file (app_flow, NULL);
  ApplySeen seen = { 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonNode) applying = NULL;
  g_autoptr (JsonNode) errors = NULL;

  g_signal_connect (session, "apply-requested", G_CALLBACK (on_apply_requested), &seen);
  g_assert_true (quire_session_set_starting_values (session, "{\"userName\": \"Aki\"}", NULL));
  g_assert_false (quire_session_apply_cancel (session));
  g_assert_true (quire_session_send (session, "{\"tap\": \"indicator:4\"}", NULL));
  g_assert_true (quire_session_send (session, "{\"settle\": true}", NULL));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "finish");
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpint (seen.requests, ==, 1);
  g_assert_cmpstr (seen.page, ==, "finish");
  g_assert_cmpstr (seen.userName, ==, "Aki");
  g_assert_false (g_cancellable_is_cancelled (seen.cancellable));
  applying = state_member (session, "applying");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (applying));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "finish");

  /* The user stops it: the cancellable is cancelled, the session stays. */
  g_assert_true (quire_session_apply_cancel (session));
  g_assert_true (g_cancellable_is_cancelled (seen.cancellable));
  g_assert_false (quire_session_get_completed (session));
  g_assert_false (quire_session_apply_cancel (session));

  /* Bad errors JSON is the caller's error. */
  g_assert_false (quire_session_apply_finish (session, "finish", "[1]", NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_EVENT);
  g_clear_error (&error);

  /* Again; the host refuses, with its own code on a field not on the page (ignored: the apply
   * goes on), then with a page message. */
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpint (seen.requests, ==, 2);
  g_assert_true (quire_session_apply_finish (session, "finish", "{\"userName\": \"taken\"}", NULL, NULL));
  g_clear_pointer (&applying, json_node_unref);
  applying = state_member (session, "applying");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (applying));
  g_assert_true (quire_session_apply_finish (session, "finish", NULL, "The disk is full.", NULL));
  g_clear_pointer (&applying, json_node_unref);
  applying = state_member (session, "applying");
  g_assert_true (JSON_NODE_HOLDS_NULL (applying));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "finish");

  /* Accepted: the move happens, once; from the saved page there is no way back. */
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_session_apply_finish (session, "finish", NULL, NULL, NULL));
  g_assert_true (quire_session_send (session, "{\"settle\": true}", NULL));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "saved");
  g_assert_true (quire_session_apply_finish (session, "finish", NULL, NULL, NULL));
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:back\"}", NULL));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "saved");
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:finish\"}", NULL));
  g_assert_true (quire_session_get_completed (session));
  g_assert_cmpstr (quire_session_get_outcome (session), ==, "finished");
  errors = state_member (session, "errors");
  g_assert_cmpint (json_object_get_size (json_node_get_object (errors)), ==, 0);

  g_assert_finalize_object (session);
  g_free (seen.page);
  g_free (seen.userName);
  g_clear_object (&seen.cancellable);
}

static void
free_counter (gpointer data, GClosure *closure)
{
  (void) closure;
  g_free (data);
}

static void
release_flag (gpointer data, GClosure *closure)
{
  (void) closure;
  *(gboolean *) data = TRUE;
}

static void
on_notification_unref (QuireSession *session, const char *name, JsonNode *payload, gpointer user_data)
{
  gulong *handler = user_data;

  (void) name;
  (void) payload;
  /* Drops the caller's reference: the send in progress keeps the session alive. */
  g_signal_handler_disconnect (session, *handler);
  g_object_unref (session);
}

static void
on_announce (QuireSession *session, const char *text, const char *priority, GPtrArray *said)
{
  g_assert_true (QUIRE_IS_SESSION (session));
  g_ptr_array_add (said, g_strdup_printf ("%s: %s", priority, text));
}

static void
test_session_announce (void)
{
  QuireSession *session = demo_session ();
  g_autoptr (GPtrArray) said = g_ptr_array_new_with_free_func (g_free);

  g_signal_connect (session, "announce", G_CALLBACK (on_announce), said);
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_true (quire_session_send (session, "{\"settle\": true}", NULL));
  g_assert_true (quire_session_send (session, "{\"tap\": \"userName\"}", NULL));
  /* Tab past the empty required name: its error revealed where focus no longer is. */
  g_assert_true (quire_session_send (session, "{\"key\": \"Tab\"}", NULL));
  g_assert_cmpuint (said->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (said, 0), ==, "polite: About you, page 2 of 5");
  g_assert_cmpstr (g_ptr_array_index (said, 1), ==, "polite: Name: Required");
  g_object_unref (session);
}

static void
test_session_freed_while_observed (void)
{
  QuireSession *session = demo_session ();
  gboolean released = FALSE;
  GWeakRef weak;
  gulong handler;

  /* A handler with data and a destroy notifier: finalizing the session releases it. */
  g_signal_connect_data (session, "notification", G_CALLBACK (on_notification_count),
                         g_new0 (int, 1), free_counter, 0);
  g_signal_connect_data (session, "notification", G_CALLBACK (on_notification_count), &released,
                         release_flag, 0);
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_object_unref (session);
  g_assert_true (released);

  /* The last reference dropped inside a handler, during a send. */
  session = demo_session ();
  g_weak_ref_init (&weak, session);
  handler = g_signal_connect (session, "notification", G_CALLBACK (on_notification_unref), &handler);
  g_assert_true (quire_session_send (session, "{\"swipe\": \"next\"}", NULL));
  g_assert_null (g_weak_ref_get (&weak));
  g_weak_ref_clear (&weak);
}

static void
test_session_json_nodes_and_restore (void)
{
  g_autoptr (QuireSession) session = demo_session ();
  g_autoptr (QuireSession) restored = NULL;
  g_autoptr (JsonNode) event = json_from_string ("{\"tap\": \"button:next\"}", NULL);
  g_autoptr (JsonNode) snapshot = NULL;
  g_autoptr (JsonNode) page = NULL;
  g_autofree char *state = NULL;
  g_autofree char *restored_state = NULL;
  g_autoptr (GError) error = NULL;

  g_assert_true (quire_session_send_node (session, event, &error));
  g_assert_no_error (error);
  g_object_set (session, "locale", "ja", "viewport-width", 400.0, NULL);
  snapshot = quire_session_snapshot (session);
  restored = quire_session_restore_from_node (snapshot, &error);
  g_assert_no_error (error);
  state = quire_session_get_state_json (session);
  restored_state = quire_session_get_state_json (restored);
  g_assert_cmpstr (state, ==, restored_state);
  g_assert_cmpstr (quire_session_get_locale (restored), ==, "ja");
  g_assert_cmpfloat (quire_session_get_viewport_width (restored), ==, 400.0);
  page = quire_session_get_page_presentation (restored, 1);
  g_assert_cmpstr (json_object_get_string_member (json_node_get_object (page), "title"), ==, "あなたについて");
  g_assert_null (quire_session_get_page_presentation (restored, 99));
}

/* g_object_new() (GtkBuilder, language bindings): exactly one of flow-file, flow-json and
 * restore-snapshot gives a working session; none, several or one that fails give a critical
 * naming the property and the reason, and a session without a flow, on which every call is
 * a critical and does nothing. */
static void
test_session_construct_properties (void)
{
  g_autoptr (QuireSession) from_file = NULL;
  g_autoptr (QuireSession) from_json = NULL;
  g_autoptr (QuireSession) restored = NULL;
  g_autoptr (QuireSession) empty = NULL;
  g_autoptr (QuireSession) bad = NULL;
  g_autofree char *snapshot = NULL;
  g_autofree char *state = NULL;
  g_autofree char *restored_state = NULL;

  from_file = g_object_new (QUIRE_TYPE_SESSION, "flow-file", flow_path, "locale", "ja", NULL);
  g_assert_cmpint (quire_session_get_page_count (from_file), >, 1);
  g_assert_cmpstr (quire_session_get_locale (from_file), ==, "ja");
  g_assert_true (quire_session_send (from_file, "{\"tap\": \"button:next\"}", NULL));
  snapshot = quire_session_snapshot_json (from_file);
  restored = g_object_new (QUIRE_TYPE_SESSION, "restore-snapshot", snapshot, NULL);
  state = quire_session_get_state_json (from_file);
  restored_state = quire_session_get_state_json (restored);
  g_assert_cmpstr (state, ==, restored_state);
  from_json = g_object_new (QUIRE_TYPE_SESSION, "flow-json",
                            "{\"format\": \"quire.flow/1\", \"id\": \"x\", \"title\": \"X\", \"pages\": [{\"id\": \"a\", \"title\": \"A\"}]}", NULL);
  g_assert_cmpstr (quire_session_get_page_id (from_json), ==, "a");

  /* Errors name the function the caller called, not the C API's behind it. */
  {
    g_autoptr (GError) error = NULL;
    g_assert_false (quire_session_send (from_json, NULL, &error));
    g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
    g_assert_cmpstr (error->message, ==, "quire_session_send: event_json is NULL");
    g_clear_error (&error);
    g_assert_false (quire_session_set_viewport_width (from_json, 0, &error));
    g_assert_true (g_str_has_prefix (error->message, "quire_session_set_viewport_width: width must be"));
  }

  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "QuireSession: give exactly one of the flow-file, flow-json and restore-snapshot properties*0 given*");
  empty = g_object_new (QUIRE_TYPE_SESSION, NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "*quire_session_has_flow*");
  g_assert_false (quire_session_send (empty, "{\"tap\": \"button:next\"}", NULL));
  g_test_assert_expected_messages ();
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "QuireSession:flow-json: <flow>:1:*(this session has no flow)");
  bad = g_object_new (QUIRE_TYPE_SESSION, "flow-json", "{not json", NULL);
  g_test_assert_expected_messages ();
}

/* Starting values and reduced motion: the settings a session script's top-level `values` and
 * `reducedMotion` give. */
static void
test_engine_starting_values (void)
{
  QuireEngineError *error = NULL;
  QuireEngine *engine = demo_engine ();
  QuireEngine *restored = NULL;
  char *text = NULL;

  g_assert_cmpint (quire_engine_get_page_count (engine), ==, 5);
  g_assert_false (quire_engine_set_starting_values (NULL, "{}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_starting_values (engine, NULL, &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_set_starting_values (engine, "{\"userName\": ", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_JSON);
  g_assert_false (quire_engine_set_starting_values (engine, "[]", &error));
  g_assert_cmpstr (error->message, ==, "<values>:1:1: $: values must be an object, not an array");
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_VALUES);
  /* Every problem, one a line, each where it is and why (as `quire test` says it of a script's
   * `values`); nothing is set. */
  g_assert_false (quire_engine_set_starting_values (
    engine, "{\"nope\": 1, \"userName\": 5, \"feedLanguage\": \"xx\", \"reminders\": false}", &error));
  g_assert_cmpstr (error->message, ==,
                   "<values>:1:2: $.nope: the flow has no field 'nope'\n"
                   "<values>:1:25: $.userName: 5 is not a value the text field 'userName' can hold\n"
                   "<values>:1:44: $.feedLanguage: \"xx\" is not a value the choice field 'feedLanguage' can hold");
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_VALUES);
  g_assert_cmpint (quire_engine_get_page_count (engine), ==, 5);

  /* Set: the answers are the session's from the start; reminders off hides its page. */
  g_assert_true (quire_engine_set_locale (engine, "ja", NULL));
  g_assert_true (quire_engine_set_starting_values (engine, "{\"userName\": \"Aki\", \"reminders\": false, \"remindAfter\": null}", &error));
  g_assert_null (error);
  g_assert_cmpint (quire_engine_get_page_count (engine), ==, 4);
  text = quire_engine_get_state (engine);
  g_assert_nonnull (strstr (text, "\"userName\":\"Aki\""));
  g_assert_nonnull (strstr (text, "\"remindAfter\":null"));
  g_assert_nonnull (strstr (text, "\"errors\":{}"));
  quire_free (text);
  text = quire_engine_get_locale (engine);
  g_assert_cmpstr (text, ==, "ja");
  quire_free (text);

  /* Reduced motion: a move lands at once, with no tick; the snapshot does not hold it. */
  g_assert_false (quire_engine_get_reduced_motion (engine));
  quire_engine_set_reduced_motion (engine, true);
  g_assert_true (quire_engine_get_reduced_motion (engine));
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpint (quire_engine_get_page_index (engine), ==, 1);

  /* Once started (or restored), the starting values are fixed. */
  g_assert_false (quire_engine_set_starting_values (engine, "{}", &error));
  g_assert_nonnull (strstr (error->message, "before the first event"));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  text = quire_engine_snapshot (engine);
  restored = quire_engine_restore (text, NULL);
  quire_free (text);
  g_assert_false (quire_engine_get_reduced_motion (restored));
  g_assert_false (quire_engine_set_starting_values (restored, "{}", &error));
  assert_engine_error (&error, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_false (quire_engine_get_reduced_motion (NULL));
  quire_engine_set_reduced_motion (NULL, true);
  quire_engine_free (restored);
  quire_engine_free (engine);

  /* Without reduced motion, the same tap starts a transition that ticks complete. */
  engine = demo_engine ();
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpint (quire_engine_get_page_index (engine), ==, 0);
  quire_engine_free (engine);
}

static void
test_session_starting_values_and_reduced_motion (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (QuireSession) session = demo_session ();
  g_autoptr (QuireSession) built = NULL;
  g_autoptr (QuireSession) bad = NULL;
  g_autoptr (GPtrArray) notified = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (JsonNode) values = json_from_string ("{\"reminders\": false}", NULL);
  g_autoptr (JsonNode) state = NULL;
  gboolean reduced = FALSE;

  g_assert_false (quire_session_set_starting_values (session, NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "quire_session_set_starting_values: values_json is NULL");
  g_clear_error (&error);
  g_assert_false (quire_session_set_starting_values (session, "{\"userName\": \"Aki\", \"nope\": 1}", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_VALUES);
  g_assert_cmpstr (error->message, ==, "<values>:1:21: $.nope: the flow has no field 'nope'");
  g_clear_error (&error);
  g_assert_false (quire_session_set_starting_values_node (session, NULL, &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* Set: notify for what changed (reminders off hides a page). */
  g_signal_connect (session, "notify", G_CALLBACK (count_notify), notified);
  g_assert_true (quire_session_set_starting_values_node (session, values, &error));
  g_assert_no_error (error);
  g_assert_cmpint (quire_session_get_page_count (session), ==, 4);
  g_assert_cmpuint (notified->len, ==, 1);
  g_assert_cmpstr (notified->pdata[0], ==, "page-count");
  quire_session_set_reduced_motion (session, TRUE);
  quire_session_set_reduced_motion (session, TRUE);
  g_assert_cmpuint (notified->len, ==, 2);
  g_assert_cmpstr (notified->pdata[1], ==, "reduced-motion");
  g_object_get (session, "reduced-motion", &reduced, NULL);
  g_assert_true (reduced);
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  g_assert_cmpstr (quire_session_get_page_id (session), ==, "profile");
  g_assert_false (quire_session_set_starting_values (session, "{}", &error));
  g_assert_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message, "quire_session_set_starting_values: the session has already started"));
  g_clear_error (&error);

  /* From g_object_new (GtkBuilder, Python's Quire.Session(…)): construct properties. */
  built = g_object_new (QUIRE_TYPE_SESSION, "flow-file", flow_path, "reduced-motion", TRUE,
                        "starting-values", "{\"userName\": \"Aki\", \"focusTime\": 2700}", NULL);
  g_assert_true (quire_session_get_reduced_motion (built));
  state = quire_session_get_state (built);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (json_node_get_object (state), "values"), "userName"), ==, "Aki");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (state), "values"), "focusTime"), ==, 2700);
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL,
                         "QuireSession:starting-values: <values>:1:15: $.focusTime: 99999 is not a value the duration field 'focusTime' can hold (this session has no flow)");
  bad = g_object_new (QUIRE_TYPE_SESSION, "flow-file", flow_path, "starting-values", "{\"focusTime\": 99999}", NULL);
  g_test_assert_expected_messages ();
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "*quire_session_has_flow*");
  g_assert_false (quire_session_get_reduced_motion (bad));
  g_test_assert_expected_messages ();
}

/* An engine or a session belongs to the thread that created it: a call from another thread is
 * refused with a critical (and a GError-style error where the function takes one), and the
 * engine is left as it was. */
static gpointer
send_from_another_thread (gpointer data)
{
  QuireEngineError *error = NULL;
  gboolean sent = quire_engine_send (data, "{\"tap\": \"button:next\"}", &error);

  g_assert_false (sent);
  g_assert_nonnull (error);
  g_assert_cmpint (error->code, ==, QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "a thread other than the one that created it"));
  quire_engine_error_free (error);
  g_assert_cmpint (quire_engine_get_page_index (data), ==, -1);
  quire_engine_free (data);   /* refused too: the engine stays the owner's */
  return NULL;
}

static gpointer
session_from_another_thread (gpointer data)
{
  g_assert_false (quire_session_send (data, "{\"tap\": \"button:next\"}", NULL));
  return NULL;
}

static void
test_owner_thread (void)
{
  QuireEngine *engine = quire_engine_new_from_file (flow_path, NULL);
  g_autoptr (QuireSession) session = quire_session_new_from_file (flow_path, NULL);
  GThread *thread;

  g_assert_nonnull (engine);
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "quire_engine_send: assertion 'the engine is used from a thread other than the one that created it' failed");
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "quire_engine_get_page_index: *thread other than*");
  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "quire_engine_free: *thread other than*");
  thread = g_thread_new ("not-the-owner", send_from_another_thread, engine);
  g_thread_join (thread);
  g_test_assert_expected_messages ();
  g_assert_cmpint (quire_engine_get_page_index (engine), ==, 0);
  g_assert_true (quire_engine_send (engine, "{\"tap\": \"button:next\"}", NULL));
  quire_engine_free (engine);

  g_test_expect_message ("Quire", G_LOG_LEVEL_CRITICAL, "quire_session_send: assertion 'quire_session_used_on_its_own_thread (self)' failed");
  thread = g_thread_new ("not-the-owner", session_from_another_thread, session);
  g_thread_join (thread);
  g_test_assert_expected_messages ();
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
}

/* A session whose last reference drops on another thread (a GTask's callback, a worker's closure)
 * is finalized there, and must free its engine there: its finalize called quire_engine_free(),
 * which an engine refuses from any thread but its owner's, so the engine leaked (with a
 * critical). The heap (glibc's main arena, where the sessions were made) must not grow by even
 * one session's worth over several sessions dropped so. */
static gpointer
unref_on_another_thread (gpointer data)
{
  g_object_unref (data);
  return NULL;
}

static size_t
heap_in_use (void)
{
  return mallinfo2 ().uordblks;
}

static void
drop_sessions_on_other_threads (int count)
{
  for (int i = 0; i < count; i++)
    {
      QuireSession *session = quire_session_new_from_file (flow_path, NULL);
      QuireSession *finalized = session;
      GThread *thread;

      g_assert_nonnull (session);
      g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
      g_object_add_weak_pointer (G_OBJECT (session), (gpointer *) &finalized);
      thread = g_thread_new ("last-unref", unref_on_another_thread, session);
      g_thread_join (thread);
      g_assert_null (finalized);
    }
}

static void
test_session_unref_on_another_thread (void)
{
  const int count = 8;
  size_t before, after, one;
  QuireSession *session;

  drop_sessions_on_other_threads (2);   /* warm-up: GLib's and the runtime's one-time allocations */
  before = heap_in_use ();
  session = quire_session_new_from_file (flow_path, NULL);
  g_assert_true (quire_session_send (session, "{\"tap\": \"button:next\"}", NULL));
  one = heap_in_use () - before;
  g_object_unref (session);
  before = heap_in_use ();
  drop_sessions_on_other_threads (count);
  after = heap_in_use ();
  if (g_test_verbose ())
    g_printerr ("one live session: %zu bytes; %d dropped on other threads: %+" G_GSSIZE_FORMAT " bytes\n",
                one, count, (gssize) (after - before));
  if (one == 0)
    {
      /* Under valgrind mallinfo2() sees no heap (its malloc is valgrind's): there its leak check
       * finds a leaked engine instead. */
      g_test_message ("mallinfo2() sees no heap: the leak check is valgrind's");
      return;
    }
  g_assert_cmpint ((gssize) (after - before), <, (gssize) one);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (argc != 2)
    {
      g_printerr ("usage: quire-api-checks FLOW\n");
      return 2;
    }
  flow_path = argv[1];

  g_test_add_func ("/engine/null-arguments", test_engine_null_arguments);
  g_test_add_func ("/engine/invalid-json", test_engine_invalid_json);
  g_test_add_func ("/engine/events-after-completion", test_engine_events_after_completion);
  g_test_add_func ("/engine/freed-while-observed", test_engine_freed_while_observed);
  g_test_add_func ("/engine/observer-frees-sends-replaces", test_engine_observer_frees_sends_replaces);
  g_test_add_func ("/engine/snapshot-round-trip", test_engine_snapshot_round_trip);
  g_test_add_func ("/engine/announcer", test_engine_announcer);
  g_test_add_func ("/session/announce", test_session_announce);
  g_test_add_func ("/session/errors", test_session_errors);
  g_test_add_func ("/session/signals-and-properties", test_session_signals_and_properties);
  g_test_add_func ("/session/apply", test_session_apply);
  g_test_add_func ("/session/freed-while-observed", test_session_freed_while_observed);
  g_test_add_func ("/session/json-nodes-and-restore", test_session_json_nodes_and_restore);
  g_test_add_func ("/session/construct-properties", test_session_construct_properties);
  g_test_add_func ("/engine/starting-values", test_engine_starting_values);
  g_test_add_func ("/session/starting-values-and-reduced-motion", test_session_starting_values_and_reduced_motion);
  g_test_add_func ("/owner-thread", test_owner_thread);
  g_test_add_func ("/session/unref-on-another-thread", test_session_unref_on_another_thread);
  return g_test_run ();
}
