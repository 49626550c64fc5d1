// sledge_myvu: the native MariaDB/MySQL VU loop (the MariaDB C connector),
// the engine part of the glue in ../pgvu/vu_addon.h. start() takes, besides
// the run's options, the connection (host, port, socket, user, password,
// database) and the CALL statements (calls.sql). It also exports the build
// workers' loader session (loader.h).
#include <mysql.h>

#include <memory>

#include "../pgvu/vu_addon.h"
#include "conn.h"
#include "loader.h"
#include "params.h"

namespace sledge::myvu {

using pgvu::addon::Reader;

struct MyEngine {
  static constexpr const char* kAddon = "sledge_myvu";
  static constexpr int32_t kAbiVersion = 3;
  static constexpr const char* kLibraryKey = "clientVersion";
  static constexpr const char* kEngineName = "MariaDB/MySQL";
  // mysql_get_client_version(): e.g. 30309 for Connector/C 3.3.9.
  static double libraryVersion() { return static_cast<double>(mysql_get_client_version()); }
  using Config = MyConfig;
  using Params = CallArgs;

  static void readConfig(Reader& r, MyConfig* c) {
    c->host = r.string("host");
    c->port = static_cast<int>(r.integer("port", 0, 65535));
    c->socket = r.string("socket");
    c->user = r.string("user");
    c->password = r.string("password");
    c->database = r.string("database");
    Reader rs(r.object("statements"));
    for (int t = 0; t < kNtx; t++) {
      const std::string sql = rs.string(pgvu::addon::kTxNames[t]);
      if (!splitPlaceholders(sql, &c->parts[t])) rs.fail(pgvu::addon::kTxNames[t], "has an unterminated quote");
    }
    if (!rs.error.empty() && r.error.empty()) r.error = "statements." + rs.error;
  }
  static std::unique_ptr<pgvu::Session> open(const std::shared_ptr<MyConfig>& c) { return std::make_unique<MyConn>(*c); }
  static void moreExports(Napi::Env env, Napi::Object exports) { exports.Set("Loader", defineLoader(env)); }
};

// The connector's global state, once per process before any thread connects
// (mysql_library_init is not thread-safe; later calls are no-ops).
struct LibraryInit {
  LibraryInit() { mysql_library_init(0, nullptr, nullptr); }
};
const LibraryInit kLibraryInit;

}  // namespace sledge::myvu

using MyVuAddon = sledge::pgvu::addon::VuAddon<sledge::myvu::MyEngine>;
NODE_API_ADDON(MyVuAddon)
