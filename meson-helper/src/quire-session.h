/* quire-session.h — QuireSession, Quire's C API as a GObject (json-glib for JSON).
 *
 * A thin layer over <quire.h>: each QuireSession owns one QuireEngine. Errors are GErrors in the
 * QUIRE_ERROR domain; notifications are a detailed `notification` signal; the page, focus and
 * completion are properties with `notify`. Introspected as Quire-1.0 (Python, GJS, Vala).
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>
#include <quire-types.h>

G_BEGIN_DECLS

/**
 * QUIRE_ERROR:
 *
 * The error domain of Quire's GObject API. Errors in it have a #QuireError code.
 *
 * Since: 0.1
 */
#define QUIRE_ERROR (quire_error_quark ())

/**
 * QuireError:
 * @QUIRE_ERROR_INVALID_ARGUMENT: an argument was %NULL where a value is required, text was not
 *   UTF-8, or a value was out of range (an empty locale, a viewport width outside 1 to 100000
 *   pixels)
 * @QUIRE_ERROR_FILE: a file could not be read: it does not exist, is a directory, cannot be
 *   opened, or is larger than 16 MiB
 * @QUIRE_ERROR_INVALID_JSON: the text is not JSON, or is nested deeper than 64 levels or larger
 *   than the limits
 * @QUIRE_ERROR_INVALID_FLOW: the JSON is not a valid `quire.flow/1` flow; the message lists every
 *   problem, one a line, as `file:line:column: $.json.path: message`
 * @QUIRE_ERROR_INVALID_EVENT: the JSON is not an event (one object with one key). An event that
 *   does not apply (typing with nothing focused, any event after completion) is not an error: it
 *   emits an `ignored` notification
 * @QUIRE_ERROR_INVALID_SNAPSHOT: the JSON is not a `quire.snapshot/1` snapshot that can be
 *   restored
 * @QUIRE_ERROR_INVALID_VALUES: the JSON is not starting values for the flow
 *   (quire_session_set_starting_values()): not an object, a field the flow does not have, or a
 *   value the field could not hold; the message lists every problem as for a flow
 *
 * Why a call failed. The codes and their numbers are those of #QuireEngineErrorCode in
 * <quire-types.h>, the C API's.
 *
 * Since: 0.1
 */
typedef enum {
  QUIRE_ERROR_INVALID_ARGUMENT = 1,
  QUIRE_ERROR_FILE = 2,
  QUIRE_ERROR_INVALID_JSON = 3,
  QUIRE_ERROR_INVALID_FLOW = 4,
  QUIRE_ERROR_INVALID_EVENT = 5,
  QUIRE_ERROR_INVALID_SNAPSHOT = 6,
  QUIRE_ERROR_INVALID_VALUES = 7,
} QuireError;

QUIRE_AVAILABLE_IN_0_1
GQuark quire_error_quark (void);
QUIRE_AVAILABLE_IN_0_1
GType quire_error_get_type (void) G_GNUC_CONST;
#define QUIRE_TYPE_ERROR (quire_error_get_type ())

#define QUIRE_TYPE_SESSION (quire_session_get_type ())
QUIRE_AVAILABLE_IN_0_1
G_DECLARE_FINAL_TYPE (QuireSession, quire_session, QUIRE, SESSION, GObject)

QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_session_new_from_file (const char *path, GError **error);
QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_session_new_from_json (const char *json, GError **error);
QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_session_new_from_node (JsonNode *flow, GError **error);
QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_session_restore (const char *snapshot_json, GError **error);
QUIRE_AVAILABLE_IN_0_1
QuireSession *quire_session_restore_from_node (JsonNode *snapshot, GError **error);

QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_send (QuireSession *self, const char *event_json, GError **error);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_send_node (QuireSession *self, JsonNode *event, GError **error);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_apply_finish (QuireSession *self, const char *page, const char *errors_json,
                                     const char *message, GError **error);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_apply_cancel (QuireSession *self);

QUIRE_AVAILABLE_IN_0_1
char *quire_session_get_state_json (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
JsonNode *quire_session_get_state (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
char *quire_session_get_presentation_json (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
JsonNode *quire_session_get_presentation (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
JsonNode *quire_session_get_page_presentation (QuireSession *self, int index);
QUIRE_AVAILABLE_IN_0_1
char *quire_session_snapshot_json (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
JsonNode *quire_session_snapshot (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
JsonNode *quire_session_get_result (QuireSession *self);

QUIRE_AVAILABLE_IN_0_1
int quire_session_get_page_index (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
int quire_session_get_page_count (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
const char *quire_session_get_page_id (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
const char *quire_session_get_focus (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_get_completed (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
const char *quire_session_get_outcome (QuireSession *self);

QUIRE_AVAILABLE_IN_0_1
const char *quire_session_get_locale (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_set_locale (QuireSession *self, const char *locale, GError **error);
QUIRE_AVAILABLE_IN_0_1
double quire_session_get_viewport_width (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_set_viewport_width (QuireSession *self, double width, GError **error);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_get_reduced_motion (QuireSession *self);
QUIRE_AVAILABLE_IN_0_1
void quire_session_set_reduced_motion (QuireSession *self, gboolean reduced_motion);

QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_set_starting_values (QuireSession *self, const char *values_json, GError **error);
QUIRE_AVAILABLE_IN_0_1
gboolean quire_session_set_starting_values_node (QuireSession *self, JsonNode *values, GError **error);

G_END_DECLS
