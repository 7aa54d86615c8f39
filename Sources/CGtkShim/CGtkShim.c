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

GtkWidget *quire_drawing_area_new_with_role(GtkAccessibleRole role) {
    return g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", role, NULL);
}

void quire_accessible_set_label(gpointer widget, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}

void quire_accessible_set_description(gpointer widget, const char *description) {
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
