/* quire-session.c — QuireSession: a GObject over one QuireEngine (see quire-session.h). */
#include "quire-session.h"

#include <quire.h>
#include <string.h>

#include "quire-session-private.h"

/* The GError codes are the C API's, number for number. */
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_ARGUMENT == (int) QUIRE_ENGINE_ERROR_INVALID_ARGUMENT);
G_STATIC_ASSERT ((int) QUIRE_ERROR_FILE == (int) QUIRE_ENGINE_ERROR_FILE);
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_JSON == (int) QUIRE_ENGINE_ERROR_INVALID_JSON);
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_FLOW == (int) QUIRE_ENGINE_ERROR_INVALID_FLOW);
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_EVENT == (int) QUIRE_ENGINE_ERROR_INVALID_EVENT);
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_SNAPSHOT == (int) QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT);
G_STATIC_ASSERT ((int) QUIRE_ERROR_INVALID_VALUES == (int) QUIRE_ENGINE_ERROR_INVALID_VALUES);

/**
 * QuireSession:
 *
 * One run of a flow: a deterministic state machine that changes only when an event is sent
 * with [method@Quire.Session.send]. Each event is applied whole, then `notify` is emitted for
 * the properties that changed, then a [signal@Quire.Session::notification] for each of its
 * notifications (detailed by the notification's name: connect to `notification::completed`
 * for the result).
 *
 * Events, state, notifications and snapshots are the JSON of Quire's contract; every function
 * that takes or returns JSON has a variant with text and one with a #JsonNode.
 *
 * Construct one with [ctor@Quire.Session.new_from_file], [ctor@Quire.Session.new_from_json],
 * [func@Quire.Session.restore], or g_object_new() with exactly one of the `flow-file`,
 * `flow-json` and `restore-snapshot` properties.
 *
 * A session belongs to the thread that created it: a call from another thread is refused
 * with a critical. Its last reference may drop on any thread; the session and its engine are
 * freed there.
 *
 * Passing through a picker chooses nothing: when a choice or duration field that has no value
 * resigns (Tab, a tap elsewhere, a page move) and its draft was never changed while its picker
 * was open (no `spin`, `select`, or `Up`/`Down`/`Page_Up`/`Page_Down` the picker took), the
 * draft is dropped unless the resign is `done` or `Return`: the field stays `null`, and the
 * `inputDismissed` notification says `"committed": false`.
 *
 * Since: 0.1
 */

/**
 * quire_error_quark:
 *
 * The quark of the %QUIRE_ERROR domain, the domain of the errors of [class@Quire.Session]'s
 * functions.
 *
 * Returns: the error quark
 *
 * Since: 0.1
 */
G_DEFINE_QUARK (quire-error-quark, quire_error)

GType
quire_error_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { QUIRE_ERROR_INVALID_ARGUMENT, "QUIRE_ERROR_INVALID_ARGUMENT", "invalid-argument" },
    { QUIRE_ERROR_FILE, "QUIRE_ERROR_FILE", "file" },
    { QUIRE_ERROR_INVALID_JSON, "QUIRE_ERROR_INVALID_JSON", "invalid-json" },
    { QUIRE_ERROR_INVALID_FLOW, "QUIRE_ERROR_INVALID_FLOW", "invalid-flow" },
    { QUIRE_ERROR_INVALID_EVENT, "QUIRE_ERROR_INVALID_EVENT", "invalid-event" },
    { QUIRE_ERROR_INVALID_SNAPSHOT, "QUIRE_ERROR_INVALID_SNAPSHOT", "invalid-snapshot" },
    { QUIRE_ERROR_INVALID_VALUES, "QUIRE_ERROR_INVALID_VALUES", "invalid-values" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static (g_intern_static_string ("QuireError"), values));
  return type;
}

struct _QuireSession
{
  GObject parent_instance;

  QuireEngine *engine;
  /* What the properties last reported, to notify only what changed. */
  int page_index;
  int page_count;
  char *page_id;
  char *focus;
  char *outcome;
  char *locale;
  /* The construct-only properties, until constructed() reads them. */
  char *flow_file;
  char *flow_json;
  char *restore_snapshot;
  char *starting_values;
  /* The thread the session was created on: calls from any other are refused. */
  GThread *owner;
  /* The page being applied (the last applyRequested), and the cancellable handed to the host
   * for it: cancelled when the user stops the apply or it times out. */
  char *apply_page;
  GCancellable *apply_cancellable;
};

