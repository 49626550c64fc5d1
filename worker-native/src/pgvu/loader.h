// A build worker's PostgreSQL loader session on libpq: COPY ... FROM STDIN
// fed from a Buffer the caller hands over, with no copy through JavaScript.
// Exported by sledge_pgvu as `Loader` (the calls are in ../loader_wrap.h):
//
//   const l = new Loader();
//   await l.connect({ conninfo, applicationName });
//   await l.query('SET synchronous_commit = off');       // { affectedRows, warnings, rows? }
//   await l.loadData('COPY stock (...) FROM STDIN', 'stock', buf);  // { affectedRows: rows copied }
//
// A failure rejects with an Error whose `code` is the SQLSTATE, as
// node-postgres's errors carry it.
#pragma once

#include <napi.h>

namespace sledge::pgvu {

// The Loader class for the addon's exports.
Napi::Function defineLoader(Napi::Env env);

}  // namespace sledge::pgvu
