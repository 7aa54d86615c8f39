// QuireCore's documents are JSON: its clients use QuireJSON's values, paths and diagnostics
// through it.
@_exported import QuireJSON
