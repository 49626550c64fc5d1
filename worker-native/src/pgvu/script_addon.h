// sledge_pgvu's script loop (script_run.h), exported next to the TPROC-C loop:
//
//   startScript(opts) -> id      `threads` threads, each running its share of the VUs (each reading its feed)
//   pollScript(id) -> { live, logs }
//   scriptResults(id) -> [{ ok, elapsedMs, totalNs: number[scripts] }]   once live == 0
//   disposeScript(id)            abort and join, forget the run
//
// opts: conninfo, statements: string[], ops: string[] (script names),
// sessionTag?, counters, states, control, faults?, faultVus?, ringIndex,
// ringData, ringCapacity, feedIndex, feedData (Int32Arrays over
// SharedArrayBuffers), feedCapacity, vus: [{ index, position, startDelayMs }],
// threads? (1..; default one per core; at most one per VU).
// The runs belong to the Node environment (a cleanup hook aborts and joins
// their threads when it goes away).
#pragma once

#include <napi.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "script_run.h"
#include "vu_addon.h"

namespace sledge::pgvu::addon {

class ScriptLoops {
 public:
  static void exportTo(Napi::Env env, Napi::Object exports) {
    auto* self = new ScriptLoops();
    env.AddCleanupHook([](ScriptLoops* s) { delete s; }, self);
    exports.Set("startScript", Napi::Function::New(env, &ScriptLoops::Start, "startScript", self));
    exports.Set("pollScript", Napi::Function::New(env, &ScriptLoops::Poll, "pollScript", self));
    exports.Set("scriptResults", Napi::Function::New(env, &ScriptLoops::Results, "scriptResults", self));
    exports.Set("disposeScript", Napi::Function::New(env, &ScriptLoops::Dispose, "disposeScript", self));
  }

  ~ScriptLoops() {
    for (auto& [id, e] : runs_) {
      e.run->shutdown();
      for (Napi::ObjectReference& r : e.keep) r.SuppressDestruct();
    }
  }

 private:
  struct Entry {
    std::unique_ptr<ScriptRun> run;
    std::vector<Napi::ObjectReference> keep;
  };

