// What Swift cannot import from GTK's headers, as plain functions: the type-checked cast macros,
// g_signal_connect (a macro over g_signal_connect_data), variadic constructors that set
// construct-only properties, and the bridge that lets Swift's main queue run inside GLib's loop.
#ifndef QUIRE_CGTK_SHIM_H
#define QUIRE_CGTK_SHIM_H

#include <gtk/gtk.h>

// Checked casts (G_TYPE_CHECK_INSTANCE_CAST: a wrong type is a GLib critical, not silent).
GObject *quire_object(gpointer instance);
GtkWidget *quire_widget(gpointer instance);
GtkWindow *quire_window(gpointer instance);
GtkBox *quire_box(gpointer instance);
GtkLabel *quire_label(gpointer instance);
GtkButton *quire_button(gpointer instance);
GtkEditable *quire_editable(gpointer instance);
GtkEntry *quire_entry(gpointer instance);
GtkSwitch *quire_switch(gpointer instance);
GtkProgressBar *quire_progress_bar(gpointer instance);
GtkDrawingArea *quire_drawing_area(gpointer instance);
GtkOverlay *quire_overlay(gpointer instance);
GtkRevealer *quire_revealer(gpointer instance);
GtkStack *quire_stack(gpointer instance);
GtkGesture *quire_gesture(gpointer instance);
GtkGestureSingle *quire_gesture_single(gpointer instance);
GtkGestureDrag *quire_gesture_drag(gpointer instance);
GtkEventController *quire_event_controller(gpointer instance);
GtkEventControllerScroll *quire_event_controller_scroll(gpointer instance);
GtkAccessible *quire_accessible(gpointer instance);
GtkApplication *quire_application(gpointer instance);
GApplication *quire_g_application(gpointer instance);
GActionMap *quire_action_map(gpointer instance);
GSimpleAction *quire_simple_action(gpointer instance);
GtkHeaderBar *quire_header_bar(gpointer instance);
GtkCenterBox *quire_center_box(gpointer instance);
GtkPopover *quire_popover(gpointer instance);

gboolean quire_is_object(gpointer instance);
gboolean quire_is_floating(gpointer instance);

// g_signal_connect_data with the handler as an untyped function pointer (G_CALLBACK's cast).
gulong quire_signal_connect(gpointer instance, const char *signal, const void *handler, gpointer data,
                            GClosureNotify destroy, gboolean after);

// Emits a signal without arguments or result (tests; g_signal_emit_by_name is variadic).
void quire_signal_emit(gpointer instance, const char *signal);

// Emits a signal with the C arguments it declares, returning its result where it has one (tests;
// g_signal_emit_by_name is variadic): `cancel (GdkEventSequence *)`, `notify (GParamSpec *)`…;
// `drag-begin/update/end (double, double)`; `scroll (double, double) -> gboolean`;
// `pressed/released (int, double, double)`; `key-pressed (guint, guint, GdkModifierType) ->
// gboolean`; `state-set (gboolean) -> gboolean`; `delete-text (int, int)`; `insert-text (const
// char *, int, int *)`.
void quire_signal_emit_pointer(gpointer instance, const char *signal, gpointer argument);
void quire_signal_emit_double2(gpointer instance, const char *signal, double a, double b);
gboolean quire_signal_emit_double2_boolean(gpointer instance, const char *signal, double a, double b);
void quire_signal_emit_int_double2(gpointer instance, const char *signal, int n, double x, double y);
gboolean quire_signal_emit_key(gpointer instance, const char *signal, guint keyval, guint keycode,
                               GdkModifierType state);
gboolean quire_signal_emit_boolean(gpointer instance, const char *signal, gboolean value);
void quire_signal_emit_int2(gpointer instance, const char *signal, int a, int b);
void quire_signal_emit_insert_text(gpointer instance, const char *text, int length, int *position);

// For the signal signature check: the GType of an instance (G_TYPE_FROM_INSTANCE), and the
// fundamental type of a signal's argument or result type (its G_SIGNAL_TYPE_STATIC_SCOPE bit
// cleared, then G_TYPE_FUNDAMENTAL).
GType quire_type_of(gpointer instance);
GType quire_signal_fundamental(GType type);

// A drawing area whose accessible role is not the default (the role is construct-only).
GtkWidget *quire_drawing_area_new_with_role(GtkAccessibleRole role);

// Accessible properties (gtk_accessible_update_property is variadic).
void quire_accessible_set_label(gpointer widget, const char *label);
void quire_accessible_set_description(gpointer widget, const char *description);
void quire_accessible_set_value(gpointer widget, double min, double max, double now, const char *text);
void quire_accessible_reset_label(gpointer widget);

// GtkGestureSingle and GtkEventControllerScroll flags without the enum casting dance.
void quire_gesture_set_touch_and_mouse(gpointer gesture);

