// The JavaScript face of a build worker's native loader session, for any
// engine: a class whose calls run on libuv's thread pool with the client
// library's blocking API and settle a promise, one call at a time per
// session (a second call while one runs is refused).
//
//   const l = new Loader();
//   await l.connect(config);                 // engine-specific config object
//   await l.query(sql);                      // { affectedRows, warnings, rows? }
//   await l.loadData(sql, name, buffer);     // the engine's bulk statement, fed from `buffer`
//   await l.close();
//
// S, the engine's session, provides:
//   struct Config;  static bool readConfig(Napi::Object, Config*, std::string* err);
//   bool connect(const Config&, LoadFailure*);
//   bool query(const std::string& sql, LoadResult*, LoadFailure*);
//   bool loadData(const std::string& sql, const std::string& name, const uint8_t*, size_t, LoadResult*, LoadFailure*);
//   void close();
// A failure rejects with an Error carrying what the engine's JavaScript
// driver reads from its own errors (errno, code, sqlState), so the driver
// classifies both the same way.
#pragma once

#include <napi.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sledge::loader {

struct LoadFailure {
  double errnum = -1;    // set as `errno` when >= 0 (MariaDB/MySQL error numbers)
  std::string code;      // set as `code` when not empty (PostgreSQL: the SQLSTATE, as node-postgres)
  std::string sqlState;  // set as `sqlState` when not empty
  std::string message;
};

struct LoadResult {
  double affected = 0;
  double warnings = 0;
  bool hasRows = false;
  std::vector<std::string> fields;
  std::vector<std::vector<std::optional<std::string>>> rows;
};

template <typename S>
class LoaderWrap final : public Napi::ObjectWrap<LoaderWrap<S>> {
 public:
  using Self = LoaderWrap<S>;
  using Body = std::function<bool(S&, LoadResult*, LoadFailure*)>;

  static Napi::Function define(Napi::Env env) {
    return Self::DefineClass(env, "Loader",
                             {
                                 Self::InstanceMethod("connect", &Self::Connect),
                                 Self::InstanceMethod("query", &Self::Query),
                                 Self::InstanceMethod("loadData", &Self::LoadData),
                                 Self::InstanceMethod("close", &Self::Close),
                             });
  }

  explicit LoaderWrap(const Napi::CallbackInfo& info) : Napi::ObjectWrap<Self>(info), session_(std::make_shared<S>()) {}

 private:
  // One call's work on the thread pool, settling its promise on the JS thread.
  class Op final : public Napi::AsyncWorker {
   public:
    Op(Napi::Env env, Napi::Object self, std::shared_ptr<S> session, bool* busy, Body body)
        : Napi::AsyncWorker(env, "sledge_loader"),
          deferred_(Napi::Promise::Deferred::New(env)),
          self_(Napi::Persistent(self)),
          session_(std::move(session)),
          busy_(busy),
          body_(std::move(body)) {}

    // Keeps a Buffer alive while the thread pool reads it.
    void keep(Napi::Object o) { kept_ = Napi::Persistent(o); }
    Napi::Promise promise() const { return deferred_.Promise(); }

    void Execute() override { ok_ = body_(*session_, &result_, &failure_); }

    void OnOK() override {
      *busy_ = false;
      Napi::Env env = Env();
      if (!ok_) {
        Napi::Error e = Napi::Error::New(env, failure_.message);
        if (failure_.errnum >= 0) e.Set("errno", Napi::Number::New(env, failure_.errnum));
        if (!failure_.code.empty()) e.Set("code", Napi::String::New(env, failure_.code));
        if (!failure_.sqlState.empty()) e.Set("sqlState", Napi::String::New(env, failure_.sqlState));
        deferred_.Reject(e.Value());
        return;
      }
      Napi::Object out = Napi::Object::New(env);
      out.Set("affectedRows", Napi::Number::New(env, result_.affected));
      out.Set("warnings", Napi::Number::New(env, result_.warnings));
      if (result_.hasRows) {
        Napi::Array rows = Napi::Array::New(env, result_.rows.size());
        for (size_t i = 0; i < result_.rows.size(); i++) {
          Napi::Object row = Napi::Object::New(env);
          for (size_t k = 0; k < result_.fields.size(); k++) {
            const auto& v = result_.rows[i][k];
            row.Set(result_.fields[k], v ? Napi::String::New(env, *v) : env.Null());
          }
          rows.Set(static_cast<uint32_t>(i), row);
        }
        out.Set("rows", rows);
      }
      deferred_.Resolve(out);
    }