G_DEFINE_FINAL_TYPE (QuireSession, quire_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PAGE_INDEX,
  PROP_PAGE_COUNT,
  PROP_PAGE_ID,
  PROP_FOCUS,
  PROP_COMPLETED,
  PROP_OUTCOME,
  PROP_LOCALE,
  PROP_VIEWPORT_WIDTH,
  PROP_FLOW_FILE,
  PROP_FLOW_JSON,
  PROP_RESTORE_SNAPSHOT,
  PROP_STARTING_VALUES,
  PROP_REDUCED_MOTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_NOTIFICATION,
  SIGNAL_APPLY_REQUESTED,
  SIGNAL_ANNOUNCE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Moves a C API error into a GError, and frees it. */
static void
propagate (GError **error, QuireEngineError *engine_error, const char *function)
{
  const char *message;
  const char *colon;

  if (engine_error == NULL)
    return;
  message = engine_error->message != NULL ? engine_error->message : "";
  colon = strstr (message, ": ");
  /* The C API names its own function (`quire_engine_send: event_json is NULL`); a session's
   * user called @function, whose arguments have the same names: name that instead. */
  if (g_str_has_prefix (message, "quire_engine_") && colon != NULL && strchr (message, ' ') > colon)
    g_set_error (error, QUIRE_ERROR, engine_error->code, "%s%s", function, colon);
  else
    g_set_error_literal (error, QUIRE_ERROR, engine_error->code, message);
  quire_engine_error_free (engine_error);
}

/* Text from the C API as GLib-owned text (the C API's comes from malloc()). */
static char *
take_text (char *text)
{
  char *copy = g_strdup (text);
  quire_free (text);
  return copy;
}

static JsonNode *
take_node (char *text)
{
  JsonNode *node;

  if (text == NULL)
    return NULL;
  /* The C API writes valid JSON; a failure here would be a bug in Quire. */
  node = json_from_string (text, NULL);
  quire_free (text);
  return node;
}

static void refresh (QuireSession *self);

static void
on_engine_notification (QuireEngine *engine, const char *notification_json, void *user_data)
{
  QuireSession *self = QUIRE_SESSION (user_data);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *object;
  g_autoptr (GList) members = NULL;
  const char *name;

  (void) engine;
  root = json_from_string (notification_json, NULL);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  object = json_node_get_object (root);
  members = json_object_get_members (object);
  if (members == NULL)
    return;
  name = members->data;
  /* The event has been applied whole before its first notification: handlers see the
   * properties as they are now (their `notify` comes first). */
  refresh (self);
  g_signal_emit (self, signals[SIGNAL_NOTIFICATION], g_quark_from_string (name), name,
                 json_object_get_member (object, name));
  if (g_str_equal (name, "applyRequested"))
    {
      JsonObject *payload = json_object_get_object_member (object, name);
      const char *page = json_object_get_string_member (payload, "page");

      g_clear_pointer (&self->apply_page, g_free);
      g_clear_object (&self->apply_cancellable);
      self->apply_page = g_strdup (page);
      self->apply_cancellable = g_cancellable_new ();
      g_signal_emit (self, signals[SIGNAL_APPLY_REQUESTED], 0, page,
                     json_object_get_member (payload, "values"), self->apply_cancellable);
    }
  else if (g_str_equal (name, "applyFinished"))
    {
      JsonObject *payload = json_object_get_object_member (object, name);
      const char *outcome = json_object_get_string_member (payload, "outcome");

      /* The user stopped it, or it timed out: the host must drop the work. */
      if (self->apply_cancellable != NULL
          && (g_str_equal (outcome, "cancelled") || g_str_equal (outcome, "timedOut")))
        g_cancellable_cancel (self->apply_cancellable);
      g_clear_pointer (&self->apply_page, g_free);
      g_clear_object (&self->apply_cancellable);
    }
}

static void
on_engine_announcement (QuireEngine *engine, const char *text, const char *priority, void *user_data)
{
  (void) engine;
  g_signal_emit (QUIRE_SESSION (user_data), signals[SIGNAL_ANNOUNCE], 0, text, priority);
}

/* Re-reads what the properties show; notifies those that changed. */
static void
refresh (QuireSession *self)
{
  int page_index = quire_engine_get_page_index (self->engine);
  int page_count = quire_engine_get_page_count (self->engine);
  g_autofree char *page_id = take_text (quire_engine_get_page_id (self->engine));
  g_autofree char *focus = take_text (quire_engine_get_focus (self->engine));
  g_autofree char *outcome = take_text (quire_engine_get_outcome (self->engine));

  g_object_freeze_notify (G_OBJECT (self));
  if (page_index != self->page_index)
    {
      self->page_index = page_index;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE_INDEX]);
    }
  if (page_count != self->page_count)
    {
      self->page_count = page_count;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE_COUNT]);
    }
  if (g_strcmp0 (page_id, self->page_id) != 0)
    {
      g_free (self->page_id);
      self->page_id = g_steal_pointer (&page_id);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE_ID]);
    }
  if (g_strcmp0 (focus, self->focus) != 0)
    {
      g_free (self->focus);
      self->focus = g_steal_pointer (&focus);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS]);
    }
  if (g_strcmp0 (outcome, self->outcome) != 0)
    {
      g_free (self->outcome);
      self->outcome = g_steal_pointer (&outcome);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OUTCOME]);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPLETED]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/* Makes a session own an engine: the properties' first values, the observer. */
static void
attach_engine (QuireSession *self, QuireEngine *engine)
{
  self->engine = engine;
  self->owner = g_thread_self ();
  self->page_index = quire_engine_get_page_index (engine);
  self->page_count = quire_engine_get_page_count (engine);
  self->page_id = take_text (quire_engine_get_page_id (engine));
  self->focus = take_text (quire_engine_get_focus (engine));
  self->outcome = take_text (quire_engine_get_outcome (engine));
  self->locale = take_text (quire_engine_get_locale (engine));
  /* The engine lives exactly as long as the session: no reference, no destroy notifier. */
  quire_engine_set_observer (engine, on_engine_notification, self, NULL);
  quire_engine_set_announcer (engine, on_engine_announcement, self, NULL);
}

/* The engine a constructor function made, handed to constructed() (g_object_new() has no
 * argument for it, and a property would be public). Per thread: constructors on two threads
 * do not mix. */
static GPrivate engine_being_attached;

/* A session over an engine it now owns. */
static QuireSession *
session_new (QuireEngine *engine)
{
  QuireSession *self;

  g_private_set (&engine_being_attached, engine);
  self = g_object_new (QUIRE_TYPE_SESSION, NULL);
  g_private_set (&engine_being_attached, NULL);
  return self;
}

/* Whether @self is a session with a flow (one built by g_object_new() without a flow-file,
 * flow-json or restore-snapshot, or with one that failed, has none: every call on it is a
 * programmer error). */
static gboolean
quire_session_has_flow (QuireSession *self)
{
  return QUIRE_IS_SESSION (self) && self->engine != NULL;
}

