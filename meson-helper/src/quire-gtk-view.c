/* quire-gtk-view.c — QuireView, the GTK view of libquire-gtk over a QuireSession. */
#include "quire-gtk-view.h"

#include <quire-gtk.h>

#include "quire-session-private.h"

/**
 * QuireView:
 *
 * A widget that shows a [class@Quire.Session] and sends it what the user does, as `quire run`
 * shows a flow: the pages (or their page layouts) in a pager, the page indicator, the
 * Back/Next/Skip/Finish buttons, the input panel (choice lists, duration wheels, the accessory
 * bar), the keys and the drags of the walkthrough.
 *
 * Events go both ways. The view sends what the user does to its session, so the session's
 * [signal@Quire.Session::notification] signals and `notify` come for them (the frame clock's
 * `tick`s too, while a page moves); events sent with [method@Quire.Session.send] while the
 * view is shown update it.
 *
 * When the session completes, [signal@QuireGtk.View::completed] is emitted and the view keeps
 * showing the last page, insensitive, with the CSS class `completed`: what comes next is the
 * app's to show. [signal@QuireGtk.View::page-changed] follows the pages.
 *
 * From a `.ui` file:
 *
 * ```xml
 * <object class="QuireSession" id="session">
 *   <property name="flow-file">/usr/share/quire/flows/focus-onboarding.json</property>
 * </object>
 * <object class="GtkWindow">
 *   <property name="child">
 *     <object class="QuireView" id="view">
 *       <property name="session">session</property>
 *     </object>
 *   </property>
 * </object>
 * ```
 *
 * A view is used on the thread GTK runs on (the process's first thread), after gtk_init().
 *
 * Since: 0.1
 */
struct _QuireView
{
  GtkWidget parent_instance;

  QuireSession *session;
  /* The walkthrough (libquire-gtk's Swift view over the session's engine), our only child. */
  GtkWidget *walkthrough;
};

G_DEFINE_FINAL_TYPE (QuireView, quire_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_COMPLETED,
  SIGNAL_PAGE_CHANGED,
  SIGNAL_ANNOUNCE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
on_completed (QuireSession *session, const char *name, JsonNode *payload, QuireView *self)
{
  (void) name;
  (void) payload;
  gtk_widget_add_css_class (GTK_WIDGET (self), "completed");
  gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
  g_signal_emit (self, signals[SIGNAL_COMPLETED], 0, quire_session_get_outcome (session));
}

static void
on_page_changed (QuireSession *session, const char *name, JsonNode *payload, QuireView *self)
{
  (void) name;
  (void) payload;
  g_signal_emit (self, signals[SIGNAL_PAGE_CHANGED], 0,
                 quire_session_get_page_index (session), quire_session_get_page_id (session));
}

static void
on_announce (QuireSession *session, const char *text, const char *priority, QuireView *self)
{
  (void) session;
  g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, text, priority);
}

/* Lets go of the session: its handlers, the walkthrough over its engine, the reference. */
static void
detach (QuireView *self)
{
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_pointer (&self->walkthrough, gtk_widget_unparent);
  g_clear_object (&self->session);
}

/**
 * quire_view_set_session:
 * @self: a view
 * @session: (nullable): the session to show, or %NULL to show nothing
 *
 * Shows @session in @self, in place of the one it showed. The view holds a reference on the
 * session it shows, so the session lives at least as long as that; drop your own whenever you
 * like. A session may be shown by several views.
 *
 * Since: 0.1
 */
void
quire_view_set_session (QuireView *self, QuireSession *session)
{
  GtkWidget *walkthrough;

  g_return_if_fail (QUIRE_IS_VIEW (self));
  g_return_if_fail (session == NULL || QUIRE_IS_SESSION (session));

  if (self->session == session)
    return;
  detach (self);
  gtk_widget_remove_css_class (GTK_WIDGET (self), "completed");
  gtk_widget_set_sensitive (GTK_WIDGET (self), TRUE);
  if (session != NULL)
    {
      QuireEngine *engine = quire_session_get_engine (session);

      /* NULL off the process's first thread, or for a session without a flow (which has had
       * its critical): a programmer error, like a NULL session. */
      gboolean display = gdk_display_get_default () != NULL;

      walkthrough = engine != NULL && display ? quire_engine_gtk_view_new (engine) : NULL;
      if (walkthrough == NULL)
        g_critical ("quire_view_set_session: the session cannot be shown: %s",
                    engine == NULL ? "it has no flow"
                    : !display ? "GTK has no display (did gtk_init_check() fail?)"
                    : "this is not the thread GTK runs on");
      else
        {
          self->session = g_object_ref (session);
          self->walkthrough = walkthrough;
          gtk_widget_set_parent (walkthrough, GTK_WIDGET (self));
          /* After the app's own handlers, whenever they were connected: GtkBuilder gives a
           * view its session while it builds, before the app can connect anything. */
          g_signal_connect_after (session, "notification::completed", G_CALLBACK (on_completed), self);
          g_signal_connect_after (session, "notification::pageDidChange", G_CALLBACK (on_page_changed), self);
          g_signal_connect (session, "announce", G_CALLBACK (on_announce), self);
          if (quire_session_get_completed (session))
            {
              gtk_widget_add_css_class (GTK_WIDGET (self), "completed");
              gtk_widget_set_sensitive (GTK_WIDGET (self), FALSE);
            }
        }
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SESSION]);
}

