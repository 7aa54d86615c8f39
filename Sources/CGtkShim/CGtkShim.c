#define _GNU_SOURCE 1
#include "CGtkShim.h"

#include <glib-unix.h>
#include <gdk/x11/gdkx.h>

#include <errno.h>
#include <stdint.h>
#include <unistd.h>

GObject *quire_object(gpointer instance) { return G_OBJECT(instance); }
GtkWidget *quire_widget(gpointer instance) { return GTK_WIDGET(instance); }
GtkWindow *quire_window(gpointer instance) { return GTK_WINDOW(instance); }
GtkBox *quire_box(gpointer instance) { return GTK_BOX(instance); }
GtkLabel *quire_label(gpointer instance) { return GTK_LABEL(instance); }
GtkButton *quire_button(gpointer instance) { return GTK_BUTTON(instance); }
GtkEditable *quire_editable(gpointer instance) { return GTK_EDITABLE(instance); }
GtkEntry *quire_entry(gpointer instance) { return GTK_ENTRY(instance); }
GtkSwitch *quire_switch(gpointer instance) { return GTK_SWITCH(instance); }
GtkProgressBar *quire_progress_bar(gpointer instance) { return GTK_PROGRESS_BAR(instance); }
GtkDrawingArea *quire_drawing_area(gpointer instance) { return GTK_DRAWING_AREA(instance); }
GtkOverlay *quire_overlay(gpointer instance) { return GTK_OVERLAY(instance); }
GtkRevealer *quire_revealer(gpointer instance) { return GTK_REVEALER(instance); }
GtkStack *quire_stack(gpointer instance) { return GTK_STACK(instance); }
GtkGesture *quire_gesture(gpointer instance) { return GTK_GESTURE(instance); }
GtkGestureSingle *quire_gesture_single(gpointer instance) { return GTK_GESTURE_SINGLE(instance); }
GtkGestureDrag *quire_gesture_drag(gpointer instance) { return GTK_GESTURE_DRAG(instance); }
GtkEventController *quire_event_controller(gpointer instance) { return GTK_EVENT_CONTROLLER(instance); }
GtkEventControllerScroll *quire_event_controller_scroll(gpointer instance) { return GTK_EVENT_CONTROLLER_SCROLL(instance); }
GtkAccessible *quire_accessible(gpointer instance) { return GTK_ACCESSIBLE(instance); }
GtkApplication *quire_application(gpointer instance) { return GTK_APPLICATION(instance); }
GApplication *quire_g_application(gpointer instance) { return G_APPLICATION(instance); }
GActionMap *quire_action_map(gpointer instance) { return G_ACTION_MAP(instance); }
GSimpleAction *quire_simple_action(gpointer instance) { return G_SIMPLE_ACTION(instance); }
GtkHeaderBar *quire_header_bar(gpointer instance) { return GTK_HEADER_BAR(instance); }
GtkCenterBox *quire_center_box(gpointer instance) { return GTK_CENTER_BOX(instance); }
GtkPopover *quire_popover(gpointer instance) { return GTK_POPOVER(instance); }

gboolean quire_is_object(gpointer instance) { return G_IS_OBJECT(instance); }
gboolean quire_is_floating(gpointer instance) { return g_object_is_floating(instance); }

gulong quire_signal_connect(gpointer instance, const char *signal, const void *handler, gpointer data,
                            GClosureNotify destroy, gboolean after) {
    return g_signal_connect_data(instance, signal, (GCallback)handler, data, destroy,
                                 after ? G_CONNECT_AFTER : (GConnectFlags)0);
}

void quire_signal_emit(gpointer instance, const char *signal) { g_signal_emit_by_name(instance, signal); }

void quire_signal_emit_pointer(gpointer instance, const char *signal, gpointer argument) {
    g_signal_emit_by_name(instance, signal, argument);
}

void quire_signal_emit_double2(gpointer instance, const char *signal, double a, double b) {
    g_signal_emit_by_name(instance, signal, a, b);
}

