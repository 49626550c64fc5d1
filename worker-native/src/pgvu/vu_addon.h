// Node-API glue shared by the native VU loops (sledge_pgvu, sledge_myvu):
//
//   abiVersion                   number (lib/pgvu.ts, lib/myvu.ts refuse another)
//   <library>Version             the client library's version (E::kLibraryKey)
//   start(opts) -> id            spawn one thread per VU (see lib/native-vu.ts)
//   poll(id) -> { live, logs }   VU threads still running; log lines [vu, text, vu, text, ...]
//   results(id) -> [{ ok, elapsedMs, totalNs: number[5] }]   per VU slot, once live == 0
//   dispose(id)                  abort and join the threads of a run, forget it
//   generateInputs(opts, count, withThink) -> JSON   (tests) the inputs the loop would draw
//
// Runs belong to the addon instance (one per Node environment, so every
// worker thread has its own); an environment that goes away (worker
// terminated) aborts and joins its threads before the shared memory they
// write to can be released.
#pragma once

#include <napi.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "run.h"
#include "session.h"
#include "workload.h"

namespace sledge::pgvu::addon {

const char* const kTxNames[kNtx] = {"neworder", "payment", "delivery", "stocklevel", "orderstatus"};

// Readers that record the first problem and return a harmless default.
class Reader {
 public:
  explicit Reader(Napi::Object o) : o_(o) {}
  std::string error;

  int64_t integer(const char* key, int64_t min, int64_t max) {
    Napi::Value v = o_.Get(key);
    if (!v.IsNumber()) return fail(key, "must be an integer"), min;
    const double x = v.As<Napi::Number>().DoubleValue();
    if (!(x >= static_cast<double>(min) && x <= static_cast<double>(max)) || std::trunc(x) != x) {
      return fail(key, "must be an integer in " + std::to_string(min) + ".." + std::to_string(max)), min;
    }
    return static_cast<int64_t>(x);
  }
  uint32_t uint32(const char* key) {
    Napi::Value v = o_.Get(key);
    if (!v.IsNumber()) return fail(key, "must be a number"), 0;
    return v.As<Napi::Number>().Uint32Value();  // ToUint32, as seed >>> 0
  }
  bool boolean(const char* key) {
    Napi::Value v = o_.Get(key);
    if (!v.IsBoolean()) return fail(key, "must be a boolean"), false;
    return v.As<Napi::Boolean>().Value();
  }
  std::string string(const char* key) {
    Napi::Value v = o_.Get(key);
    if (!v.IsString()) return fail(key, "must be a string"), std::string();
    return v.As<Napi::String>().Utf8Value();
  }
  Napi::Object object(const char* key) {
    Napi::Value v = o_.Get(key);
    if (!v.IsObject()) return fail(key, "must be an object"), Napi::Object::New(o_.Env());
    return v.As<Napi::Object>();
  }
  // An Int32Array (over a SharedArrayBuffer) and a reference that keeps it alive.
  Int32View int32s(const char* key, std::vector<Napi::ObjectReference>* keep) {
    Napi::Value v = o_.Get(key);
    if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) return fail(key, "must be an Int32Array"), Int32View{};
    Napi::Int32Array a = v.As<Napi::Int32Array>();
    keep->push_back(Napi::Persistent(a.As<Napi::Object>()));
    return Int32View{a.Data(), a.ElementLength()};
  }
  double number(const char* key, double min, double max) {
    Napi::Value v = o_.Get(key);
    if (!v.IsNumber()) return fail(key, "must be a number"), min;
    const double x = v.As<Napi::Number>().DoubleValue();
    if (!(x >= min && x <= max)) return fail(key, "must be a number in " + std::to_string(min) + ".." + std::to_string(max)), min;
    return x;
  }
  // tprocc.keyThink: { <tx>: { keyingSec, thinkMeanSec } } for every transaction, when given.
  void keyThink(double keying[kNtx], double think[kNtx]) {
    if (!o_.Has("keyThink")) return;
    Napi::Object kt = object("keyThink");
    for (int t = 0; t < kNtx && error.empty(); t++) {
      Reader r(Reader(kt).object(kTxNames[t]));
      keying[t] = r.number("keyingSec", 0, 3600);
      think[t] = r.number("thinkMeanSec", 0, 3600);
      if (!r.error.empty()) error = std::string("keyThink.") + kTxNames[t] + "." + r.error;
    }
  }
  void mix(int64_t out[kNtx]) {
    Napi::Object m = object("mix");
    Reader r(m);
    for (int t = 0; t < kNtx; t++) out[t] = r.integer(kTxNames[t], 0, 1000000);
    if (!r.error.empty() && error.empty()) error = "mix." + r.error;
  }

