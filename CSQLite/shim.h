#ifndef TELLER_CSQLITE_SHIM_H
#define TELLER_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro ((sqlite3_destructor_type)-1) that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}

/// sqlite3_db_config is variadic, which Swift cannot call; this sets
/// SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE so a suspect file is never checkpointed into.
static inline int csqlite_set_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}

#endif