gboolean quire_signal_emit_double2_boolean(gpointer instance, const char *signal, double a, double b) {
    gboolean result = FALSE;
    g_signal_emit_by_name(instance, signal, a, b, &result);
    return result;
}

void quire_signal_emit_int_double2(gpointer instance, const char *signal, int n, double x, double y) {
    g_signal_emit_by_name(instance, signal, n, x, y);
}

gboolean quire_signal_emit_key(gpointer instance, const char *signal, guint keyval, guint keycode,
                               GdkModifierType state) {
    gboolean result = FALSE;
    g_signal_emit_by_name(instance, signal, keyval, keycode, state, &result);
    return result;
}

gboolean quire_signal_emit_boolean(gpointer instance, const char *signal, gboolean value) {
    gboolean result = FALSE;
    g_signal_emit_by_name(instance, signal, value, &result);
    return result;
}

void quire_signal_emit_int2(gpointer instance, const char *signal, int a, int b) {
    g_signal_emit_by_name(instance, signal, a, b);
}

void quire_signal_emit_insert_text(gpointer instance, const char *text, int length, int *position) {
    g_signal_emit_by_name(instance, "insert-text", text, length, position);
}

GType quire_type_of(gpointer instance) { return G_TYPE_FROM_INSTANCE(instance); }
GType quire_signal_fundamental(GType type) { return G_TYPE_FUNDAMENTAL(type & ~G_SIGNAL_TYPE_STATIC_SCOPE); }

GtkWidget *quire_drawing_area_new_with_role(GtkAccessibleRole role) {
    return g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", role, NULL);
}

void quire_accessible_set_label(gpointer widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

// The description the app last gave a widget (NULL: none), kept so that an announcement spoken
// through the description of the focused widget (GTK < 4.14, below) can put it back.
#define QUIRE_OWN_DESCRIPTION "quire-own-description"
#define QUIRE_ANNOUNCED_ON "quire-announced-on"

static void quire_forget_announcement(GtkWidget *widget);

void quire_accessible_set_description(gpointer widget, const char *description) {
    g_object_set_data_full(G_OBJECT(widget), QUIRE_OWN_DESCRIPTION, g_strdup(description), g_free);
    quire_forget_announcement(GTK_WIDGET(widget));
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
}

void quire_accessible_set_value(gpointer widget, double min, double max, double now, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_VALUE_MIN, min,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_MAX, max, GTK_ACCESSIBLE_PROPERTY_VALUE_NOW, now,
                                   GTK_ACCESSIBLE_PROPERTY_VALUE_TEXT, text, -1);
}