  static ScriptLoops* self(const Napi::CallbackInfo& info) { return static_cast<ScriptLoops*>(info.Data()); }
  static Napi::Value Fail(Napi::Env env, const std::string& message) {
    Napi::TypeError::New(env, "sledge_pgvu: " + message).ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Entry* find(const Napi::CallbackInfo& info) {
    if (info.Length() < 1 || !info[0].IsNumber()) return nullptr;
    auto it = runs_.find(info[0].As<Napi::Number>().Int64Value());
    return it == runs_.end() ? nullptr : &it->second;
  }
  static bool strings(Napi::Object o, const char* key, std::vector<std::string>* out, std::string* error) {
    Napi::Value v = o.Get(key);
    if (!v.IsArray()) return *error = std::string(key) + " must be an array of strings", false;
    Napi::Array a = v.As<Napi::Array>();
    for (uint32_t k = 0; k < a.Length(); k++) {
      Napi::Value s = a.Get(k);
      if (!s.IsString()) return *error = std::string(key) + "[" + std::to_string(k) + "] must be a string", false;
      out->push_back(s.As<Napi::String>().Utf8Value());
    }
    return true;
  }

  static Napi::Value Start(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    if (info.Length() < 1 || !info[0].IsObject()) return Fail(env, "startScript(opts) expects an object");
    Napi::Object o = info[0].As<Napi::Object>();
    Reader r(o);
    Entry entry;
    ScriptConfig cfg;
    cfg.conninfo = r.string("conninfo");
    std::string err;
    if (!strings(o, "statements", &cfg.statements, &err) || !strings(o, "ops", &cfg.ops, &err)) return Fail(env, err);
    if (cfg.ops.empty() || cfg.ops.size() > 255) return Fail(env, "ops must name 1..255 scripts");
    if (cfg.statements.size() >= kStepBegin) return Fail(env, "too many statements");
    if (o.Has("sessionTag") && !o.Get("sessionTag").IsUndefined()) {
      cfg.sessionTag = r.string("sessionTag");
      bool ok = !cfg.sessionTag.empty() && cfg.sessionTag.size() <= 16;
      for (char ch : cfg.sessionTag) ok = ok && std::isalnum(static_cast<unsigned char>(ch));
      if (!ok) return Fail(env, "sessionTag must be 1..16 letters or digits");
    }
    Shared sh;
    sh.ops = static_cast<int>(cfg.ops.size());
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
    if (o.Has("threads") && !o.Get("threads").IsUndefined()) {
      cfg.threads = static_cast<size_t>(r.integer("threads", 1, INT32_MAX));
    } else {
      cfg.threads = std::max(1u, std::thread::hardware_concurrency());
    }
    cfg.feedIndex = r.int32s("feedIndex", &entry.keep);
    const Int32View feedData = r.int32s("feedData", &entry.keep);
    cfg.feedData = reinterpret_cast<uint8_t*>(feedData.data);
    cfg.feedCapacity = static_cast<uint32_t>(r.integer("feedCapacity", 64, 1 << 28));
    std::vector<VuSpec> vus;
    Napi::Value list = o.Get("vus");
    if (!list.IsArray()) return Fail(env, "vus must be an array");
    Napi::Array arr = list.As<Napi::Array>();
    for (uint32_t k = 0; k < arr.Length(); k++) {
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
    // Bounds: every index the threads write or read must be inside its array.
    if ((sh.ringCapacity & (sh.ringCapacity - 1)) != 0) return Fail(env, "ringCapacity must be a power of two");
    if ((cfg.feedCapacity & (cfg.feedCapacity - 1)) != 0) return Fail(env, "feedCapacity must be a power of two");
    if (sh.control.length < static_cast<size_t>(kCtrlSize)) return Fail(env, "control is too short");
    if (sh.ringIndex.length < vus.size() * kRingStride) return Fail(env, "ringIndex is too short for the VUs");
    if (sh.ringData.length < vus.size() * static_cast<size_t>(sh.ringCapacity) * 2) return Fail(env, "ringData is too short for the VUs");
    if (cfg.feedIndex.length < vus.size() * kFeedStride) return Fail(env, "feedIndex is too short for the VUs");
    if (feedData.length * 4 < vus.size() * static_cast<size_t>(cfg.feedCapacity)) return Fail(env, "feedData is too short for the VUs");
    const size_t ops = cfg.ops.size();
    for (const VuSpec& s : vus) {
      if (static_cast<size_t>(s.index) >= sh.states.length) return Fail(env, "a VU index is outside states");
      if ((static_cast<size_t>(s.index) + 1) * ops * kKinds > sh.counters.length) return Fail(env, "a VU index is outside counters");
      if (sh.faults.data && (s.index >= sh.faultVus || static_cast<size_t>(sh.faultVus) * (ops * kFaultSlots + kFaultVuSlots) > sh.faults.length)) {
        return Fail(env, "faults is too short for faultVus, or a VU index is outside it");
      }
    }
    entry.run = std::make_unique<ScriptRun>(std::move(cfg), std::move(vus), sh);
    if (!entry.run->start(&err)) {
      Napi::Error::New(env, "sledge_pgvu: " + err).ThrowAsJavaScriptException();
      return env.Undefined();
    }
    ScriptLoops* s = self(info);
    const int64_t id = ++s->nextId_;
    s->runs_.emplace(id, std::move(entry));
    return Napi::Number::New(env, static_cast<double>(id));
  }

  static Napi::Value Poll(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Entry* e = self(info)->find(info);
    if (e == nullptr) return Fail(env, "pollScript(id): no such run");
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

  static Napi::Value Results(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Entry* e = self(info)->find(info);
    if (e == nullptr) return Fail(env, "scriptResults(id): no such run");
    if (e->run->live() != 0) return Fail(env, "scriptResults(id): VU threads are still running");
    const std::vector<ScriptVuResult>& res = e->run->results();
    Napi::Array out = Napi::Array::New(env, res.size());
    for (size_t i = 0; i < res.size(); i++) {
      Napi::Object o = Napi::Object::New(env);
      o.Set("ok", Napi::Boolean::New(env, res[i].ok));
      o.Set("elapsedMs", Napi::Number::New(env, res[i].elapsedMs));
      Napi::Array ns = Napi::Array::New(env, res[i].totalNs.size());
      for (size_t t = 0; t < res[i].totalNs.size(); t++) ns.Set(static_cast<uint32_t>(t), Napi::Number::New(env, res[i].totalNs[t]));
      o.Set("totalNs", ns);
      out.Set(static_cast<uint32_t>(i), o);
    }
    return out;
  }

  static Napi::Value Dispose(const Napi::CallbackInfo& info) {
    ScriptLoops* s = self(info);
    Entry* e = s->find(info);
    if (e != nullptr) {
      e->run->shutdown();
      s->runs_.erase(info[0].As<Napi::Number>().Int64Value());
    }
    return info.Env().Undefined();
  }

  std::map<int64_t, Entry> runs_;
  int64_t nextId_ = 0;
};

}  // namespace sledge::pgvu::addon