    void OnError(const Napi::Error& e) override {
      *busy_ = false;
      deferred_.Reject(e.Value());
    }

   private:
    Napi::Promise::Deferred deferred_;
    Napi::ObjectReference self_;
    Napi::ObjectReference kept_;
    std::shared_ptr<S> session_;
    bool* busy_;
    Body body_;
    bool ok_ = false;
    LoadResult result_;
    LoadFailure failure_;
  };

  Napi::Value rejected(Napi::Env env, const std::string& message) {
    auto d = Napi::Promise::Deferred::New(env);
    d.Reject(Napi::TypeError::New(env, std::string(S::kName) + " Loader: " + message).Value());
    return d.Promise();
  }

  // Queues `body`; refused while another call of this session runs.
  Napi::Value run(const Napi::CallbackInfo& info, Body body, Napi::Object keep = Napi::Object()) {
    Napi::Env env = info.Env();
    if (busy_) return rejected(env, "a call is already running on this session");
    busy_ = true;
    auto* op = new Op(env, info.This().As<Napi::Object>(), session_, &busy_, std::move(body));
    if (!keep.IsEmpty()) op->keep(keep);
    Napi::Promise p = op->promise();
    op->Queue();
    return p;
  }

  Napi::Value Connect(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) return rejected(env, "connect(config) expects an object");
    typename S::Config c;
    std::string err;
    if (!S::readConfig(info[0].As<Napi::Object>(), &c, &err)) return rejected(env, "connect: " + err);
    return run(info, [c = std::move(c)](S& s, LoadResult*, LoadFailure* f) { return s.connect(c, f); });
  }

  Napi::Value Query(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsString()) return rejected(env, "query(sql) expects a string");
    std::string sql = info[0].As<Napi::String>().Utf8Value();
    return run(info, [sql = std::move(sql)](S& s, LoadResult* r, LoadFailure* f) { return s.query(sql, r, f); });
  }

  Napi::Value LoadData(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 3 || !info[0].IsString() || !info[1].IsString() || !info[2].IsTypedArray()) {
      return rejected(env, "loadData(sql, name, data) expects two strings and a Uint8Array");
    }
    Napi::TypedArray ta = info[2].As<Napi::TypedArray>();
    if (ta.TypedArrayType() != napi_uint8_array) return rejected(env, "loadData: data must be a Uint8Array");
    Napi::Uint8Array data = ta.As<Napi::Uint8Array>();
    std::string sql = info[0].As<Napi::String>().Utf8Value();
    std::string name = info[1].As<Napi::String>().Utf8Value();
    const uint8_t* bytes = data.Data();
    const size_t size = data.ByteLength();
    return run(
        info,
        [sql = std::move(sql), name = std::move(name), bytes, size](S& s, LoadResult* r, LoadFailure* f) { return s.loadData(sql, name, bytes, size, r, f); },
        data);
  }

  Napi::Value Close(const Napi::CallbackInfo& info) {
    return run(info, [](S& s, LoadResult*, LoadFailure*) {
      s.close();
      return true;
    });
  }

  std::shared_ptr<S> session_;
  bool busy_ = false;
};

// A string property of a config object: absent or null leaves *out as it is.
inline bool stringField(Napi::Object o, const char* key, std::string* out, std::string* err) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined() || v.IsNull()) return true;
  if (!v.IsString()) {
    if (err->empty()) *err = std::string(key) + " must be a string";
    return false;
  }
  *out = v.As<Napi::String>().Utf8Value();
  return true;
}

}  // namespace sledge::loader