void quire_accessible_reset_label(gpointer widget) {
    gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

void quire_gesture_set_touch_and_mouse(gpointer gesture) {
    gtk_gesture_single_set_touch_only(GTK_GESTURE_SINGLE(gesture), FALSE);
}

// libdispatch's hooks for a foreign run loop (CoreFoundation uses the same two): the main queue
// pokes an eventfd when work is queued; the loop watching it calls the callback to run that work.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

static guint main_queue_source = 0;

static gboolean main_queue_ready(gint fd, GIOCondition condition, gpointer data) {
    (void)condition;
    (void)data;
    uint64_t count;
    // Reset the eventfd before running the work: a block queued while it runs pokes it again.
    while (read(fd, &count, sizeof count) < 0 && errno == EINTR) {
    }
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

guint quire_install_main_queue_source(void) {
    if (main_queue_source != 0) return main_queue_source;
    int fd = _dispatch_get_main_queue_handle_4CF();
    if (fd < 0) return 0;
    main_queue_source = g_unix_fd_add_full(G_PRIORITY_DEFAULT, fd, G_IO_IN, main_queue_ready, NULL, NULL);
    return main_queue_source;
}

void quire_drain_main_queue(void) { _dispatch_main_queue_callback_4CF(NULL); }

void quire_settings_set_prefer_dark(gboolean dark) {
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) g_object_set(settings, "gtk-application-prefer-dark-theme", dark, NULL);
}

void quire_settings_set_bool(const char *name, gboolean value) {
    GtkSettings *settings = gtk_settings_get_default();
    if (settings) g_object_set(settings, name, value, NULL);
}

void quire_focus_toplevel(gpointer window) {
    GdkSurface *surface = gtk_native_get_surface(GTK_NATIVE(window));
    if (surface == NULL || !GDK_IS_X11_SURFACE(surface)) return;
    Display *display = GDK_SURFACE_XDISPLAY(surface);
    XSetInputFocus(display, gdk_x11_surface_get_xid(surface), RevertToParent, CurrentTime);
    XSync(display, False);
}

/* Page layouts ----------------------------------------------------------------------------- */

GtkCheckButton *quire_check_button(gpointer instance) { return GTK_CHECK_BUTTON(instance); }
GtkText *quire_text(gpointer instance) { return GTK_TEXT(instance); }
void quire_log_warning(const char *message) { g_log("Quire", G_LOG_LEVEL_WARNING, "%s", message); }
gboolean quire_is_a(gpointer instance, GType type) { return G_TYPE_CHECK_INSTANCE_TYPE(instance, type); }

const char *quire_buildable_id(gpointer object) {
    if (!GTK_IS_BUILDABLE(object)) return g_object_get_data(G_OBJECT(object), "gtk-builder-id");
    return gtk_buildable_get_buildable_id(GTK_BUILDABLE(object));
}

void quire_layout_ensure_types(void) {
    g_type_ensure(GTK_TYPE_BOX);
    g_type_ensure(GTK_TYPE_CENTER_BOX);
    g_type_ensure(GTK_TYPE_GRID);
    g_type_ensure(GTK_TYPE_FRAME);
    g_type_ensure(GTK_TYPE_EXPANDER);
    g_type_ensure(GTK_TYPE_OVERLAY);
    g_type_ensure(GTK_TYPE_REVEALER);
    g_type_ensure(GTK_TYPE_SCROLLED_WINDOW);
    g_type_ensure(GTK_TYPE_VIEWPORT);
    g_type_ensure(GTK_TYPE_SEPARATOR);
    g_type_ensure(GTK_TYPE_LABEL);
    g_type_ensure(GTK_TYPE_ENTRY);
    g_type_ensure(GTK_TYPE_TEXT);
    g_type_ensure(GTK_TYPE_SWITCH);
    g_type_ensure(GTK_TYPE_CHECK_BUTTON);
    g_type_ensure(GTK_TYPE_BUTTON);
    g_type_ensure(GTK_TYPE_SIZE_GROUP);
}

#define QUIRE_TYPE_LAYOUT_SCOPE (quire_layout_scope_get_type())
G_DECLARE_FINAL_TYPE(QuireLayoutScope, quire_layout_scope, QUIRE, LAYOUT_SCOPE, GObject)

struct _QuireLayoutScope {
    GObject parent_instance;
    GStrv allowed;
    char *refused_type;
    char *refused_handler;
};

static GType layout_scope_type_from_name(GtkBuilderScope *scope, GtkBuilder *builder, const char *name) {
    QuireLayoutScope *self = QUIRE_LAYOUT_SCOPE(scope);
    (void)builder;
    if (self->allowed != NULL && g_strv_contains((const char *const *)self->allowed, name)) {
        GType type = g_type_from_name(name);
        if (type != G_TYPE_INVALID) return type;
    }
    if (self->refused_type == NULL) self->refused_type = g_strdup(name);
    return G_TYPE_INVALID;
}

static GType layout_scope_type_from_function(GtkBuilderScope *scope, GtkBuilder *builder, const char *function) {
    QuireLayoutScope *self = QUIRE_LAYOUT_SCOPE(scope);
    (void)builder;
    if (self->refused_type == NULL) self->refused_type = g_strdup_printf("%s()", function);
    return G_TYPE_INVALID;
}

static GClosure *layout_scope_create_closure(GtkBuilderScope *scope, GtkBuilder *builder, const char *function,
                                             GtkBuilderClosureFlags flags, GObject *object, GError **error) {
    QuireLayoutScope *self = QUIRE_LAYOUT_SCOPE(scope);
    (void)builder;
    (void)flags;
    (void)object;
    if (self->refused_handler == NULL) self->refused_handler = g_strdup(function);
    g_set_error(error, GTK_BUILDER_ERROR, GTK_BUILDER_ERROR_INVALID_FUNCTION,
                "layouts cannot connect signals (the handler '%s')", function);
    return NULL;
}

static void quire_layout_scope_iface_init(GtkBuilderScopeInterface *iface) {
    iface->get_type_from_name = layout_scope_type_from_name;
    iface->get_type_from_function = layout_scope_type_from_function;
    iface->create_closure = layout_scope_create_closure;
}

G_DEFINE_FINAL_TYPE_WITH_CODE(QuireLayoutScope, quire_layout_scope, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(GTK_TYPE_BUILDER_SCOPE, quire_layout_scope_iface_init))

static void quire_layout_scope_finalize(GObject *object) {
    QuireLayoutScope *self = QUIRE_LAYOUT_SCOPE(object);
    g_strfreev(self->allowed);
    g_free(self->refused_type);
    g_free(self->refused_handler);
    G_OBJECT_CLASS(quire_layout_scope_parent_class)->finalize(object);
}

static void quire_layout_scope_class_init(QuireLayoutScopeClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = quire_layout_scope_finalize;
}

static void quire_layout_scope_init(QuireLayoutScope *self) { (void)self; }

GtkBuilderScope *quire_layout_scope_new(const char *const *allowed) {
    QuireLayoutScope *self = g_object_new(QUIRE_TYPE_LAYOUT_SCOPE, NULL);
    self->allowed = g_strdupv((char **)allowed);
    return GTK_BUILDER_SCOPE(self);
}

const char *quire_layout_scope_refused_type(GtkBuilderScope *scope) { return QUIRE_LAYOUT_SCOPE(scope)->refused_type; }
const char *quire_layout_scope_refused_handler(GtkBuilderScope *scope) {
    return QUIRE_LAYOUT_SCOPE(scope)->refused_handler;
}

gboolean quire_is_main_thread(void) { return gettid() == getpid(); }

void quire_accessible_set_required(gpointer widget, gboolean required) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_REQUIRED, required, -1);
}