/**
 * quire_view_get_session:
 * @self: a view
 *
 * The session @self shows, the #QuireView:session property.
 *
 * Returns: (transfer none) (nullable): the session @self shows
 *
 * Since: 0.1
 */
QuireSession *
quire_view_get_session (QuireView *self)
{
  g_return_val_if_fail (QUIRE_IS_VIEW (self), NULL);
  return self->session;
}

static void
quire_view_dispose (GObject *object)
{
  detach (QUIRE_VIEW (object));
  G_OBJECT_CLASS (quire_view_parent_class)->dispose (object);
}

static void
quire_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  QuireView *self = QUIRE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
quire_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  QuireView *self = QUIRE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      quire_view_set_session (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
quire_view_class_init (QuireViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = quire_view_dispose;
  object_class->get_property = quire_view_get_property;
  object_class->set_property = quire_view_set_property;

  /**
   * QuireView:session:
   *
   * The session the view shows, or %NULL.
   *
   * Since: 0.1
   */
  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, QUIRE_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * QuireView::completed:
   * @view: the view
   * @outcome: how the session ended: `finished` or `cancelled`
   *
   * Emitted when the session the view shows completes, whoever sent the event (the user in
   * the view, or the app with quire_session_send()), after the session's own
   * `notification::completed` handlers, whenever they were connected (the view's handler is
   * connected with g_signal_connect_after(); only the app's own `_after` handlers connected
   * later run after it). The
   * view is insensitive and has the CSS class `completed` by then. The result is
   * quire_session_get_result().
   *
   * Since: 0.1
   */
  signals[SIGNAL_COMPLETED] =
    g_signal_new ("completed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * QuireView::page-changed:
   * @view: the view
   * @index: the new page's index among the visible pages
   * @id: the new page's id
   *
   * Emitted when a page transition of the session the view shows completes (the session's
   * `pageDidChange`).
   *
   * Since: 0.1
   */
  signals[SIGNAL_PAGE_CHANGED] =
    g_signal_new ("page-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);

  /**
   * QuireView::announce:
   * @view: the view
   * @text: what a screen reader must say, in the session's language
   * @priority: `polite` or `assertive`
   *
   * Emitted for each announcement of the session the view shows ([signal@Quire.Session::announce]),
   * whoever sent the event. The view has already spoken it (gtk_accessible_announce() from GTK
   * 4.14; before, through the focused widget's description, which Orca speaks): connect to log
   * it, or to speak it another way.
   *
   * Since: 0.1
   */
  signals[SIGNAL_ANNOUNCE] =
    g_signal_new ("announce", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "quire-view");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
quire_view_init (QuireView *self)
{
  (void) self;
}

/**
 * quire_view_new:
 * @session: (nullable): the session to show, or %NULL (see [method@QuireGtk.View.set_session])
 *
 * A new view of @session. Call it after gtk_init(), on the thread GTK runs on. GTK not
 * initialized, no display, a session without a flow (one whose construction failed) or a call
 * from another thread are programmer errors: a critical, and %NULL.
 *
 * Returns: (transfer floating) (nullable): a new #QuireView with a floating reference (the
 *   container it is packed into takes it), or %NULL on a programmer error
 *
 * Since: 0.1
 */
GtkWidget *
quire_view_new (QuireSession *session)
{
  QuireView *self;

  g_return_val_if_fail (session == NULL || QUIRE_IS_SESSION (session), NULL);
  g_return_val_if_fail (gtk_is_initialized (), NULL);
  /* GTK 4.8 reports itself initialized after a failed gtk_init_check(): no display then. */
  g_return_val_if_fail (gdk_display_get_default () != NULL, NULL);

  self = g_object_new (QUIRE_TYPE_VIEW, "session", session, NULL);
  if (session != NULL && self->session == NULL)
    {
      /* A session it cannot show (no flow, another thread): quire_view_set_session() said why
       * in a critical; a programmer error, so no view, as for no display. */
      g_object_ref_sink (self);
      g_object_unref (self);
      return NULL;
    }
  return GTK_WIDGET (self);
}

/**
 * quire_gtk_view_new:
 * @session: a #QuireSession
 *
 * The same as quire_view_new() with a session, under the name of Quire 0.1's first releases.
 *
 * Returns: (transfer floating): a new #QuireView
 *
 * Since: 0.1
 */
GtkWidget *
quire_gtk_view_new (QuireSession *session)
{
  g_return_val_if_fail (QUIRE_IS_SESSION (session), NULL);
  return quire_view_new (session);
}
