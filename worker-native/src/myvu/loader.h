// A build worker's MariaDB/MySQL loader session on the MariaDB C connector:
// LOAD DATA LOCAL INFILE answered from a Buffer the caller hands over, with
// no copy into JavaScript. Exported by sledge_myvu as `Loader`:
//
//   const l = new Loader();
//   await l.connect({ host, port, socket, user, password, database, role });
//   await l.query('START TRANSACTION');                      // { affectedRows, warnings, rows }
//   await l.loadData("LOAD DATA LOCAL INFILE 'x' ...", 'x', buf);  // { affectedRows, warnings }
//   await l.close();
//
// Each call runs on libuv's thread pool with the connector's blocking API,
// one at a time per session (a second call while one runs is refused). A
// failure rejects with an Error carrying the server's or the connector's
// `errno` and `sqlState`, as mysql2's errors do, so the driver classifies
// both the same way. The server may ask only for the file name of the
// running loadData(); any other name is refused.
#pragma once

#include <napi.h>

namespace sledge::myvu {

// The Loader class for the addon's exports.
Napi::Function defineLoader(Napi::Env env);

}  // namespace sledge::myvu