  void fail(const char* key, const std::string& what) {
    if (error.empty()) error = std::string(key) + " " + what;
  }

 private:
  Napi::Object o_;
};

inline void readWorkload(Reader& r, VuOptions* o) {
  o->warehouses = r.integer("warehouses", 1, 100000000);
  o->position = r.integer("position", 0, INT32_MAX);
  o->activeVus = r.integer("activeVus", 1, INT32_MAX);
  o->allWarehouse = r.boolean("allWarehouse");
  r.mix(o->mix);
  o->client = r.integer("client", 0, INT64_C(1) << 50);
}

inline void jsonInput(std::string& j, const TxInput& in) {
  auto kv = [&j](const char* k, int64_t v, bool comma = true) {
    j += '"';
    j += k;
    j += "\":";
    j += std::to_string(v);
    if (comma) j += ',';
  };
  auto kb = [&j](const char* k, bool v) {
    j += '"';
    j += k;
    j += "\":";
    j += v ? "true," : "false,";
  };
  auto ks = [&j](const char* k, const LastName& s) {
    j += '"';
    j += k;
    j += "\":\"";
    j.append(s.text, s.len);
    j += "\",";
  };
  j += '{';
  switch (in.type) {
    case kNewOrder: {
      const NewOrderInput& i = in.no;
      kv("w_id", i.w_id);
      kv("max_w", i.max_w);
      kv("d_id", i.d_id);
      kv("c_id", i.c_id);
      kv("ol_cnt", i.ol_cnt);
      kb("rollback", i.rollback);
      kb("all_local", i.all_local);
      j += "\"lines\":[";
      for (int64_t k = 0; k < i.ol_cnt; k++) {
        if (k) j += ',';
        j += '{';
        kv("i_id", i.i_id[k]);
        kv("supply_w_id", i.supply_w_id[k]);
        kv("quantity", i.quantity[k], false);
        j += '}';
      }
      j += "]}";
      return;
    }
    case kPayment: {
      const PaymentInput& i = in.pay;
      kv("w_id", i.w_id);
      kv("d_id", i.d_id);
      kv("c_w_id", i.c_w_id);
      kv("c_d_id", i.c_d_id);
      kv("c_id", i.c_id);
      kb("byname", i.byname);
      ks("c_last", i.c_last);
      kv("amount", i.amount, false);
      break;
    }
    case kDelivery:
      kv("w_id", in.del.w_id);
      kv("carrier_id", in.del.carrier_id, false);
      break;
    case kStockLevel:
      kv("w_id", in.sl.w_id);
      kv("d_id", in.sl.d_id);
      kv("threshold", in.sl.threshold, false);
      break;
    case kOrderStatus: {
      const OrderStatusInput& i = in.os;
      kv("w_id", i.w_id);
      kv("d_id", i.d_id);
      kv("c_id", i.c_id);
      kb("byname", i.byname);
      ks("c_last", i.c_last);
      j.pop_back();
      break;
    }
  }
  j += '}';
}

struct RunEntry {
  std::unique_ptr<Run> run;
  std::vector<Napi::ObjectReference> keep;  // the shared Int32Arrays the threads write to
};