void quire_accessible_set_invalid(gpointer widget, gboolean invalid) {
    // GTK before 4.10 maps GTK_ACCESSIBLE_STATE_INVALID to ATSPI_STATE_INVALID ("this object is
    // no longer valid"), not STATE_INVALID_ENTRY: Orca 43 then takes the entry for a zombie and
    // never moves its focus there, so the field focused after a refused Next is not spoken at all
    // (measured: "ZOMBIE: [text | Name] is invalid" in Orca's debug log). There the error stays in
    // the description and the described-by relation only.
    if (gtk_get_major_version() == 4 && gtk_get_minor_version() < 10) return;
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_INVALID,
                                invalid ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

void quire_accessible_set_hidden(gpointer widget, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

void quire_accessible_set_selected(gpointer widget, gboolean selected) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_SELECTED, selected, -1);
}

void quire_accessible_set_checked(gpointer widget, gboolean checked) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_STATE_CHECKED,
                                checked ? GTK_ACCESSIBLE_TRISTATE_TRUE : GTK_ACCESSIBLE_TRISTATE_FALSE, -1);
}

void quire_accessible_set_described_by(gpointer widget, gpointer other) {
    if (other == NULL) {
        gtk_accessible_reset_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY);
        return;
    }
    gtk_accessible_update_relation(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_RELATION_DESCRIBED_BY, GTK_ACCESSIBLE(other),
                                   NULL, -1);
}

void quire_accessible_reset_description(gpointer widget) {
    g_object_set_data(G_OBJECT(widget), QUIRE_OWN_DESCRIPTION, NULL);
    quire_forget_announcement(GTK_WIDGET(widget));
    gtk_accessible_reset_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}

