/* The baseline for `scripts/measure-gtk`: a minimal GTK 4 window in C (a title bar, a label, an
 * entry and a button), measured the way `quire run` measures itself. With QUIRE_MEASURE_T0_US (the
 * launch time on the monotonic clock, µs) it prints `first-frame-ms` when its first frame is
 * painted, quits, and prints `peak-rss-mib` (VmHWM) on the way out. */
#include <gtk/gtk.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gint64 t0 = -1;
static gboolean painted = FALSE;
/* Start-up moments (monotonic µs), printed as `phase NAME MS` with the first frame, as quire does. */
static const char *mark_names[4];
static gint64 mark_times[4];
static int marks = 0;

static void mark(const char *name) {
    if (marks < 4) {
        mark_names[marks] = name;
        mark_times[marks++] = g_get_monotonic_time();
    }
}

static gboolean quit_now(gpointer app) {
    g_application_quit(G_APPLICATION(app));
    return G_SOURCE_REMOVE;
}

static void after_paint(GdkFrameClock *clock, gpointer app) {
    (void)clock;
    if (painted) return;
    painted = TRUE;
    gint64 now = g_get_monotonic_time();
    for (int i = 0; i < marks && t0 >= 0; i++) printf("phase %s %.1f\n", mark_names[i], (mark_times[i] - t0) / 1000.0);
    if (t0 >= 0) printf("first-frame-ms %.1f\n", (now - t0) / 1000.0);
    fflush(stdout);
    g_idle_add(quit_now, app);
}

static gboolean first_tick(GtkWidget *widget, GdkFrameClock *clock, gpointer app) {
    (void)widget;
    g_signal_connect(clock, "after-paint", G_CALLBACK(after_paint), app);
    return G_SOURCE_REMOVE;
}

static void activate(GtkApplication *app, gpointer data) {
    (void)data;
    mark("activate");
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "C window");
    gtk_window_set_default_size(GTK_WINDOW(window), 520, 680);
    gtk_window_set_titlebar(GTK_WINDOW(window), gtk_header_bar_new());
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_valign(box, GTK_ALIGN_CENTER);
    gtk_widget_set_halign(box, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(box), gtk_label_new("Welcome"));
    gtk_box_append(GTK_BOX(box), gtk_entry_new());
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Next"));
    gtk_window_set_child(GTK_WINDOW(window), box);
    gtk_widget_add_tick_callback(window, first_tick, app, NULL);
    gtk_window_present(GTK_WINDOW(window));
    mark("window-presented");
}

static void print_peak_rss(void) {
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return;
    char line[256];
    while (fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmHWM:", 6) == 0) printf("peak-rss-mib %.1f\n", atof(line + 6) / 1024.0);
    }
    fclose(status);
}

int main(int argc, char **argv) {
    mark("main");
    const char *start = getenv("QUIRE_MEASURE_T0_US");
    if (start) t0 = g_ascii_strtoll(start, NULL, 10);
    GtkApplication *app = gtk_application_new("dev.quire.CWindow", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    if (t0 >= 0) print_peak_rss();
    return status;
}
