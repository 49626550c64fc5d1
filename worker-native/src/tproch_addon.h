// Node-API glue for the TPROC-H generator (tproch_gen.h), registered by addon.cc:
//
//   tprochBuildPool(pool: Uint8Array)                      fills the 300 MiB text pool
//   tprochGenerate(req, format, pool) -> [{ table, rows, data: Buffer }, ...]
//
// req    { kind: 'region'|'supplier'|'customer'|'part'|'orders', from, to, seq,
//          orderRowsBefore, lineRowsBefore, supplier, customer, part, orders, scale }
//        (worker-native/lib/tproch-generator.ts validates and fills it)
// format 'pg-text' | 'csv' (tab / '|' separated)
// pool   the Uint8Array the pool was built into (ArrayBuffer or SharedArrayBuffer)
#pragma once

#include <napi.h>

namespace sledge::tproch {

Napi::Value BuildPoolJs(const Napi::CallbackInfo& info);
Napi::Value GenerateJs(const Napi::CallbackInfo& info);

}  // namespace sledge::tproch
