// sledge_pgvu: the native PostgreSQL VU loop (libpq), the engine part of
// the glue in vu_addon.h. It also exports the build workers' loader session
// (loader.h) and the script workload's loop (script_addon.h).
#include <libpq-fe.h>

#include <memory>

#include "conn.h"
#include "loader.h"
#include "params.h"
#include "script_addon.h"
#include "vu_addon.h"

namespace sledge::pgvu::addon {

struct PgEngine {
  static constexpr const char* kAddon = "sledge_pgvu";
  static constexpr int32_t kAbiVersion = 6;
  static constexpr const char* kLibraryKey = "libpqVersion";
  static constexpr const char* kEngineName = "PostgreSQL";
  static double libraryVersion() { return PQlibVersion(); }
  using Config = PgConfig;
  using Params = TxParams;

  // conninfo, statements { <tx>: text }, rollbackSqlstate.
  static void readConfig(Reader& r, PgConfig* c) {
    c->conninfo = r.string("conninfo");
    Reader rs(r.object("statements"));
    for (int t = 0; t < kNtx; t++) c->statements[t] = rs.string(kTxNames[t]);
    if (!rs.error.empty() && r.error.empty()) r.error = "statements." + rs.error;
    c->rollbackSqlstate = r.string("rollbackSqlstate");
  }
  // The session keeps a reference to the run's config; the factory owns it.
  static std::unique_ptr<Session> open(const std::shared_ptr<PgConfig>& c) { return std::make_unique<PgConn>(*c); }
  static void moreExports(Napi::Env env, Napi::Object exports) {
    exports.Set("Loader", defineLoader(env));
    ScriptLoops::exportTo(env, exports);
  }
};

}  // namespace sledge::pgvu::addon

using PgVuAddon = sledge::pgvu::addon::VuAddon<sledge::pgvu::addon::PgEngine>;
NODE_API_ADDON(PgVuAddon)
