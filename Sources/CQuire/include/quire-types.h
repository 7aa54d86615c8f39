/* quire-types.h — the types of Quire's C API. Written by hand; <quire.h> includes it and declares
 * the functions (generated from Sources/QuireEmbed by scripts/generate-header).
 *
 * Quire needs no GLib: these types model GLib's conventions (an opaque handle, an error
 * out-parameter shaped like GError **, a callback with user data and a destroy notifier) without
 * depending on it. The GObject layer (<quire-session.h>, meson-helper/) turns a QuireEngineError
 * into a GError in the QUIRE_ERROR domain, with the same codes.
 */
#ifndef QUIRE_TYPES_H
#define QUIRE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * QUIRE_MAJOR_VERSION:
 *
 * The major version of the headers (compare quire_get_major_version(), the library's).
 *
 * Since: 0.1
 */
#define QUIRE_MAJOR_VERSION 0
/**
 * QUIRE_MINOR_VERSION:
 *
 * The minor version of the headers.
 *
 * Since: 0.1
 */
#define QUIRE_MINOR_VERSION 1
/**
 * QUIRE_MICRO_VERSION:
 *
 * The micro version of the headers.
 *
 * Since: 0.1
 */
#define QUIRE_MICRO_VERSION 0

/**
 * QUIRE_CHECK_VERSION:
 * @major: a major version
 * @minor: a minor version
 * @micro: a micro version
 *
 * Whether the headers are those of version @major.@minor.@micro or later, for conditional
 * compilation (`#if QUIRE_CHECK_VERSION (0, 2, 0)`). The library's own version, which may be
 * newer, is quire_get_major_version() and its siblings.
 *
 * Since: 0.1
 */
#define QUIRE_CHECK_VERSION(major, minor, micro) \
  (QUIRE_MAJOR_VERSION > (major) || \
   (QUIRE_MAJOR_VERSION == (major) && QUIRE_MINOR_VERSION > (minor)) || \
   (QUIRE_MAJOR_VERSION == (major) && QUIRE_MINOR_VERSION == (minor) && QUIRE_MICRO_VERSION >= (micro)))

/**
 * QUIRE_AVAILABLE_IN_0_1:
 *
 * Marks a symbol that is part of Quire's API since 0.1 (every public symbol starts with one of
 * these, as GLib's `GLIB_AVAILABLE_IN_*`: the one place a later version's visibility,
 * deprecation or minimum-version warnings are added).
 *
 * Since: 0.1
 */
#if defined(__GNUC__) || defined(__clang__)
#define QUIRE_AVAILABLE_IN_0_1 __attribute__ ((__visibility__ ("default"))) extern
#else
#define QUIRE_AVAILABLE_IN_0_1 extern
#endif

#if defined(__GNUC__) || defined(__clang__)
#define QUIRE_WARN_UNUSED_RESULT __attribute__ ((__warn_unused_result__))
#else
#define QUIRE_WARN_UNUSED_RESULT
#endif

/**
 * QuireEngine:
 *
 * One input session over a flow: a deterministic state machine that changes only when an event is
 * sent. Create one with quire_engine_new_from_file(), quire_engine_new_from_json() or
 * quire_engine_restore(); free it with quire_engine_free().
 *
 * An engine is not thread-safe: use each engine from one thread at a time (different engines may
 * be used on different threads at once).
 */
typedef struct _QuireEngine QuireEngine;

#ifdef QUIRE_COMPILATION
/* The library's view of the handle: a reference to the Swift object behind it. */
struct _QuireEngine {
  void *impl;
};
#endif

/**
 * QuireEngineErrorCode:
 * @QUIRE_ENGINE_ERROR_INVALID_ARGUMENT: an argument was %NULL where a value is required, text
 *   was not UTF-8, or a value was out of range (an empty locale, a viewport width outside 1 to
 *   100000 pixels).
 * @QUIRE_ENGINE_ERROR_FILE: a file could not be read: it does not exist, is a directory, a named
 *   pipe or a device, is a link loop or a link to nothing, cannot be opened, or is larger than
 *   16 MiB.
 * @QUIRE_ENGINE_ERROR_INVALID_JSON: the text is not JSON, or is nested deeper than 64 levels or
 *   larger than the limits (16 MiB; 256 MiB for a snapshot).
 * @QUIRE_ENGINE_ERROR_INVALID_FLOW: the JSON is not a valid `quire.flow/1` flow. The message
 *   lists every problem, one a line, as `file:line:column: $.json.path: message`.
 * @QUIRE_ENGINE_ERROR_INVALID_EVENT: the JSON is not an event (one object with one key, as in
 *   the events table of docs/embedding.md). An event that is valid but does not apply — typing
 *   with nothing focused, any event after completion — is not an error: it emits an `ignored`
 *   notification.
 * @QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT: the JSON is not a `quire.snapshot/1` snapshot this
 *   library can restore (the message lists the problems as for a flow).
 * @QUIRE_ENGINE_ERROR_INVALID_VALUES: the JSON is not starting values for the flow
 *   (quire_engine_set_starting_values()): not an object, a field the flow does not have, or a
 *   value the field could not hold; the message lists every problem as for a flow.
 *
 * Why a call failed: the code of a #QuireEngineError. The GObject layer reports the same codes,
 * with the same numbers, in the `QUIRE_ERROR` domain (#QuireError). New codes may be added.
 */
typedef enum _QuireEngineErrorCode {
  QUIRE_ENGINE_ERROR_INVALID_ARGUMENT = 1,
  QUIRE_ENGINE_ERROR_FILE = 2,
  QUIRE_ENGINE_ERROR_INVALID_JSON = 3,
  QUIRE_ENGINE_ERROR_INVALID_FLOW = 4,
  QUIRE_ENGINE_ERROR_INVALID_EVENT = 5,
  QUIRE_ENGINE_ERROR_INVALID_SNAPSHOT = 6,
  QUIRE_ENGINE_ERROR_INVALID_VALUES = 7,
} QuireEngineErrorCode;

/**
 * QuireEngineError:
 * @code: a #QuireEngineErrorCode
 * @message: (not nullable): what went wrong, in English, UTF-8; owned by the error
 *
 * An error, used as GLib uses a GError: a function that can fail takes a
 * `QuireEngineError **error` last. Pass %NULL to ignore errors, or the address of a
 * `QuireEngineError *` set to %NULL; on failure it is set to a new error, which you free with
 * quire_engine_error_free(). A pointer that is not %NULL is left alone (the first error wins).
 */
typedef struct _QuireEngineError {
  int32_t code;
  char *message;
} QuireEngineError;

/**
 * QuireEngineObserver:
 * @engine: (not nullable): the engine that emitted the notification (borrowed)
 * @notification_json: (not nullable): the notification as JSON text, e.g.
 *   `{"valueChanged":{"field":"userName","value":"Aki"}}`; borrowed, valid only during the call
 * @user_data: the user data given to quire_engine_set_observer()
 *
 * Called once for each notification an event emits, in order, before quire_engine_send()
 * returns. The observer may call any function on @engine, including quire_engine_send() (the
 * notifications of that event are delivered at once, inside this call) and quire_engine_free()
 * (the rest of the notifications are then dropped, and the engine is freed when the outer
 * quire_engine_send() returns).
 */
typedef void (*QuireEngineObserver) (QuireEngine *engine, const char *notification_json, void *user_data);

/**
 * QuireEngineAnnouncer:
 * @engine: (not nullable): the engine whose event made the announcement (borrowed)
 * @text: (not nullable): what a screen reader must say, in the session's language, e.g.
 *   `About you, page 2 of 5` or `Name: Required`; borrowed, valid only during the call
 * @priority: (not nullable): `polite` or `assertive`
 * @user_data: the user data given to quire_engine_set_announcer()
 *
 * Called once for each announcement an event makes (what a screen reader must be told because
 * keyboard focus does not move to it: a page reached, a refusal, an error revealed where focus
 * no longer is, completion; CONTRACT §6.4), in order, after the event's notifications have
 * reached the observer, before quire_engine_send() returns. It may call any function on
 * @engine, as an observer may.
 */
typedef void (*QuireEngineAnnouncer) (QuireEngine *engine, const char *text, const char *priority, void *user_data);

/**
 * QuireDestroyNotify:
 * @user_data: the user data to release
 *
 * Releases user data, as GLib's GDestroyNotify does (and is compatible with it): called once
 * when the observer it came with is replaced or removed, or its engine is freed.
 */
typedef void (*QuireDestroyNotify) (void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* QUIRE_TYPES_H */
