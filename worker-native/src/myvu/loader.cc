#include "loader.h"

#include <errmsg.h>
#include <mysql.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../first_line.h"
#include "../loader_wrap.h"

namespace sledge::myvu {

namespace {

// connect.ts CONNECT_TIMEOUT_MS, in seconds.
constexpr unsigned int kConnectTimeoutSec = 5;

// The one file the server may ask for while a loadData() runs.
struct Infile {
  std::string name;
  const uint8_t* data = nullptr;
  size_t size = 0;
  size_t at = 0;
  std::string error;
};

int infileInit(void** ptr, const char* filename, void* userdata) {
  auto* f = static_cast<Infile*>(userdata);
  *ptr = f;
  f->at = 0;
  if (f->name.empty() || filename == nullptr || f->name != filename) {
    f->error = std::string("refusing LOCAL INFILE request for \"") + (filename != nullptr ? filename : "") + "\": not a file this session sent";
    return 1;
  }
  return 0;
}

int infileRead(void* ptr, char* buf, unsigned int len) {
  auto* f = static_cast<Infile*>(ptr);
  const size_t n = std::min<size_t>(len, f->size - f->at);
  if (n > 0) std::memcpy(buf, f->data + f->at, n);
  f->at += n;
  return static_cast<int>(n);
}

void infileEnd(void*) {}

int infileError(void* ptr, char* msg, unsigned int len) {
  auto* f = static_cast<Infile*>(ptr);
  std::snprintf(msg, len, "%s", f->error.c_str());
  return CR_UNKNOWN_ERROR;
}

using loader::LoadFailure;
using loader::LoadResult;

// What a session owns; touched only by the one call that runs (loader_wrap.h).
struct MySession {
  static constexpr const char* kName = "sledge_myvu";

  struct Config {
    std::string host, socket, user, password, database, role;
    unsigned int port = 3306;
  };

  static bool readConfig(Napi::Object o, Config* c, std::string* err) {
    const std::pair<const char*, std::string*> fields[] = {{"host", &c->host}, {"socket", &c->socket}, {"user", &c->user}, {"password", &c->password}, {"database", &c->database}, {"role", &c->role}};
    for (const auto& [key, field] : fields) loader::stringField(o, key, field, err);
    Napi::Value port = o.Get("port");
    if (!port.IsUndefined()) {
      const double x = port.IsNumber() ? port.As<Napi::Number>().DoubleValue() : -1;
      if (!(x >= 0 && x <= 65535) || static_cast<double>(static_cast<unsigned int>(x)) != x) {
        if (err->empty()) *err = "port must be an integer in 0..65535";
      } else {
        c->port = static_cast<unsigned int>(x);
      }
    }
    return err->empty();
  }

  MYSQL* my = nullptr;
  Infile infile;

  ~MySession() { close(); }

  void close() {
    if (my != nullptr) mysql_close(my);
    my = nullptr;
  }

  bool fail(LoadFailure* f, const char* fallback) {
    f->errnum = my != nullptr ? static_cast<double>(mysql_errno(my)) : CR_SERVER_GONE_ERROR;
    f->sqlState = my != nullptr ? mysql_sqlstate(my) : "HY000";
    f->message = my != nullptr ? firstLine(mysql_error(my)) : "";
    if (f->message.empty()) f->message = fallback;
    return false;
  }

  bool connect(const Config& c, LoadFailure* f) {
    close();
    my = mysql_init(nullptr);
    if (my == nullptr) {
      f->message = "out of memory starting a connection";
      return false;
    }
    const unsigned int timeout = kConnectTimeoutSec;
    const unsigned int on = 1;
    mysql_options(my, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_options(my, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    mysql_options(my, MYSQL_OPT_LOCAL_INFILE, &on);
    mysql_optionsv(my, MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", "sledge");
    mysql_optionsv(my, MYSQL_OPT_CONNECT_ATTR_ADD, "sledge_role", c.role.c_str());
    mysql_set_local_infile_handler(my, infileInit, infileRead, infileEnd, infileError, &infile);
    const char* host = c.socket.empty() ? c.host.c_str() : "localhost";
    const char* sock = c.socket.empty() ? nullptr : c.socket.c_str();
    if (mysql_real_connect(my, host, c.user.c_str(), c.password.c_str(), c.database.empty() ? nullptr : c.database.c_str(), c.port, sock, 0) == nullptr) {
      fail(f, "connection failed");
      close();
      return false;
    }
    return true;
  }

  // One statement; its rows when it has a result set.
  bool query(const std::string& sql, LoadResult* r, LoadFailure* f) {
    if (my == nullptr) return fail(f, "the loader session is closed");
    if (mysql_real_query(my, sql.data(), static_cast<unsigned long>(sql.size())) != 0) return fail(f, "query failed");
    MYSQL_RES* res = mysql_store_result(my);
    if (res == nullptr) {
      if (mysql_field_count(my) != 0) return fail(f, "reading the result failed");
      r->affected = static_cast<double>(mysql_affected_rows(my));
    } else {
      r->hasRows = true;
      const unsigned int nf = mysql_num_fields(res);
      MYSQL_FIELD* fields = mysql_fetch_fields(res);
      for (unsigned int i = 0; i < nf; i++) r->fields.emplace_back(fields[i].name);
      while (MYSQL_ROW row = mysql_fetch_row(res)) {
        unsigned long* lengths = mysql_fetch_lengths(res);
        std::vector<std::optional<std::string>> out;
        out.reserve(nf);
        for (unsigned int i = 0; i < nf; i++) {
          if (row[i] == nullptr) out.emplace_back(std::nullopt);
          else out.emplace_back(std::string(row[i], lengths[i]));
        }
        r->rows.push_back(std::move(out));
      }
      mysql_free_result(res);
    }
    r->warnings = mysql_warning_count(my);
    return true;
  }

  bool loadData(const std::string& sql, const std::string& name, const uint8_t* data, size_t size, LoadResult* r, LoadFailure* f) {
    infile.name = name;
    infile.data = data;
    infile.size = size;
    infile.at = 0;
    const bool ok = query(sql, r, f);
    infile.name.clear();
    infile.data = nullptr;
    infile.size = 0;
    return ok;
  }
};

}  // namespace

Napi::Function defineLoader(Napi::Env env) { return loader::LoaderWrap<MySession>::define(env); }

}  // namespace sledge::myvu