GtkWidget *quire_widget_new_with_role(GType type, GtkAccessibleRole role) {
    return g_object_new(type, "accessible-role", role, NULL);
}

gboolean quire_accessible_can_announce(void) { return QUIRE_CAN_ANNOUNCE; }

void quire_accessible_announce(gpointer widget, const char *message) {
    quire_announce(widget, message, FALSE);
}

// GTK < 4.14 (Debian 12's 4.8) has no way to announce, and Orca 43 presents neither an alert nor
// a live region whose text changes there (GTK 4.8 emits `showing` only for windows, and Orca
// speaks text and name changes only of the object with focus). What Orca does speak is a change
// of the focused object's description (default.py, onDescriptionChanged: presentMessage). So the
// announcement becomes, for a moment, the description of the widget with keyboard focus (the
// window when none has it): cleared first (an empty description is not spoken, and the same text
// twice is then still a change), then the message. Put back at once when the widget had no
// description of its own; otherwise once focus moves elsewhere (from an idle, after GTK's focus
// events: Orca then no longer presents that widget's changes), since putting "Required" back
// while it has focus would be spoken again. The app's own description set meanwhile wins.
static void quire_weak_ref_free(gpointer ref) {
    g_weak_ref_clear(ref);
    g_free(ref);
}

// The widget an announcement waits on (a weak reference kept on the window), or NULL; a new
// reference the caller releases.
static GtkWidget *quire_announced_on(GObject *root) {
    GWeakRef *ref = g_object_get_data(root, QUIRE_ANNOUNCED_ON);
    return ref ? g_weak_ref_get(ref) : NULL;
}

static void quire_set_announced_on(GObject *root, GtkWidget *target) {
    if (!target) {
        g_object_set_data(root, QUIRE_ANNOUNCED_ON, NULL);
        return;
    }
    GWeakRef *ref = g_new0(GWeakRef, 1);
    g_weak_ref_init(ref, target);
    g_object_set_data_full(root, QUIRE_ANNOUNCED_ON, ref, quire_weak_ref_free);
}

static void quire_forget_announcement(GtkWidget *widget) {
    GtkRoot *root = gtk_widget_get_root(widget);
    if (!root) return;
    GtkWidget *target = quire_announced_on(G_OBJECT(root));
    if (target == widget) quire_set_announced_on(G_OBJECT(root), NULL);
    if (target) g_object_unref(target);
}

#if !QUIRE_CAN_ANNOUNCE
static void quire_put_description_back(GtkWidget *widget) {
    const char *own = g_object_get_data(G_OBJECT(widget), QUIRE_OWN_DESCRIPTION);
    if (own)
        gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, own, -1);
    else
        gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
}

static gboolean quire_restore_after_focus(gpointer data) {
    GWeakRef *ref = data;
    GtkWidget *root = g_weak_ref_get(ref);
    if (root) {
        GtkWidget *target = quire_announced_on(G_OBJECT(root));
        GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(root));
        if (target && (!focus || (focus != target && !gtk_widget_is_ancestor(focus, target)))) {
            quire_set_announced_on(G_OBJECT(root), NULL);
            quire_put_description_back(target);
        }
        if (target) g_object_unref(target);
        g_object_unref(root);
    }
    g_weak_ref_clear(ref);
    g_free(ref);
    return G_SOURCE_REMOVE;
}

static void quire_focus_moved(GObject *root, GParamSpec *pspec, gpointer data) {
    (void)pspec;
    (void)data;
    if (!g_object_get_data(root, QUIRE_ANNOUNCED_ON)) return;
    GWeakRef *ref = g_new0(GWeakRef, 1);
    g_weak_ref_init(ref, root);
    g_idle_add(quire_restore_after_focus, ref);
}

/// The widget whose description Orca would present: the focus widget, or the first ancestor of it
/// with a role of its own (the GtkText inside a GtkEntry has none; the entry is what is focused
/// for AT-SPI), else the window.
static GtkWidget *quire_announcement_target(GtkWidget *widget) {
    GtkRoot *root = gtk_widget_get_root(widget);
    if (!root) return NULL;
    GtkWidget *target = gtk_root_get_focus(root);
    while (target && gtk_accessible_get_accessible_role(GTK_ACCESSIBLE(target)) == GTK_ACCESSIBLE_ROLE_NONE)
        target = gtk_widget_get_parent(target);
    return target ? target : GTK_WIDGET(root);
}
#endif