/* Whether @self is used on the thread that created it (its engine refuses any other). */
static gboolean
quire_session_used_on_its_own_thread (QuireSession *self)
{
  return self->owner == g_thread_self ();
}

static void
quire_session_constructed (GObject *object)
{
  QuireSession *self = QUIRE_SESSION (object);
  QuireEngine *engine = g_private_get (&engine_being_attached);
  QuireEngineError *error = NULL;
  const char *property = NULL;

  G_OBJECT_CLASS (quire_session_parent_class)->constructed (object);
  g_private_set (&engine_being_attached, NULL);
  if (engine == NULL)
    {
      int given = (self->flow_file != NULL) + (self->flow_json != NULL) + (self->restore_snapshot != NULL);

      if (given != 1)
        g_critical ("QuireSession: give exactly one of the flow-file, flow-json and restore-snapshot "
                    "properties (or use quire_session_new_from_file(), quire_session_new_from_json() "
                    "or quire_session_restore()); %d given: this session has no flow", given);
      else if (self->flow_file != NULL)
        engine = quire_engine_new_from_file (self->flow_file, &error), property = "flow-file";
      else if (self->flow_json != NULL)
        engine = quire_engine_new_from_json (self->flow_json, &error), property = "flow-json";
      else
        engine = quire_engine_restore (self->restore_snapshot, &error), property = "restore-snapshot";
      if (error != NULL)
        {
          g_critical ("QuireSession:%s: %s (this session has no flow)", property, error->message);
          g_clear_pointer (&error, quire_engine_error_free);
        }
      /* Starting values are part of the construction: values that do not fit the flow fail it
       * as a flow that does not load does. */
      if (engine != NULL && self->starting_values != NULL
          && !quire_engine_set_starting_values (engine, self->starting_values, &error))
        {
          g_critical ("QuireSession:starting-values: %s (this session has no flow)", error->message);
          g_clear_pointer (&error, quire_engine_error_free);
          g_clear_pointer (&engine, quire_engine_free);
        }
    }
  else if (self->starting_values != NULL)
    {
      /* Not reachable from the public API: the constructor functions set no property. */
      g_critical ("QuireSession:starting-values: only with flow-file or flow-json");
    }
  g_clear_pointer (&self->flow_file, g_free);
  g_clear_pointer (&self->flow_json, g_free);
  g_clear_pointer (&self->restore_snapshot, g_free);
  g_clear_pointer (&self->starting_values, g_free);
  if (engine != NULL)
    attach_engine (self, engine);
}

QuireEngine *
quire_session_get_engine (QuireSession *self)
{
  return self->engine;
}

static void
quire_session_finalize (GObject *object)
{
  QuireSession *self = QUIRE_SESSION (object);

  /* Frees the observer with the engine, on whichever thread dropped the last reference: an
   * engine refuses calls from any thread but its owner's, so quire_engine_free() here would leak
   * it when the last unref comes from another thread (a GTask, a worker's closure). Nothing can be
   * inside the engine now (every caller holds a reference) and it holds no thread's state, so it
   * is released here and now (docs/embedding.md, "Threads"). */
  quire_private_engine_release (self->engine);
  g_free (self->page_id);
  g_free (self->focus);
  g_free (self->outcome);
  g_free (self->locale);
  g_free (self->apply_page);
  if (self->apply_cancellable != NULL)
    g_cancellable_cancel (self->apply_cancellable);
  g_clear_object (&self->apply_cancellable);
  G_OBJECT_CLASS (quire_session_parent_class)->finalize (object);
}