// The addon of one engine E (see pgvu/addon.cc, myvu/addon.cc): E names
// the addon, reads the connection part of start()'s options into an
// E::Config, opens E's Session on it, and formats bind parameters (E::Params)
// for generateInputs.
template <typename E>
class VuAddon : public Napi::Addon<VuAddon<E>> {
 public:
  using Self = VuAddon<E>;
  VuAddon(Napi::Env env, Napi::Object exports) {
    this->DefineAddon(exports, {
                                   Self::InstanceMethod("start", &Self::Start, napi_enumerable),
                                   Self::InstanceMethod("poll", &Self::Poll, napi_enumerable),
                                   Self::InstanceMethod("results", &Self::Results, napi_enumerable),
                                   Self::InstanceMethod("dispose", &Self::Dispose, napi_enumerable),
                                   Self::InstanceMethod("generateInputs", &Self::GenerateInputs, napi_enumerable),
                                   Self::InstanceValue("abiVersion", Napi::Number::New(env, E::kAbiVersion), napi_enumerable),
                                   Self::InstanceValue(E::kLibraryKey, Napi::Number::New(env, E::libraryVersion()), napi_enumerable),
                               });
    // What else an engine's addon exports besides the loop (sledge_myvu: the build loader).
    if constexpr (requires { E::moreExports(env, exports); }) E::moreExports(env, exports);
  }

  // The environment is going away (worker terminated, process exit): stop
  // and join every thread while the shared memory is still alive.
  ~VuAddon() {
    for (auto& [id, e] : runs_) {
      e.run->shutdown();
      for (Napi::ObjectReference& r : e.keep) r.SuppressDestruct();
    }
  }

 private:
  Napi::Value Fail(Napi::Env env, const std::string& message) {
    Napi::TypeError::New(env, std::string(E::kAddon) + ": " + message).ThrowAsJavaScriptException();
    return env.Undefined();
  }