void quire_announce(gpointer widget, const char *message, gboolean assertive) {
#if QUIRE_CAN_ANNOUNCE
    gtk_accessible_announce(GTK_ACCESSIBLE(widget), message,
                            assertive ? GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_HIGH
                                      : GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM);
#else
    (void)assertive;
    GtkWidget *target = quire_announcement_target(GTK_WIDGET(widget));
    if (!target || !message || !*message) return;
    GObject *root = G_OBJECT(gtk_widget_get_root(target));
    GtkWidget *previous = quire_announced_on(root);
    if (previous) {
        quire_set_announced_on(root, NULL);
        if (previous != target) quire_put_description_back(previous);
        g_object_unref(previous);
    }
    gtk_accessible_update_property(GTK_ACCESSIBLE(target), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
    gtk_accessible_update_property(GTK_ACCESSIBLE(target), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, message, -1);
    const char *own = g_object_get_data(G_OBJECT(target), QUIRE_OWN_DESCRIPTION);
    if (!own || !*own) {
        gtk_accessible_update_property(GTK_ACCESSIBLE(target), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, "", -1);
        return;
    }
    quire_set_announced_on(root, target);
    if (!g_object_get_data(root, "quire-announce-watch")) {
        g_object_set_data(root, "quire-announce-watch", GINT_TO_POINTER(1));
        g_signal_connect(root, "notify::focus-widget", G_CALLBACK(quire_focus_moved), NULL);
    }
#endif
}

typedef struct {
    GtkWidget *window;
    char *message;
    gboolean assertive;
} QuireLaterAnnouncement;

static gboolean quire_announce_now(gpointer data) {
    QuireLaterAnnouncement *later = data;
    quire_announce(later->window, later->message, later->assertive);
    g_object_unref(later->window);
    g_free(later->message);
    g_free(later);
    return G_SOURCE_REMOVE;
}

void quire_announce_later(gpointer widget, const char *message, gboolean assertive) {
    GtkRoot *root = gtk_widget_get_root(GTK_WIDGET(widget));
    if (!root || !message) return;
    QuireLaterAnnouncement *later = g_new0(QuireLaterAnnouncement, 1);
    later->window = g_object_ref(GTK_WIDGET(root));
    later->message = g_strdup(message);
    later->assertive = assertive;
    g_idle_add(quire_announce_now, later);
}

gboolean quire_settings_get_bool(const char *name) {
    GtkSettings *settings = gtk_settings_get_default();
    gboolean value = FALSE;
    if (settings) g_object_get(settings, name, &value, NULL);
    return value;
}

static void value_area_measure(GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                               int *minimum_baseline, int *natural_baseline) {
    (void)for_size;
    GtkDrawingArea *area = GTK_DRAWING_AREA(widget);
    int size = orientation == GTK_ORIENTATION_HORIZONTAL ? gtk_drawing_area_get_content_width(area)
                                                         : gtk_drawing_area_get_content_height(area);
    int low = size;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        int child_minimum = 0;
        gtk_widget_measure(child, orientation, -1, &child_minimum, NULL, NULL, NULL);
        if (child_minimum > low) low = child_minimum;
    }
    *minimum = low;
    *natural = low;
    *minimum_baseline = -1;
    *natural_baseline = -1;
}

static void value_area_allocate(GtkWidget *widget, int width, int height, int baseline) {
    (void)baseline;
    for (GtkWidget *child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child)) {
        if (!gtk_widget_should_layout(child)) continue;
        int ignored;
        gtk_widget_measure(child, GTK_ORIENTATION_HORIZONTAL, -1, &ignored, NULL, NULL, NULL);
        gtk_widget_measure(child, GTK_ORIENTATION_VERTICAL, width, &ignored, NULL, NULL, NULL);
        gtk_widget_allocate(child, width, height, -1, NULL);
    }
}