static void
quire_session_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  QuireSession *self = QUIRE_SESSION (object);

  switch (prop_id)
    {
    case PROP_PAGE_INDEX:
      g_value_set_int (value, self->page_index);
      break;
    case PROP_PAGE_COUNT:
      g_value_set_int (value, self->page_count);
      break;
    case PROP_PAGE_ID:
      g_value_set_string (value, self->page_id);
      break;
    case PROP_FOCUS:
      g_value_set_string (value, self->focus);
      break;
    case PROP_COMPLETED:
      g_value_set_boolean (value, self->outcome != NULL);
      break;
    case PROP_OUTCOME:
      g_value_set_string (value, self->outcome);
      break;
    case PROP_LOCALE:
      g_value_set_string (value, self->locale);
      break;
    case PROP_VIEWPORT_WIDTH:
      g_value_set_double (value, quire_session_get_viewport_width (self));
      break;
    case PROP_REDUCED_MOTION:
      g_value_set_boolean (value, quire_session_get_reduced_motion (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
quire_session_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  QuireSession *self = QUIRE_SESSION (object);
  g_autoptr (GError) error = NULL;

  switch (prop_id)
    {
    case PROP_LOCALE:
      if (!quire_session_set_locale (self, g_value_get_string (value), &error))
        g_warning ("QuireSession:locale: %s", error->message);
      break;
    case PROP_VIEWPORT_WIDTH:
      if (!quire_session_set_viewport_width (self, g_value_get_double (value), &error))
        g_warning ("QuireSession:viewport-width: %s", error->message);
      break;
    case PROP_FLOW_FILE:
      self->flow_file = g_value_dup_string (value);
      break;
    case PROP_FLOW_JSON:
      self->flow_json = g_value_dup_string (value);
      break;
    case PROP_RESTORE_SNAPSHOT:
      self->restore_snapshot = g_value_dup_string (value);
      break;
    case PROP_STARTING_VALUES:
      self->starting_values = g_value_dup_string (value);
      break;
    case PROP_REDUCED_MOTION:
      quire_session_set_reduced_motion (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
quire_session_class_init (QuireSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->constructed = quire_session_constructed;
  object_class->finalize = quire_session_finalize;
  object_class->get_property = quire_session_get_property;
  object_class->set_property = quire_session_set_property;

  /**
   * QuireSession:page-index:
   *
   * The current page's index among the visible pages, from 0. It changes when a transition
   * completes.
   *
   * Since: 0.1
   */
  properties[PROP_PAGE_INDEX] =
    g_param_spec_int ("page-index", NULL, NULL, -1, G_MAXINT, 0,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:page-count:
   *
   * How many pages are visible (pages with a `visibleIf` come and go with the answers).
   *
   * Since: 0.1
   */
  properties[PROP_PAGE_COUNT] =
    g_param_spec_int ("page-count", NULL, NULL, -1, G_MAXINT, 0,
                      G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:page-id:
   *
   * The current page's id, from the flow.
   *
   * Since: 0.1
   */
  properties[PROP_PAGE_ID] =
    g_param_spec_string ("page-id", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:focus:
   *
   * The id of the field that is first responder, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_FOCUS] =
    g_param_spec_string ("focus", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:completed:
   *
   * Whether the session has completed (finished or cancelled); it then ignores every event.
   *
   * Since: 0.1
   */
  properties[PROP_COMPLETED] =
    g_param_spec_boolean ("completed", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:outcome:
   *
   * `finished` or `cancelled` once completed, else %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_OUTCOME] =
    g_param_spec_string ("outcome", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:locale:
   *
   * The language of the presentation's strings, a BCP 47 tag (`en` at first).
   *
   * Since: 0.1
   */
  properties[PROP_LOCALE] =
    g_param_spec_string ("locale", NULL, NULL, "en",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:viewport-width:
   *
   * The pager's width in pixels, which drags are measured against (800 at first).
   *
   * Since: 0.1
   */
  properties[PROP_VIEWPORT_WIDTH] =
    g_param_spec_double ("viewport-width", NULL, NULL, 1.0, 100000.0, 800,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:flow-file:
   *
   * The path of a `quire.flow/1` flow file to start the session on, as
   * quire_session_new_from_file() does: for g_object_new() and #GtkBuilder. A session is
   * constructed with exactly one of #QuireSession:flow-file, #QuireSession:flow-json and
   * #QuireSession:restore-snapshot; with none, several, or one that does not load, construction
   * emits a critical with the reason and the session has no flow (every call on it is then a
   * programmer error: a critical, and nothing done). Write-only.
   *
   * Since: 0.1
   */
  properties[PROP_FLOW_FILE] =
    g_param_spec_string ("flow-file", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:flow-json:
   *
   * A `quire.flow/1` flow as JSON text to start the session on, as
   * quire_session_new_from_json() does (see #QuireSession:flow-file). Write-only.
   *
   * Since: 0.1
   */
  properties[PROP_FLOW_JSON] =
    g_param_spec_string ("flow-json", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:restore-snapshot:
   *
   * A `quire.snapshot/1` snapshot to restore, as quire_session_restore() does (see
   * #QuireSession:flow-file). Write-only.
   *
   * Since: 0.1
   */
  properties[PROP_RESTORE_SNAPSHOT] =
    g_param_spec_string ("restore-snapshot", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:starting-values:
   *
   * The answers the session starts from instead of the flow's defaults, as a JSON object of
   * field ids and values (`{"userName": "Aki", "reminders": false}`), as
   * quire_session_set_starting_values() takes them: with #QuireSession:flow-file or
   * #QuireSession:flow-json, for g_object_new() and #GtkBuilder. Values that do not fit the
   * flow fail the construction as a flow that does not load does (a critical; the session has
   * no flow). Write-only.
   *
   * Since: 0.1
   */
  properties[PROP_STARTING_VALUES] =
    g_param_spec_string ("starting-values", NULL, NULL, NULL,
                         G_PARAM_WRITABLE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * QuireSession:reduced-motion:
   *
   * Whether the session runs with reduced motion, as a front whose desktop has animations
   * off: page moves land at once and auto-advance pauses (%FALSE at first). A front's
   * setting, not the session's state: a snapshot does not hold it, and a view showing the
   * session sets it from the desktop's `GtkSettings:gtk-enable-animations` (without `notify`).
   *
   * Since: 0.1
   */
  properties[PROP_REDUCED_MOTION] =
    g_param_spec_boolean ("reduced-motion", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * QuireSession::notification:
   * @session: the session
   * @name: the notification's name: `pageWillChange`, `pageDidChange`, `focusChanged`,
   *   `inputPresented`, `inputDismissed`, `valueChanged`, `draftChanged`, `refused`, `ignored`,
   *   `completed`, `applyRequested` or `applyFinished`
   * @payload: the notification's payload, an object (e.g. `{"field": "userName", "value": "Aki"}`)
   *
   * Emitted for each notification an event emits, in order, while quire_session_send() runs,
   * once the event has been applied: the state and the properties are already the new ones.
   * The signal is detailed by @name: connect to `notification::valueChanged` for one kind.
   * A handler may send events (their notifications are emitted at once, inside it).
   *
   * Since: 0.1
   */
  signals[SIGNAL_NOTIFICATION] =
    g_signal_new ("notification", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_DETAILED, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE, JSON_TYPE_NODE);

  /**
   * QuireSession::apply-requested:
   * @session: the session
   * @page: the id of the page to apply
   * @values: the answers to apply: the visible fields' values, as a finished result holds them
   * @cancellable: cancelled when the user stops the apply (Cancel, Escape) or it times out:
   *   the host must then drop the work; answering after that is ignored
   *
   * Emitted after the `applyRequested` notification: a forward move off a page with `apply`
   * waits until the host accepts the page's answers. Do the work (asynchronously: the session
   * and the view stay responsive, and Cancel works meanwhile), then answer with
   * [method@Quire.Session.apply_finish]. A session restored while applying emits no second
   * request: read `applying` in its state and start the work again.
   *
   * Since: 0.1
   */
  signals[SIGNAL_APPLY_REQUESTED] =
    g_signal_new ("apply-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING | G_SIGNAL_TYPE_STATIC_SCOPE, JSON_TYPE_NODE, G_TYPE_CANCELLABLE);

  /**
   * QuireSession::announce:
   * @session: the session
   * @text: what a screen reader must say, in the session's language (`About you, page 2 of 5`,
   *   `Name: Required`, `Finished`)
   * @priority: `polite` or `assertive`
   *
   * Emitted for each announcement an event makes, in order, after its notifications: what a
   * screen reader must be told because keyboard focus does not move to it — a page reached, a
   * refusal, an error revealed on a field focus has left, completion (Quire's contract, §6.4).
   * Every Quire front makes the same; hand them to your screen reader (in GTK,
   * gtk_accessible_announce() from 4.14; a [class@QuireGtk.View] speaks them itself).
   *
   * Since: 0.1
   */
  signals[SIGNAL_ANNOUNCE] =
    g_signal_new ("announce", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
quire_session_init (QuireSession *self)
{
  (void) self;
}

/**
 * quire_session_new_from_file:
 * @path: (type filename): the path of a `quire.flow/1` flow file
 * @error: return location for a #GError, or %NULL
 *
 * Loads and validates a flow file and starts a session on it: on the first visible page,
 * nothing focused, locale `en`, a viewport 800 pixels wide. A flow is rejected whole, with
 * every problem listed.
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error set
 *   (%QUIRE_ERROR_FILE, %QUIRE_ERROR_INVALID_JSON, %QUIRE_ERROR_INVALID_FLOW)
 *
 * Since: 0.1
 */
QuireSession *
quire_session_new_from_file (const char *path, GError **error)
{
  QuireEngineError *engine_error = NULL;
  QuireEngine *engine = quire_engine_new_from_file (path, &engine_error);

  if (engine == NULL)
    {
      propagate (error, engine_error, G_STRFUNC);
      return NULL;
    }
  return session_new (engine);
}

/**
 * quire_session_new_from_json:
 * @json: a `quire.flow/1` flow as JSON text
 * @error: return location for a #GError, or %NULL
 *
 * Like quire_session_new_from_file(), from text.
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error set
 *
 * Since: 0.1
 */
QuireSession *
quire_session_new_from_json (const char *json, GError **error)
{
  QuireEngineError *engine_error = NULL;
  QuireEngine *engine = quire_engine_new_from_json (json, &engine_error);

  if (engine == NULL)
    {
      propagate (error, engine_error, G_STRFUNC);
      return NULL;
    }
  return session_new (engine);
}

/* Writes a node as JSON text; a NULL node is an invalid argument. */
static char *
node_to_text (JsonNode *node, const char *function, const char *argument, GError **error)
{
  if (node == NULL)
    {
      g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_ARGUMENT, "%s: %s is NULL", function, argument);
      return NULL;
    }
  return json_to_string (node, FALSE);
}

/**
 * quire_session_new_from_node:
 * @flow: a `quire.flow/1` flow
 * @error: return location for a #GError, or %NULL
 *
 * Like quire_session_new_from_file(), from a #JsonNode.
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error set
 *
 * Since: 0.1
 */
QuireSession *
quire_session_new_from_node (JsonNode *flow, GError **error)
{
  g_autofree char *text = node_to_text (flow, "quire_session_new_from_node", "flow", error);

  if (text == NULL)
    return NULL;
  return quire_session_new_from_json (text, error);
}

/**
 * quire_session_restore:
 * @snapshot_json: a `quire.snapshot/1` snapshot, as quire_session_snapshot_json() returns
 * @error: return location for a #GError, or %NULL
 *
 * Builds a session from a snapshot: the same flow, locale, viewport, values, page, running
 * animation or drag, open picker with its draft, and result.
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error set
 *   (%QUIRE_ERROR_INVALID_JSON, %QUIRE_ERROR_INVALID_SNAPSHOT)
 *
 * Since: 0.1
 */
QuireSession *
quire_session_restore (const char *snapshot_json, GError **error)
{
  QuireEngineError *engine_error = NULL;
  QuireEngine *engine = quire_engine_restore (snapshot_json, &engine_error);

  if (engine == NULL)
    {
      propagate (error, engine_error, G_STRFUNC);
      return NULL;
    }
  return session_new (engine);
}

/**
 * quire_session_restore_from_node:
 * @snapshot: a `quire.snapshot/1` snapshot, as quire_session_snapshot() returns
 * @error: return location for a #GError, or %NULL
 *
 * Like quire_session_restore(), from a #JsonNode.
 *
 * Returns: (transfer full) (nullable): a new session, or %NULL with @error set
 *
 * Since: 0.1
 */
QuireSession *
quire_session_restore_from_node (JsonNode *snapshot, GError **error)
{
  g_autofree char *text = node_to_text (snapshot, "quire_session_restore_from_node", "snapshot", error);

  if (text == NULL)
    return NULL;
  return quire_session_restore (text, error);
}

/**
 * quire_session_send:
 * @self: a #QuireSession
 * @event_json: one event as JSON text, e.g. `{"tap": "button:next"}`
 * @error: return location for a #GError, or %NULL
 *
 * Sends one event: emits `notify` for each property that changed, then
 * #QuireSession::notification for each notification, in order; the event is applied whole
 * before the first signal, so handlers see the new state and properties. An event that does not apply (any event after
 * completion, typing with nothing focused) is not an error: it emits an `ignored` notification.
 *
 * Returns: %TRUE when sent; %FALSE with @error set (%QUIRE_ERROR_INVALID_ARGUMENT,
 *   %QUIRE_ERROR_INVALID_JSON, %QUIRE_ERROR_INVALID_EVENT), the session unchanged
 *
 * Since: 0.1
 */
gboolean
quire_session_send (QuireSession *self, const char *event_json, GError **error)
{
  QuireEngineError *engine_error = NULL;
  gboolean sent;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);

  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A handler may drop the last reference to the session: keep it alive until we are done. */
  g_object_ref (self);
  sent = quire_engine_send (self->engine, event_json, &engine_error);
  if (sent)
    refresh (self);
  else
    propagate (error, engine_error, G_STRFUNC);
  g_object_unref (self);
  return sent;
}

/**
 * quire_session_send_node:
 * @self: a #QuireSession
 * @event: one event, an object with one member (e.g. `{"type": "Aki"}`)
 * @error: return location for a #GError, or %NULL
 *
 * Like quire_session_send(), from a #JsonNode.
 *
 * Returns: %TRUE when sent; %FALSE with @error set, the session unchanged
 *
 * Since: 0.1
 */
gboolean
quire_session_send_node (QuireSession *self, JsonNode *event, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);

  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  text = node_to_text (event, "quire_session_send_node", "event", error);
  if (text == NULL)
    return FALSE;
  return quire_session_send (self, text, error);
}

/**
 * quire_session_apply_finish:
 * @self: a #QuireSession
 * @page: the id of the page that was applied (as [signal@Quire.Session::apply-requested] gave it)
 * @errors_json: (nullable): %NULL when the page was applied; else the host's errors on the page's
 *   fields as a JSON object, `{"userName": "taken"}` or `{"userName": {"code": "taken",
 *   "message": "That name is taken"}}` (codes are ids of the host's choosing)
 * @message: (nullable): a message for the page when it was not applied
 * @error: return location for a #GError, or %NULL
 *
 * The host's answer to an apply: with @errors_json and @message %NULL, the page was applied and
 * the move it waited for happens (or the session finishes); otherwise it was not, the session
 * stays on the page, and the errors show on their fields. Sends the `applied` or `applyFailed`
 * event. An answer to no apply in progress (stopped, timed out, another page's) changes nothing:
 * the session emits `ignored` with reason `notApplying`.
 *
 * Returns: %TRUE when the answer was sent; %FALSE with @error set (%QUIRE_ERROR_INVALID_EVENT:
 *   @errors_json is not a JSON object of field ids to codes, or @page is not an id)
 *
 * Since: 0.1
 */
gboolean
quire_session_apply_finish (QuireSession *self, const char *page, const char *errors_json, const char *message,
                            GError **error)
{
  g_autoptr (JsonBuilder) builder = NULL;
  g_autoptr (JsonNode) event = NULL;
  g_autoptr (JsonNode) errors = NULL;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  g_return_val_if_fail (page != NULL, FALSE);
  if (errors_json != NULL)
    {
      g_autoptr (GError) parse_error = NULL;

      errors = json_from_string (errors_json, &parse_error);
      if (errors == NULL || !JSON_NODE_HOLDS_OBJECT (errors))
        {
          g_set_error (error, QUIRE_ERROR, QUIRE_ERROR_INVALID_EVENT,
                       "quire_session_apply_finish: errors_json must be a JSON object of field ids to codes%s%s",
                       parse_error != NULL ? ": " : "", parse_error != NULL ? parse_error->message : "");
          return FALSE;
        }
    }
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  if (errors == NULL && message == NULL)
    {
      json_builder_set_member_name (builder, "applied");
      json_builder_add_string_value (builder, page);
    }
  else
    {
      json_builder_set_member_name (builder, "applyFailed");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "page");
      json_builder_add_string_value (builder, page);
      if (errors != NULL)
        {
          json_builder_set_member_name (builder, "errors");
          json_builder_add_value (builder, g_steal_pointer (&errors));
        }
      if (message != NULL)
        {
          json_builder_set_member_name (builder, "message");
          json_builder_add_string_value (builder, message);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  event = json_builder_get_root (builder);
  return quire_session_send_node (self, event, error);
}

/**
 * quire_session_apply_cancel:
 * @self: a #QuireSession
 *
 * Stops the apply in progress from the host's side, as the user's Cancel would: the session
 * emits `applyFinished` with outcome `cancelled` and stays on the page, and the apply's
 * cancellable is cancelled. Nothing happens when no apply is in progress (the session is not
 * cancelled).
 *
 * Returns: %TRUE when an apply was stopped
 *
 * Since: 0.1
 */
gboolean
quire_session_apply_cancel (QuireSession *self)
{
  g_autoptr (JsonNode) state = NULL;
  JsonNode *applying;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  /* (Read from the state, not from the last request: a restored session may be applying.) */
  state = take_node (quire_engine_get_state (self->engine));
  applying = state != NULL ? json_object_get_member (json_node_get_object (state), "applying") : NULL;
  if (applying == NULL || JSON_NODE_HOLDS_NULL (applying))
    return FALSE;
  return quire_session_send (self, "{\"tap\": \"button:cancel\"}", NULL);
}

/**
 * quire_session_get_state_json:
 * @self: a #QuireSession
 *
 * The state as JSON text: page, position, transition, indicator, focus, input, values, errors,
 * buttons and completed — what a session script's `expect` matches.
 *
 * Returns: (transfer full): JSON text; free it with g_free()
 *
 * Since: 0.1
 */
char *
quire_session_get_state_json (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_text (quire_engine_get_state (self->engine));
}

/**
 * quire_session_get_state:
 * @self: a #QuireSession
 *
 * The state, as quire_session_get_state_json() describes it.
 *
 * Returns: (transfer full): a new #JsonNode holding an object
 *
 * Since: 0.1
 */
JsonNode *
quire_session_get_state (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_node (quire_engine_get_state (self->engine));
}

/**
 * quire_session_get_presentation_json:
 * @self: a #QuireSession
 *
 * What a front renders, localized, as JSON text: `{"chrome": {...}, "pages": [...]}` (title,
 * indicator, buttons, progress, the open input view; the current page and its neighbours).
 *
 * Returns: (transfer full): JSON text; free it with g_free()
 *
 * Since: 0.1
 */
char *
quire_session_get_presentation_json (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_text (quire_engine_get_presentation (self->engine));
}

/**
 * quire_session_get_presentation:
 * @self: a #QuireSession
 *
 * The presentation, as quire_session_get_presentation_json() describes it.
 *
 * Returns: (transfer full): a new #JsonNode holding an object
 *
 * Since: 0.1
 */
JsonNode *
quire_session_get_presentation (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_node (quire_engine_get_presentation (self->engine));
}

/**
 * quire_session_get_page_presentation:
 * @self: a #QuireSession
 * @index: a visible page's index, from 0
 *
 * One visible page's presentation (title, body, fields with labels, display strings, errors).
 *
 * Returns: (transfer full) (nullable): a new #JsonNode, or %NULL when no visible page has @index
 *
 * Since: 0.1
 */
JsonNode *
quire_session_get_page_presentation (QuireSession *self, int index)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_node (quire_engine_get_page_presentation (self->engine, index));
}

/**
 * quire_session_snapshot_json:
 * @self: a #QuireSession
 *
 * The whole session as a `quire.snapshot/1` document with its flow embedded, for
 * quire_session_restore().
 *
 * Returns: (transfer full): JSON text; free it with g_free()
 *
 * Since: 0.1
 */
char *
quire_session_snapshot_json (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_text (quire_engine_snapshot (self->engine));
}

/**
 * quire_session_snapshot:
 * @self: a #QuireSession
 *
 * The snapshot, as quire_session_snapshot_json() describes it.
 *
 * Returns: (transfer full): a new #JsonNode holding an object
 *
 * Since: 0.1
 */
JsonNode *
quire_session_snapshot (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_node (quire_engine_snapshot (self->engine));
}

/**
 * quire_session_get_result:
 * @self: a #QuireSession
 *
 * The result, once completed: `{"outcome": "finished", "values": {...}}`.
 *
 * Returns: (transfer full) (nullable): a new #JsonNode, or %NULL before completion
 *
 * Since: 0.1
 */
JsonNode *
quire_session_get_result (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return take_node (quire_engine_get_result (self->engine));
}

/**
 * quire_session_get_page_index:
 * @self: a #QuireSession
 *
 * The index of the current page among the visible pages (0 for the first), as the state's
 * `page.index`.
 *
 * Returns: the #QuireSession:page-index
 *
 * Since: 0.1
 */
int
quire_session_get_page_index (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), -1);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), -1);
  return self->page_index;
}

/**
 * quire_session_get_page_count:
 * @self: a #QuireSession
 *
 * How many pages the flow shows now (pages hidden by a condition are not counted).
 *
 * Returns: the #QuireSession:page-count
 *
 * Since: 0.1
 */
int
quire_session_get_page_count (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), -1);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), -1);
  return self->page_count;
}

/**
 * quire_session_get_page_id:
 * @self: a #QuireSession
 *
 * The id of the current page, as in the flow.
 *
 * Returns: (transfer none): the #QuireSession:page-id, owned by @self
 *
 * Since: 0.1
 */
const char *
quire_session_get_page_id (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return self->page_id;
}

/**
 * quire_session_get_focus:
 * @self: a #QuireSession
 *
 * The id of the field that has the focus (the first responder), or %NULL.
 *
 * Returns: (transfer none) (nullable): the #QuireSession:focus, owned by @self
 *
 * Since: 0.1
 */
const char *
quire_session_get_focus (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return self->focus;
}

/**
 * quire_session_get_completed:
 * @self: a #QuireSession
 *
 * Whether the session has completed (finished or cancelled): every event after that is
 * ignored.
 *
 * Returns: the #QuireSession:completed
 *
 * Since: 0.1
 */
gboolean
quire_session_get_completed (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  return self->outcome != NULL;
}

/**
 * quire_session_get_outcome:
 * @self: a #QuireSession
 *
 * How the session ended, `finished` or `cancelled`; %NULL until it completes.
 *
 * Returns: (transfer none) (nullable): the #QuireSession:outcome, owned by @self
 *
 * Since: 0.1
 */
const char *
quire_session_get_outcome (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return self->outcome;
}

/**
 * quire_session_get_locale:
 * @self: a #QuireSession
 *
 * The locale the presentation is written in, a BCP 47 tag (`en` unless set).
 *
 * Returns: (transfer none): the #QuireSession:locale, owned by @self
 *
 * Since: 0.1
 */
const char *
quire_session_get_locale (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), NULL);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), NULL);
  return self->locale;
}

/**
 * quire_session_set_locale:
 * @self: a #QuireSession
 * @locale: a BCP 47 language tag, e.g. `en` or `ja-JP`
 * @error: return location for a #GError, or %NULL
 *
 * Sets the #QuireSession:locale. The state does not depend on it; the presentation does.
 *
 * Returns: %TRUE when set; %FALSE with @error set to %QUIRE_ERROR_INVALID_ARGUMENT
 *
 * Since: 0.1
 */
gboolean
quire_session_set_locale (QuireSession *self, const char *locale, GError **error)
{
  QuireEngineError *engine_error = NULL;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);

  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  if (!quire_engine_set_locale (self->engine, locale, &engine_error))
    {
      propagate (error, engine_error, G_STRFUNC);
      return FALSE;
    }
  if (g_strcmp0 (locale, self->locale) != 0)
    {
      g_free (self->locale);
      self->locale = g_strdup (locale);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOCALE]);
    }
  return TRUE;
}

/**
 * quire_session_get_viewport_width:
 * @self: a #QuireSession
 *
 * The width, in pixels, that drags on the pager are measured against (a view sets it to
 * its pager's width).
 *
 * Returns: the #QuireSession:viewport-width, in pixels
 *
 * Since: 0.1
 */
double
quire_session_get_viewport_width (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), 0);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), 0);
  return quire_engine_get_viewport_width (self->engine);
}

