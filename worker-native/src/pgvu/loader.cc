#include "loader.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "../first_line.h"
#include "../loader_wrap.h"

namespace sledge::pgvu {

namespace {

using loader::LoadFailure;
using loader::LoadResult;

// Bytes per CopyData message.
constexpr size_t kCopyChunk = 1 << 20;

// What a session owns; touched only by the one call that runs (loader_wrap.h).
struct PgSession {
  static constexpr const char* kName = "sledge_pgvu";

  struct Config {
    std::string conninfo;  // holds the password: never logged
    std::string applicationName;
  };

  static bool readConfig(Napi::Object o, Config* c, std::string* err) {
    loader::stringField(o, "conninfo", &c->conninfo, err);
    loader::stringField(o, "applicationName", &c->applicationName, err);
    if (err->empty() && c->conninfo.empty()) *err = "conninfo must be a non-empty string";
    return err->empty();
  }

  PGconn* conn = nullptr;

  ~PgSession() { close(); }

  void close() {
    if (conn != nullptr) PQfinish(conn);
    conn = nullptr;
  }

  // The session's own error (no result): connection faults.
  bool failConn(LoadFailure* f, const char* fallback) {
    f->message = conn != nullptr ? firstLine(PQerrorMessage(conn)) : "";
    if (f->message.empty()) f->message = fallback;
    return false;
  }

  // A failed result's SQLSTATE and primary message; frees it.
  bool failResult(PGresult* res, LoadFailure* f, const char* fallback) {
    const char* code = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    const char* primary = res != nullptr ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : nullptr;
    if (code != nullptr) f->code = code;
    f->message = primary != nullptr ? firstLine(primary) : (conn != nullptr ? firstLine(PQerrorMessage(conn)) : "");
    if (f->message.empty()) f->message = fallback;
    PQclear(res);
    drain();
    return false;
  }

  // Reads what is left of a command's results, so the session is ready for the next.
  void drain() {
    if (conn == nullptr) return;
    while (PGresult* r = PQgetResult(conn)) PQclear(r);
  }

  bool connect(const Config& c, LoadFailure* f) {
    close();
    // expand_dbname: the first dbname value is the whole conninfo string.
    const char* keywords[] = {"dbname", "application_name", nullptr};
    const char* values[] = {c.conninfo.c_str(), c.applicationName.c_str(), nullptr};
    conn = PQconnectdbParams(keywords, values, 1);
    if (conn == nullptr) {
      f->message = "out of memory starting a connection";
      return false;
    }
    if (PQstatus(conn) != CONNECTION_OK) {
      failConn(f, "connection failed");
      close();
      return false;
    }
    return true;
  }

  bool query(const std::string& sql, LoadResult* r, LoadFailure* f) {
    if (conn == nullptr) return failConn(f, "the loader session is closed");
    PGresult* res = PQexec(conn, sql.c_str());
    const ExecStatusType st = res != nullptr ? PQresultStatus(res) : PGRES_FATAL_ERROR;
    if (st == PGRES_TUPLES_OK) {
      r->hasRows = true;
      const int nf = PQnfields(res);
      for (int i = 0; i < nf; i++) r->fields.emplace_back(PQfname(res, i));
      for (int row = 0; row < PQntuples(res); row++) {
        std::vector<std::optional<std::string>> out;
        for (int i = 0; i < nf; i++) {
          if (PQgetisnull(res, row, i)) out.emplace_back(std::nullopt);
          else out.emplace_back(std::string(PQgetvalue(res, row, i), static_cast<size_t>(PQgetlength(res, row, i))));
        }
        r->rows.push_back(std::move(out));
      }
    } else if (st == PGRES_COMMAND_OK) {
      r->affected = std::atof(PQcmdTuples(res));
    } else {
      return failResult(res, f, "query failed");
    }
    PQclear(res);
    return true;
  }

  // COPY ... FROM STDIN with `data` as its input; affected = the rows the server copied.
  bool loadData(const std::string& sql, const std::string&, const uint8_t* data, size_t size, LoadResult* r, LoadFailure* f) {
    if (conn == nullptr) return failConn(f, "the loader session is closed");
    PGresult* res = PQexec(conn, sql.c_str());
    if (res == nullptr || PQresultStatus(res) != PGRES_COPY_IN) return failResult(res, f, "COPY did not start");
    PQclear(res);
    for (size_t at = 0; at < size;) {
      const size_t n = std::min(kCopyChunk, size - at);
      if (PQputCopyData(conn, reinterpret_cast<const char*>(data) + at, static_cast<int>(n)) != 1) break;
      at += n;
    }
    // On a failed send the end fails too, or the server answers the COPY with its error.
    PQputCopyEnd(conn, nullptr);
    res = PQgetResult(conn);
    if (res == nullptr || PQresultStatus(res) != PGRES_COMMAND_OK) return failResult(res, f, "COPY failed");
    r->affected = std::atof(PQcmdTuples(res));
    PQclear(res);
    drain();
    return true;
  }
};

}  // namespace

Napi::Function defineLoader(Napi::Env env) { return loader::LoaderWrap<PgSession>::define(env); }

}  // namespace sledge::pgvu