static void value_area_destroyed(GtkWidget *area, gpointer data) {
    (void)data;
    GtkWidget *child;
    while ((child = gtk_widget_get_first_child(area)) != NULL) gtk_widget_unparent(child);
}

// Focus given to the stand-in before it is realized (the input panel's wheels get it as the
// picker opens, while the panel is built and slides in) is never told to AT-SPI: GTK 4.8 drops the
// state change of an unrealized widget, and Orca 43 then stays on the control before and
// ignores the wheel's changes (measured: no `focused` event for "Focus time, hours", its turns
// unspoken). Once mapped with the focus, the stand-in takes it again (focus set to none first,
// since grabbing a focused widget changes nothing), from an idle after the map.
static gboolean value_proxy_refocus(gpointer data) {
    GWeakRef *ref = data;
    GtkWidget *proxy = g_weak_ref_get(ref);
    if (proxy) {
        GtkRoot *root = gtk_widget_get_root(proxy);
        if (root && gtk_widget_get_mapped(proxy) && gtk_root_get_focus(root) == proxy) {
            gtk_root_set_focus(root, NULL);
            gtk_widget_grab_focus(proxy);
        }
        g_object_unref(proxy);
    }
    g_weak_ref_clear(ref);
    g_free(ref);
    return G_SOURCE_REMOVE;
}

static void value_proxy_focus_changed(GtkWidget *proxy, GParamSpec *pspec, gpointer data) {
    (void)pspec;
    (void)data;
    if (!gtk_widget_has_focus(proxy) || gtk_widget_get_mapped(proxy)) return;
    // Focused while not on screen yet: told again once it is.
    g_object_set_data(G_OBJECT(proxy), "quire-refocus", GINT_TO_POINTER(1));
}

static void value_proxy_mapped(GtkWidget *proxy, gpointer data) {
    (void)data;
    if (!g_object_get_data(G_OBJECT(proxy), "quire-refocus")) return;
    g_object_set_data(G_OBJECT(proxy), "quire-refocus", NULL);
    GWeakRef *ref = g_new0(GWeakRef, 1);
    g_weak_ref_init(ref, proxy);
    g_idle_add(value_proxy_refocus, ref);
}

GtkWidget *quire_value_area_attach(gpointer area, GtkAccessibleRole role) {
    static gboolean styled = FALSE;
    GdkDisplay *display = gdk_display_get_default();
    if (!styled && display != NULL) {
        styled = TRUE;
        GtkCssProvider *provider = gtk_css_provider_new();
        gtk_css_provider_load_from_data(provider,
                                        "progressbar.quire-value-proxy, progressbar.quire-value-proxy > trough, "
                                        "progressbar.quire-value-proxy > trough > progress "
                                        "{ min-width: 0; min-height: 0; margin: 0; padding: 0; border: none; }",
                                        -1);
        gtk_style_context_add_provider_for_display(display, GTK_STYLE_PROVIDER(provider),
                                                   GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
        g_object_unref(provider);
    }
    GtkWidget *widget = GTK_WIDGET(area);
    GtkWidget *proxy = g_object_new(GTK_TYPE_PROGRESS_BAR, "accessible-role", role, NULL);
    gtk_widget_add_css_class(proxy, "quire-value-proxy");
    gtk_widget_set_opacity(proxy, 0);
    gtk_widget_set_can_target(proxy, FALSE);
    gtk_widget_set_layout_manager(widget, gtk_custom_layout_new(NULL, value_area_measure, value_area_allocate));
    gtk_widget_set_parent(proxy, widget);
    g_signal_connect(widget, "destroy", G_CALLBACK(value_area_destroyed), NULL);
    g_signal_connect(proxy, "notify::has-focus", G_CALLBACK(value_proxy_focus_changed), NULL);
    g_signal_connect(proxy, "map", G_CALLBACK(value_proxy_mapped), NULL);
    return proxy;
}