/**
 * quire_session_set_viewport_width:
 * @self: a #QuireSession
 * @width: the pager's width in pixels
 * @error: return location for a #GError, or %NULL
 *
 * Sets the #QuireSession:viewport-width. A drag in progress keeps its position.
 *
 * Returns: %TRUE when set; %FALSE with @error set to %QUIRE_ERROR_INVALID_ARGUMENT when @width
 *   is not from 1 to 100000 pixels
 *
 * Since: 0.1
 */
gboolean
quire_session_set_viewport_width (QuireSession *self, double width, GError **error)
{
  QuireEngineError *engine_error = NULL;
  double before;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);

  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  before = quire_engine_get_viewport_width (self->engine);
  if (!quire_engine_set_viewport_width (self->engine, width, &engine_error))
    {
      propagate (error, engine_error, G_STRFUNC);
      return FALSE;
    }
  if (before != width)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEWPORT_WIDTH]);
  return TRUE;
}

/**
 * quire_session_set_starting_values:
 * @self: a #QuireSession
 * @values_json: the answers to start from: a JSON object of field ids and values, as `values`
 *   in the state, e.g. `{"userName": "Aki", "reminders": false}`
 * @error: return location for a #GError, or %NULL
 *
 * Starts the session from these answers instead of the flow's defaults: a walkthrough run
 * again from the answers it gave last time, or a session script's top-level `values`. A field
 * left out keeps its default; `null` clears one. The session is as a new one (first visible
 * page, nothing touched or focused) with its locale, viewport width and reduced motion;
 * visibility and requirements follow from the answers, and `notify` is emitted for the
 * properties that changed (#QuireSession:page-count).
 *
 * Only a session as it started from its flow takes starting values: call this after
 * quire_session_new_from_file(), quire_session_new_from_json() or
 * quire_session_new_from_node(), before the first event and before a view shows the session
 * (or give #QuireSession:starting-values at construction). The values are checked as a
 * script's `values` are: a field the flow does not have, or a value the field could not hold
 * (another kind, an option it does not have, text over its `maxLength`, a duration its wheels
 * cannot show), is an error, and nothing is set.
 *
 * Returns: %TRUE when set; %FALSE with @error set (%QUIRE_ERROR_INVALID_ARGUMENT: %NULL or not
 *   UTF-8, a session restored or already sent an event, or shown by a view;
 *   %QUIRE_ERROR_INVALID_JSON; %QUIRE_ERROR_INVALID_VALUES, every problem one a line,
 *   `<values>:line:column: $.field: message`), the session unchanged
 *
 * Since: 0.1
 */