  RunEntry* find(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsNumber()) return nullptr;
    auto it = runs_.find(info[0].As<Napi::Number>().Int64Value());
    return it == runs_.end() ? nullptr : &it->second;
  }

  Napi::Value Start(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) return Fail(env, "start(opts) expects an object");
    Reader r(info[0].As<Napi::Object>());
    RunEntry entry;
    RunConfig cfg;
    cfg.engineName = E::kEngineName;
    auto conn = std::make_shared<typename E::Config>();
    E::readConfig(r, conn.get());
    cfg.seed = r.uint32("seed");
    cfg.warehouses = r.integer("warehouses", 1, 100000000);
    cfg.activeVus = r.integer("activeVus", 1, INT32_MAX);
    cfg.allWarehouse = r.boolean("allWarehouse");
    r.mix(cfg.mix);
    cfg.totalIterations = r.integer("totalIterations", 0, INT64_C(1) << 50);
    cfg.iterations = r.integer("iterations", 0, INT32_MAX);
    cfg.repeatDelayMs = r.integer("repeatDelayMs", 0, INT32_MAX);
    cfg.keyAndThink = r.boolean("keyAndThink");
    for (int t = 0; t < kNtx; t++) cfg.keyingSec[t] = kKeyingSeconds[t], cfg.thinkMeanSec[t] = kThinkSeconds[t];
    r.keyThink(cfg.keyingSec, cfg.thinkMeanSec);
    cfg.raiseError = r.boolean("raiseError");
    Napi::Object o = info[0].As<Napi::Object>();
    cfg.reconnect = o.Has("reconnect") ? r.boolean("reconnect") : true;
    cfg.retryFirstConnect = o.Has("reconnect") && cfg.reconnect;
    cfg.testDriver = r.boolean("testDriver");
    if (o.Has("sessionTag") && !o.Get("sessionTag").IsUndefined()) {
      cfg.sessionTag = r.string("sessionTag");
      // A name part, never SQL: 1..16 letters and digits (core newSessionTag gives 8 hex digits).
      bool ok = !cfg.sessionTag.empty() && cfg.sessionTag.size() <= 16;
      for (char ch : cfg.sessionTag) ok = ok && std::isalnum(static_cast<unsigned char>(ch));
      if (!ok) return Fail(env, "sessionTag must be 1..16 letters or digits");
    }
    Shared sh;
    sh.counters = r.int32s("counters", &entry.keep);
    sh.states = r.int32s("states", &entry.keep);
    sh.control = r.int32s("control", &entry.keep);
    sh.ringIndex = r.int32s("ringIndex", &entry.keep);
    sh.ringData = r.int32s("ringData", &entry.keep);
    sh.ringCapacity = static_cast<int32_t>(r.integer("ringCapacity", 1, 1 << 24));
    if (o.Has("faults") && !o.Get("faults").IsUndefined()) {
      sh.faults = r.int32s("faults", &entry.keep);
      sh.faultVus = r.integer("faultVus", 1, INT32_MAX);
    }
    std::vector<VuSpec> vus;
    Napi::Value list = info[0].As<Napi::Object>().Get("vus");
    if (env.IsExceptionPending()) return env.Undefined();
    if (!list.IsArray()) return Fail(env, "vus must be an array");
    Napi::Array arr = list.As<Napi::Array>();
    for (uint32_t k = 0; k < arr.Length() && r.error.empty(); k++) {
      Napi::Value v = arr.Get(k);
      if (!v.IsObject()) return Fail(env, "vus[] must be objects");
      Reader rv(v.As<Napi::Object>());
      VuSpec s;
      s.index = static_cast<int>(rv.integer("index", 0, INT32_MAX));
      s.position = rv.integer("position", 0, INT32_MAX);
      s.startDelayMs = rv.integer("startDelayMs", 0, INT64_C(1) << 40);
      if (!rv.error.empty()) return Fail(env, "vus[" + std::to_string(k) + "]." + rv.error);
      vus.push_back(s);
    }
    if (env.IsExceptionPending()) return env.Undefined();
    if (!r.error.empty()) return Fail(env, r.error);
    // Bounds: every index the threads write must be inside its array.
    if ((sh.ringCapacity & (sh.ringCapacity - 1)) != 0) return Fail(env, "ringCapacity must be a power of two");
    if (sh.control.length < static_cast<size_t>(kCtrlSize)) return Fail(env, "control is too short");
    if (sh.ringIndex.length < vus.size() * kRingStride) return Fail(env, "ringIndex is too short for the VUs");
    if (sh.ringData.length < vus.size() * static_cast<size_t>(sh.ringCapacity) * 2) return Fail(env, "ringData is too short for the VUs");
    for (const VuSpec& s : vus) {
      if (static_cast<size_t>(s.index) >= sh.states.length) return Fail(env, "a VU index is outside states");
      if ((static_cast<size_t>(s.index) + 1) * kNtx * kKinds > sh.counters.length) return Fail(env, "a VU index is outside counters");
      if (sh.faults.data && (s.index >= sh.faultVus || static_cast<size_t>(sh.faultVus) * (kNtx * kFaultSlots + kFaultVuSlots) > sh.faults.length)) {
        return Fail(env, "faults is too short for faultVus, or a VU index is outside it");
      }
    }
    if (Mix().init(cfg.mix) == false) return Fail(env, "mix weights must sum to more than 0");
    SessionFactory sessions = [conn]() -> std::unique_ptr<Session> { return E::open(conn); };
    entry.run = std::make_unique<Run>(std::move(cfg), std::move(sessions), std::move(vus), sh);
    std::string err;
    if (!entry.run->start(&err)) {
      Napi::Error::New(env, std::string(E::kAddon) + ": " + err).ThrowAsJavaScriptException();
      return env.Undefined();
    }
    const int64_t id = ++nextId_;
    runs_.emplace(id, std::move(entry));
    return Napi::Number::New(env, static_cast<double>(id));
  }

  Napi::Value Poll(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    RunEntry* e = find(info);
    if (e == nullptr) return Fail(env, "poll(id): no such run");
    // live first: lines logged before a thread ended are then in the queue.
    const int live = e->run->live();
    std::vector<LogLine> lines = e->run->drainLogs();
    Napi::Array logs = Napi::Array::New(env, lines.size() * 2);
    uint32_t k = 0;
    for (const LogLine& l : lines) {
      logs.Set(k++, Napi::Number::New(env, static_cast<double>(l.vu)));
      logs.Set(k++, Napi::String::New(env, l.text));
    }
    Napi::Object out = Napi::Object::New(env);
    out.Set("live", Napi::Number::New(env, live));
    out.Set("logs", logs);
    return out;
  }

  Napi::Value Results(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    RunEntry* e = find(info);
    if (e == nullptr) return Fail(env, "results(id): no such run");
    if (e->run->live() != 0) return Fail(env, "results(id): VU threads are still running");
    const std::vector<VuResult>& res = e->run->results();
    Napi::Array out = Napi::Array::New(env, res.size());
    for (size_t i = 0; i < res.size(); i++) {
      Napi::Object o = Napi::Object::New(env);
      o.Set("ok", Napi::Boolean::New(env, res[i].ok));
      o.Set("elapsedMs", Napi::Number::New(env, res[i].elapsedMs));
      Napi::Array ns = Napi::Array::New(env, kNtx);
      for (int t = 0; t < kNtx; t++) ns.Set(static_cast<uint32_t>(t), Napi::Number::New(env, res[i].totalNs[t]));
      o.Set("totalNs", ns);
      out.Set(static_cast<uint32_t>(i), o);
    }
    return out;
  }

  Napi::Value Dispose(const Napi::CallbackInfo& info) {
    RunEntry* e = find(info);
    if (e != nullptr) {
      e->run->shutdown();
      runs_.erase(info[0].As<Napi::Number>().Int64Value());
    }
    return info.Env().Undefined();
  }

  Napi::Value GenerateInputs(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 2 || !info[0].IsObject() || !info[1].IsNumber()) return Fail(env, "generateInputs(opts, count, withThink) expects an object and a number");
    Reader r(info[0].As<Napi::Object>());
    const uint32_t seed = r.uint32("seed");
    VuOptions o{};
    readWorkload(r, &o);
    if (!r.error.empty()) return Fail(env, r.error);
    if (Mix().init(o.mix) == false) return Fail(env, "mix weights must sum to more than 0");
    const int64_t count = info[1].As<Napi::Number>().Int64Value();
    const bool withThink = info.Length() > 2 && info[2].ToBoolean().Value();
    double keying[kNtx], thinkMean[kNtx];
    for (int t = 0; t < kNtx; t++) keying[t] = kKeyingSeconds[t], thinkMean[t] = kThinkSeconds[t];
    r.keyThink(keying, thinkMean);
    if (!r.error.empty()) return Fail(env, r.error);
    VuWorkload wl(seed, o);
    TxInput in{};
    typename E::Params params;
    std::string j = "{\"homeW\":" + std::to_string(wl.homeW) + ",\"stockD\":" + std::to_string(wl.stockD) + ",\"warehouses\":";
    if (wl.warehouses.empty()) {
      j += "null";
    } else {
      j += '[';
      for (size_t k = 0; k < wl.warehouses.size(); k++) j += (k ? "," : "") + std::to_string(wl.warehouses[k]);
      j += ']';
    }
    j += ",\"draws\":[";
    for (int64_t n = 0; n < count; n++) {
      const Tx t = wl.nextType();
      wl.input(t, &in);
      params.fill(in);
      if (n) j += ',';
      j += "{\"type\":\"";
      j += kTxNames[t];
      j += "\",\"input\":";
      jsonInput(j, in);
      j += ",\"params\":[";
      for (int p = 0; p < params.count(); p++) {
        if (p) j += ',';
        j += '"';
        j += params.values()[p];  // digits, braces, commas, true/false, upper-case letters: nothing to escape
        j += '"';
      }
      j += ']';
      if (withThink) j += ",\"thinkMs\":" + std::to_string(wl.thinkMs(thinkMean[t]));
      j += '}';
    }
    j += "]}";
    return Napi::String::New(env, j);
  }

  std::map<int64_t, RunEntry> runs_;
  int64_t nextId_ = 0;
};

}  // namespace sledge::pgvu::addon

