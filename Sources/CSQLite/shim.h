#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

// sqlite3_config is variadic, which Swift cannot call. Memory statistics take a global mutex on every
// allocation, a few percent of a bulk load's writer thread (perf, issue 31); nothing reads them. Only
// takes effect before SQLite initialises, so the first connection calls it.
static inline int csqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
