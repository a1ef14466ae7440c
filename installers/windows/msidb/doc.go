// Package msidb reads and writes Windows Installer databases: the tables
// and the summary information of an .msi, as the set of streams that a
// compound file (package cfb) holds.
//
// A Writer takes tables as data (a schema and rows) and writes the string
// pool, the system tables _Tables and _Columns, one stream per non-empty
// table, and the summary information property set, all deterministically:
// the same tables give the same bytes. A Reader does the reverse and
// checks everything it reads against the file's own sizes, so hostile
// input gives an error rather than a crash or a large allocation.
//
// Strings pass through as bytes in the database code page; keep them
// ASCII, which every code page agrees on.
package msidb
