-- The HammerDB-compatible API's session (issue 16 item 2): database,
-- benchmark, dicts, vuset/tcset/dgset, generic settings and the loaded
-- script, kept across restarts as HammerDB 4.5+ keeps them in SQLite.
-- One row. data: the session as JSON without its passwords; secrets: JSON
-- map name -> value sealed like saved configurations' secrets.
CREATE TABLE hammerdb_session (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  data TEXT NOT NULL,
  secrets TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
