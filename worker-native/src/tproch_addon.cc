#include "tproch_addon.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "tproch_gen.h"

namespace sledge::tproch {
namespace {

constexpr size_t kExternalMin = 64 * 1024;

Napi::Value Fail(Napi::Env env, const std::string& message) {
  Napi::TypeError::New(env, "@sledge/worker-native: " + message).ThrowAsJavaScriptException();
  return env.Undefined();
}

// The bytes of a Uint8Array of exactly kPoolSize bytes, or nullptr.
uint8_t* PoolBytes(Napi::Value v) {
  if (!v.IsTypedArray()) return nullptr;
  Napi::TypedArray ta = v.As<Napi::TypedArray>();
  if (ta.TypedArrayType() != napi_uint8_array) return nullptr;
  napi_typedarray_type type;
  size_t length = 0;
  void* data = nullptr;
  napi_value buffer;
  size_t offset = 0;
  if (napi_get_typedarray_info(v.Env(), v, &type, &length, &data, &buffer, &offset) != napi_ok) return nullptr;
  if (length != kPoolSize || data == nullptr) return nullptr;
  return static_cast<uint8_t*>(data);
}

// A non-negative integer property (a double holding an integer up to 2^53).
bool IntField(const Napi::Object& o, const char* key, int64_t* out) {
  Napi::Value v = o.Get(key);
  if (v.IsEmpty() || !v.IsNumber()) return false;
  const double x = v.As<Napi::Number>().DoubleValue();
  if (!(x >= 0 && x <= 9007199254740991.0) || std::trunc(x) != x) return false;
  *out = static_cast<int64_t>(x);
  return true;
}

}  // namespace

Napi::Value BuildPoolJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  uint8_t* pool = info.Length() >= 1 ? PoolBytes(info[0]) : nullptr;
  if (pool == nullptr) return Fail(env, "tprochBuildPool(pool) expects a Uint8Array of 314572800 bytes");
  buildTextPool(pool);
  return env.Undefined();
}

Napi::Value GenerateJs(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 3 || !info[0].IsObject() || !info[1].IsString()) {
    return Fail(env, "tprochGenerate(req, format, pool) expects an object, a string and the pool");
  }
  Request req;
  req.pool = PoolBytes(info[2]);
  if (req.pool == nullptr) return Fail(env, "the pool must be a Uint8Array of 314572800 bytes");
  Napi::Object o = info[0].As<Napi::Object>();
  const std::string kind = o.Get("kind").IsString() ? o.Get("kind").As<Napi::String>().Utf8Value() : "";
  if (kind == "region") {
    req.kind = Kind::Region;
  } else if (kind == "supplier") {
    req.kind = Kind::Supplier;
  } else if (kind == "customer") {
    req.kind = Kind::Customer;
  } else if (kind == "part") {
    req.kind = Kind::Part;
  } else if (kind == "orders") {
    req.kind = Kind::Orders;
  } else {
    return Fail(env, "req.kind '" + kind + "' is not a TPROC-H unit");
  }
  struct F {
    const char* key;
    int64_t* slot;
  } fields[] = {
      {"from", &req.from}, {"to", &req.to}, {"seq", &req.seq}, {"orderRowsBefore", &req.orderRowsBefore},
      {"lineRowsBefore", &req.lineRowsBefore}, {"supplier", &req.sizes.supplier}, {"customer", &req.sizes.customer},
      {"part", &req.sizes.part}, {"orders", &req.sizes.orders}, {"scale", &req.sizes.scale},
  };
  for (const F& f : fields) {
    if (!IntField(o, f.key, f.slot)) return env.IsExceptionPending() ? env.Undefined() : Fail(env, std::string("req.") + f.key + " must be a non-negative integer");
  }
  if (req.kind != Kind::Region && (req.from < 1 || req.to < req.from)) return Fail(env, "req.from..req.to must be a range from 1");
  if (req.sizes.supplier < 1 || req.sizes.customer < 1 || req.sizes.part < 1) return Fail(env, "req sizes must be at least 1");
  const std::string format = info[1].As<Napi::String>().Utf8Value();
  if (format == "pg-text") {
    req.sep = '\t';
  } else if (format == "csv") {
    req.sep = '|';
  } else {
    return Fail(env, "format must be 'pg-text' or 'csv' (got '" + format + "')");
  }

  Output out;
  if (!generate(req, out)) {
    Napi::Error::New(env, "@sledge/worker-native: out of memory generating rows").ThrowAsJavaScriptException();
    return env.Undefined();
  }
  Napi::Array tables = Napi::Array::New(env, static_cast<size_t>(out.count));
  for (int i = 0; i < out.count; i++) {
    ByteOut& bytes = out.out[i];
    const size_t len = bytes.size();
    const double rows = static_cast<double>(bytes.rows());
    Napi::Buffer<uint8_t> data;
    if (len == 0) {
      data = Napi::Buffer<uint8_t>::New(env, 0);
    } else if (len < kExternalMin) {
      data = Napi::Buffer<uint8_t>::Copy(env, bytes.data(), len);
    } else {
      uint8_t* owned = bytes.release();
      data = Napi::Buffer<uint8_t>::NewOrCopy(env, owned, len, [](Napi::Env, uint8_t* p) { std::free(p); });
    }
    if (env.IsExceptionPending()) return env.Undefined();
    Napi::Object t = Napi::Object::New(env);
    t.Set("table", Napi::String::New(env, out.tables[i]));
    t.Set("rows", Napi::Number::New(env, rows));
    t.Set("data", data);
    tables.Set(static_cast<uint32_t>(i), t);
  }
  return tables;
}

}  // namespace sledge::tproch
