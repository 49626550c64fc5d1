#include "conn.h"

#include <errmsg.h>
#include <mysqld_error.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "../first_line.h"

namespace sledge::myvu {

namespace {

// Slice of every wait: how late a stop or an abort is noticed at most.
constexpr int kSliceMs = 100;

}  // namespace

ErrKind classify(unsigned int e) {
  switch (e) {
    case ER_LOCK_DEADLOCK:  // 1213
      return ErrKind::Deadlock;
    case ER_LOCK_WAIT_TIMEOUT:  // 1205
      return ErrKind::LockTimeout;
    case 3024:                  // MySQL max_execution_time
    case ER_STATEMENT_TIMEOUT:  // 1969, MariaDB max_statement_time
    case ER_QUERY_INTERRUPTED:  // 1317, KILL QUERY
      return ErrKind::Timeout;
    // errors.ts CONNECTION_ERRNOS, and the connector's own errors for a socket that is gone.
    case CR_SERVER_GONE_ERROR:  // 2006
    case CR_SERVER_LOST:        // 2013
    case ER_SERVER_SHUTDOWN:    // 1053
    case 1927:                  // ER_CONNECTION_KILLED
    case 4031:                  // ER_CLIENT_INTERACTION_TIMEOUT
    case ER_TOO_MANY_USER_CONNECTIONS:  // 1203
    case ER_USER_LIMIT_REACHED:         // 1226
    case ER_CON_COUNT_ERROR:            // 1040
    case CR_CONNECTION_ERROR:           // 2002
    case CR_CONN_HOST_ERROR:            // 2003
    case CR_COMMANDS_OUT_OF_SYNC:       // 2014: the session cannot go on
    case CR_SERVER_LOST_EXTENDED:       // 2055
      return ErrKind::Connection;
    case ER_DUP_ENTRY:         // 1062
    case ER_NO_REFERENCED_ROW_2:  // 1452
      return ErrKind::Constraint;
    default:
      return ErrKind::Other;
  }
}

bool splitPlaceholders(const std::string& sql, std::vector<std::string>* parts) {
  parts->clear();
  std::string cur;
  char quote = 0;
  for (size_t i = 0; i < sql.size(); i++) {
    const char c = sql[i];
    if (quote) {
      cur += c;
      if (c == '\\' && i + 1 < sql.size()) cur += sql[++i];
      else if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      cur += c;
    } else if (c == '?') {
      parts->push_back(std::move(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  parts->push_back(std::move(cur));
  return quote == 0;
}

template <typename GiveUp>
int MyConn::wait(int status, GiveUp give_up, bool* gaveUp) {
  const int fd = mysql_get_socket(my_);
  short events = 0;
  if (status & MYSQL_WAIT_READ) events |= POLLIN;
  if (status & MYSQL_WAIT_WRITE) events |= POLLOUT;
  if (status & MYSQL_WAIT_EXCEPT) events |= POLLPRI;
  const bool timed = (status & MYSQL_WAIT_TIMEOUT) != 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timed ? mysql_get_timeout_value_ms(my_) : 0);
  for (;;) {
    int slice = kSliceMs;
    if (timed) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
      if (left <= 0) return MYSQL_WAIT_TIMEOUT;
      if (left < slice) slice = static_cast<int>(left);
    }
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, slice);
    if (r > 0) {
      int ready = 0;
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) ready |= MYSQL_WAIT_READ;
      if (p.revents & (POLLOUT | POLLHUP | POLLERR)) ready |= MYSQL_WAIT_WRITE;
      if (p.revents & POLLPRI) ready |= MYSQL_WAIT_EXCEPT;
      // A ready bit the connector did not ask for would spin: give it what it waits on.
      return ready ? ready : status & ~MYSQL_WAIT_TIMEOUT;
    }
    if (r < 0 && errno != EINTR) return status & ~MYSQL_WAIT_TIMEOUT;  // the connector meets the socket error itself
    if (!*gaveUp && give_up()) {
      // End the wait the only way a blocked protocol exchange ends: the next
      // read sees the socket closed and the connector reports the error.
      *gaveUp = true;
      broken_ = true;
      if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
    }
  }
}

bool MyConn::connect(const std::string& sessionName, const Interrupt& intr, std::string* error, bool* stopped) {
  close();
  *stopped = false;
  my_ = mysql_init(nullptr);
  if (my_ == nullptr) {
    *error = "out of memory starting a connection";
    return false;
  }
  const unsigned int timeout = static_cast<unsigned int>(cfg_.connectTimeoutSec);
  mysql_options(my_, MYSQL_OPT_NONBLOCK, nullptr);
  mysql_options(my_, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
  mysql_options(my_, MYSQL_SET_CHARSET_NAME, "utf8mb4");
  std::string role = sessionName;
  if (role.rfind("sledge-vu-", 0) == 0) role = "vu" + role.substr(10);
  mysql_optionsv(my_, MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", "sledge");
  mysql_optionsv(my_, MYSQL_OPT_CONNECT_ATTR_ADD, "sledge_role", role.c_str());
  const char* host = cfg_.socket.empty() ? cfg_.host.c_str() : "localhost";
  const char* sock = cfg_.socket.empty() ? nullptr : cfg_.socket.c_str();
  MYSQL* ret = nullptr;
  bool gaveUp = false;
  int status = mysql_real_connect_start(&ret, my_, host, cfg_.user.c_str(), cfg_.password.c_str(), cfg_.database.c_str(),
                                        static_cast<unsigned int>(cfg_.port), sock, CLIENT_MULTI_RESULTS);
  while (status) {
    const int ready = wait(status, intr.stop, &gaveUp);
    status = mysql_real_connect_cont(&ret, my_, ready);
  }
  if (gaveUp) {
    close();
    *stopped = true;
    *error = "stopped";
    return false;
  }
  if (ret == nullptr) {
    *error = firstLine(mysql_error(my_));
    if (error->empty()) *error = "connection failed";
    broken_ = true;
    close();
    return false;
  }
  return true;
}

void MyConn::prepareAll(const Interrupt&) {}

void MyConn::close() {
  if (my_ == nullptr) return;
  if (broken_) {
    // Nothing is to be said on a dead socket: free without COM_QUIT.
    const int fd = mysql_get_socket(my_);
    if (fd >= 0) ::shutdown(fd, SHUT_RDWR);
  }
  // On a live socket COM_QUIT is one small write to the socket buffer.
  mysql_close(my_);
  my_ = nullptr;
  broken_ = false;
}

void MyConn::fillError(DbError* err) {
  const unsigned int e = my_ != nullptr ? mysql_errno(my_) : CR_SERVER_GONE_ERROR;
  err->code = e != 0 ? std::to_string(e) : std::string();
  err->message = my_ != nullptr ? firstLine(mysql_error(my_)) : "no connection";
  if (err->message.empty()) err->message = "unknown error";
  err->kind = classify(e);
  if (err->kind == ErrKind::Connection) broken_ = true;
}

Outcome MyConn::exec(const TxInput& in, const Interrupt& intr, DbError* err) {
  if (my_ == nullptr) {
    err->kind = ErrKind::Connection;
    err->code.clear();
    err->message = "no connection";
    return Outcome::Error;
  }
  const std::vector<std::string>& parts = cfg_.parts[in.type];
  args_.fill(in);
  if (static_cast<int>(parts.size()) != args_.count() + 1) {
    err->kind = ErrKind::Other;
    err->code.clear();
    err->message = "the CALL statement has " + std::to_string(parts.size() - 1) + " placeholders for " + std::to_string(args_.count()) + " arguments";
    return Outcome::Error;
  }
  sql_.clear();
  for (int k = 0; k < args_.count(); k++) {
    sql_ += parts[static_cast<size_t>(k)];
    sql_.append(args_.values()[k], static_cast<size_t>(args_.lengths()[k]));
  }
  sql_ += parts.back();

  bool aborted = false;
  int rc = 0;
  int status = mysql_real_query_start(&rc, my_, sql_.data(), static_cast<unsigned long>(sql_.size()));
  while (status) status = mysql_real_query_cont(&rc, my_, wait(status, intr.abort, &aborted));
  if (aborted) return Outcome::Cancelled;
  if (rc != 0) {
    fillError(err);
    return Outcome::Error;
  }
  // A CALL answers with the procedure's result sets, then its own status.
  Outcome out = Outcome::Commit;
  bool first = true;
  for (;;) {
    MYSQL_RES* res = nullptr;
    status = mysql_store_result_start(&res, my_);
    while (status) status = mysql_store_result_cont(&res, my_, wait(status, intr.abort, &aborted));
    if (aborted) {
      if (res != nullptr) mysql_free_result(res);
      return Outcome::Cancelled;
    }
    if (res != nullptr) {
      // vu.ts rolledBack: NEWORD's first row says whether the order was rolled back.
      if (first && in.type == kNewOrder) {
        const unsigned int nf = mysql_num_fields(res);
        MYSQL_FIELD* fields = mysql_fetch_fields(res);
        MYSQL_ROW row = mysql_fetch_row(res);
        for (unsigned int f = 0; row != nullptr && f < nf; f++) {
          if (std::strcmp(fields[f].name, "rolled_back") == 0 && row[f] != nullptr && std::strcmp(row[f], "1") == 0) out = Outcome::Rollback;
        }
      }
      first = false;
      mysql_free_result(res);
    } else if (mysql_field_count(my_) != 0) {
      fillError(err);
      return Outcome::Error;
    }
    if (!mysql_more_results(my_)) break;
    int next = 0;
    status = mysql_next_result_start(&next, my_);
    while (status) status = mysql_next_result_cont(&next, my_, wait(status, intr.abort, &aborted));
    if (aborted) return Outcome::Cancelled;
    if (next > 0) {
      fillError(err);
      return Outcome::Error;
    }
    if (next < 0) break;
  }
  return out;
}

}  // namespace sledge::myvu
