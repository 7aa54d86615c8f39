/* ime-entry: the control of the real-input suite's ime/* case — a plain GtkEntry, nothing of
 * Quire's, in a window of its own. What the input method does to it is printed, one flushed
 * line each, so the suite can tell a broken IBus set-up from a fault of the app:
 *
 *   ready | preedit TEXT (the pre-edit shown, "" when it ends) | entry-changed TEXT |
 *   activate TEXT (Return reached the entry itself, not the input method)
 *
 * Built by the suite at test time (ime_cases.py), from this file only:
 *   cc -o ime-entry ime-entry.c $(pkg-config --cflags --libs gtk4)
 */
#include <gtk/gtk.h>
#include <stdio.h>

static void say (const char *what, const char *text)
{
  printf ("%s %s\n", what, text ? text : "");
  fflush (stdout);
}

static void on_preedit (GtkText *text, const char *preedit, gpointer data)
{
  (void) text; (void) data;
  say ("preedit", preedit);
}

static void on_changed (GtkEditable *editable, gpointer data)
{
  (void) data;
  say ("entry-changed", gtk_editable_get_text (editable));
}

static void on_activate (GtkEntry *entry, gpointer data)
{
  (void) data;
  say ("activate", gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static gboolean announce_ready (gpointer data)
{
  (void) data;
  say ("ready", "");
  return G_SOURCE_REMOVE;
}

static void activate (GtkApplication *app, gpointer data)
{
  (void) data;
  GtkWidget *win = gtk_application_window_new (app);
  gtk_window_set_title (GTK_WINDOW (win), "IME control");
  gtk_window_set_default_size (GTK_WINDOW (win), 360, 120);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 18);
  gtk_widget_set_margin_start (box, 18);
  gtk_widget_set_margin_end (box, 18);
  GtkWidget *entry = gtk_entry_new ();
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry), GTK_ACCESSIBLE_PROPERTY_LABEL, "Name", -1);
  gtk_box_append (GTK_BOX (box), entry);
  gtk_window_set_child (GTK_WINDOW (win), box);
  g_signal_connect (gtk_editable_get_delegate (GTK_EDITABLE (entry)), "preedit-changed", G_CALLBACK (on_preedit), NULL);
  g_signal_connect (entry, "changed", G_CALLBACK (on_changed), NULL);
  g_signal_connect (entry, "activate", G_CALLBACK (on_activate), NULL);
  gtk_window_present (GTK_WINDOW (win));
  gtk_widget_grab_focus (entry);
  g_idle_add (announce_ready, NULL);
}

int main (int argc, char **argv)
{
  GtkApplication *app = gtk_application_new (NULL, G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (activate), NULL);
  int status = g_application_run (G_APPLICATION (app), argc, argv);
  g_object_unref (app);
  return status;
}