// Gives a realized toplevel the X input focus (XSetInputFocus), so it is the active window
// where no window manager does that (Xvfb in tests); does nothing on other backends.
void quire_focus_toplevel(gpointer window);

// Swift's main queue, drained from GLib's main loop: installs (once) a source on the default main
// context that watches libdispatch's main-queue handle and runs what is queued when it fires.
// Returns the source id (0 when it could not be installed).
guint quire_install_main_queue_source(void);
// Runs what is queued on Swift's main queue now (tests iterate GLib by hand and call this too).
void quire_drain_main_queue(void);



// Page layouts (GtkBuilder files from flows): a GtkBuilderScope that creates only the types named
// in `allowed` (NULL-terminated, copied) and refuses every closure (`<signal>`, `<closure>`, a
// `type-func`), remembering the first type and the first handler it refused.
GtkBuilderScope *quire_layout_scope_new(const char *const *allowed);
const char *quire_layout_scope_refused_type(GtkBuilderScope *scope);
const char *quire_layout_scope_refused_handler(GtkBuilderScope *scope);
// Registers the GTK types a layout may name (g_type_from_name finds only registered types).
void quire_layout_ensure_types(void);
// The id a GtkBuilder object was given (NULL when none), and what GTK type it is.
const char *quire_buildable_id(gpointer object);
gboolean quire_is_a(gpointer instance, GType type);
GtkCheckButton *quire_check_button(gpointer instance);
GtkText *quire_text(gpointer instance);
// A warning in the "Quire" log domain (g_log is variadic).
void quire_log_warning(const char *message);

// GtkSettings' dark-style preference (g_object_set is variadic).
void quire_settings_set_prefer_dark(gboolean dark);
// A boolean GtkSettings property ("gtk-cursor-blink", "gtk-enable-animations").
void quire_settings_set_bool(const char *name, gboolean value);

// Whether this is the process's first thread, the one Swift's main actor runs on (an embedding
// app calling from another thread must be refused, not trapped).
gboolean quire_is_main_thread(void);
// Accessibility (Widgets/Accessibility.swift): gtk_accessible_update_state/property/relation are
// variadic. `required` (a property), `invalid`, `hidden`, `selected` and `checked` (states); the
// described-by relation to one other accessible (NULL: none); a widget of any type created with
// an accessible role other than its class's (the role is construct-only).
void quire_accessible_set_required(gpointer widget, gboolean required);
void quire_accessible_set_invalid(gpointer widget, gboolean invalid);
void quire_accessible_set_hidden(gpointer widget, gboolean hidden);
void quire_accessible_set_selected(gpointer widget, gboolean selected);
void quire_accessible_set_checked(gpointer widget, gboolean checked);
void quire_accessible_set_described_by(gpointer widget, gpointer other);
void quire_accessible_reset_description(gpointer widget);
GtkWidget *quire_widget_new_with_role(GType type, GtkAccessibleRole role);
// gtk_accessible_announce (GTK 4.14) where the GTK built against has it (GTK_CHECK_VERSION at
// build time: Debian 12's 4.8 has not): QUIRE_CAN_ANNOUNCE is 1 then, and the call speaks
// `message` politely; otherwise it does nothing.
#if GTK_CHECK_VERSION(4, 14, 0)
#define QUIRE_CAN_ANNOUNCE 1
#else
#define QUIRE_CAN_ANNOUNCE 0
#endif
gboolean quire_accessible_can_announce(void);
void quire_accessible_announce(gpointer widget, const char *message);
// Makes a screen reader speak `message` (an announcement of the core's, CONTRACT §6.4), assertive
// or polite: gtk_accessible_announce where GTK has it; before GTK 4.14, as a change of the focused
// widget's accessible description, which Orca 43 speaks (docs/accessibility.md).
void quire_announce(gpointer widget, const char *message, gboolean assertive);
// The same from an idle, in the window `widget` is in now, once keyboard focus has settled (the
// widget itself may be gone by then: a finished walkthrough's view replaced by the main view).
void quire_announce_later(gpointer widget, const char *message, gboolean assertive);
// A boolean GtkSettings property of the default settings (g_object_get is variadic); FALSE
// without a display.
gboolean quire_settings_get_bool(const char *name);
// A value a drawn control reports (GTK 4.8's AT-SPI bridge gives the Value interface only to
// GtkRange, GtkProgressBar, GtkSpinButton… instances, whatever their role): an invisible
// GtkProgressBar made with `role` is put inside `area` (a GtkDrawingArea, which keeps its content
// size and draws as before; the proxy is allocated over it, takes no pointer input and is
// unparented when the area is destroyed). The proxy carries the accessible value and name and
// takes keyboard focus in the area's stead. Returns the proxy (floating: the area holds it).
GtkWidget *quire_value_area_attach(gpointer area, GtkAccessibleRole role);
#endif