gboolean
quire_session_set_starting_values (QuireSession *self, const char *values_json, GError **error)
{
  QuireEngineError *engine_error = NULL;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!quire_engine_set_starting_values (self->engine, values_json, &engine_error))
    {
      propagate (error, engine_error, G_STRFUNC);
      return FALSE;
    }
  refresh (self);
  return TRUE;
}

/**
 * quire_session_set_starting_values_node:
 * @self: a #QuireSession
 * @values: the answers to start from, an object of field ids and values
 * @error: return location for a #GError, or %NULL
 *
 * Like quire_session_set_starting_values(), from a #JsonNode.
 *
 * Returns: %TRUE when set; %FALSE with @error set, the session unchanged
 *
 * Since: 0.1
 */
gboolean
quire_session_set_starting_values_node (QuireSession *self, JsonNode *values, GError **error)
{
  g_autofree char *text = NULL;

  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  text = node_to_text (values, "quire_session_set_starting_values_node", "values", error);
  if (text == NULL)
    return FALSE;
  return quire_session_set_starting_values (self, text, error);
}

/**
 * quire_session_get_reduced_motion:
 * @self: a #QuireSession
 *
 * Whether moves land at once and auto-advance pauses (a front's setting, not part of the
 * session's state; a view sets it from the desktop's `gtk-enable-animations`).
 *
 * Returns: the #QuireSession:reduced-motion
 *
 * Since: 0.1
 */
gboolean
quire_session_get_reduced_motion (QuireSession *self)
{
  g_return_val_if_fail (quire_session_has_flow (self), FALSE);
  g_return_val_if_fail (quire_session_used_on_its_own_thread (self), FALSE);
  return quire_engine_get_reduced_motion (self->engine);
}

/**
 * quire_session_set_reduced_motion:
 * @self: a #QuireSession
 * @reduced_motion: %TRUE to run with reduced motion
 *
 * Sets the #QuireSession:reduced-motion: on, page moves land at once and auto-advance pauses;
 * off, both come back. A snapshot does not hold it: set it again on a restored session.
 *
 * Since: 0.1
 */
void
quire_session_set_reduced_motion (QuireSession *self, gboolean reduced_motion)
{
  g_return_if_fail (quire_session_has_flow (self));
  g_return_if_fail (quire_session_used_on_its_own_thread (self));

  reduced_motion = !!reduced_motion;
  if (quire_engine_get_reduced_motion (self->engine) == reduced_motion)
    return;
  quire_engine_set_reduced_motion (self->engine, reduced_motion);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REDUCED_MOTION]);
}
