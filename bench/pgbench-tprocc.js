/**
 * pgbench custom scripts that call Sledge's five PostgreSQL TPROC-C functions (functions.sql, the default
 * variant that Sledge calls with SELECT) with the input shapes of packages/core/src/tprocc/inputs.ts.
 *
 * One script per transaction type, weighted by the TPROC-C mix (pgbench `-f file@weight`). New order is
 * split into 11 scripts, one per order-line count 5..15, each weighted 10 (the mix weights x 11), so the
 * line count is U[5,15] and each script draws exactly its lines: weights 11 x 10 new order, 110 payment,
 * 11 delivery, 11 stock level, 11 order status = 253 = 23 x 11.
 *
 * Where pgbench cannot reproduce Sledge's inputs exactly (said in the README notes too):
 * - Home warehouse and stock-level district: Sledge draws them once per VU from the job's seed
 *   (TproccVuInputs, position = VU index + 2). The caller computes them for the same seed and passes them
 *   here; the script maps pgbench's client_id to them, so client i has VU i's home.
 * - Last names: pgbench variables are numbers, so the script draws NURand(255,0,999,123) as Sledge does
 *   and passes the three syllable indexes; the name is put together in the statement
 *   (ARRAY['BAR',...][h] || ...). Sledge sends the name as a string; byname = false still sends a name
 *   (Sledge sends '', which the routine ignores).
 * - Order lines: Sledge binds three integer arrays; the script binds 3 x ol_cnt integers and builds the
 *   arrays in the statement (ARRAY[$4, $5, ...]).
 * - The 1% rollback new order (last item 100001): pgbench 15 ends a client on any error but serialization
 *   and deadlock failures, so these orders (and only these) go through a wrapper,
 *   <schema>.neword_rb, that calls the same neword with the same arguments and catches SQLSTATE SLRBK
 *   (one subtransaction on the server; the same one round trip on the client).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SYLLABLES = ['BAR', 'OUGHT', 'ABLE', 'PRI', 'PRES', 'ESE', 'ANTI', 'CALLY', 'ATION', 'EING'];
const syl = `(ARRAY[${SYLLABLES.map((s) => `'${s}'`).join(',')}]::varchar[])`;
/** The last name lookup in SQL: :lh, :lt, :lu are 1-based syllable indexes (hundreds, tens, units). */
const LAST_NAME = `(${syl}[:lh::integer] || ${syl}[:lt::integer] || ${syl}[:lu::integer])`;
const MAXITEMS = 100000;

/** pgbench's CASE over client_id: client i gets values[i]. */
function perClient(values) {
  if (values.length === 1) return String(values[0]);
  return `CASE ${values.map((v, i) => `WHEN :client_id = ${i} THEN ${v}`).join(' ')} ELSE ${values[0]} END`;
}

/** A warehouse other than :w_id, uniform (Sledge: redraw U[1,W] until it differs). */
const otherWarehouse = (W) => `1 + (:w_id - 1 + random(1, ${W - 1})) % ${W}`;

/** Draw a customer last name as Sledge does: NURand(255, 0, 999, 123), split into syllable indexes. */
const lastNameDraws = [
  '\\set ln ((random(0, 255) | random(0, 999)) + 123) % 1000',
  '\\set lh 1 + :ln / 100',
  '\\set lt 1 + (:ln / 10) % 10',
  '\\set lu 1 + :ln % 10',
];

function newOrder(k, W, schema, wHome) {
  const lines = [`-- New order with ${k} order lines (Sledge: neword($1..$3, items[], supply[], quantities[]))`];
  lines.push(`\\set w_id ${wHome}`, '\\set d_id random(1, 10)', '\\set c_id random(1, 3000)', '\\set rb random(1, 100)');
  for (let i = 1; i <= k; i++) {
    lines.push(W > 1 ? `\\set s${i} CASE WHEN random(1, 100) = 1 THEN ${otherWarehouse(W)} ELSE :w_id END` : `\\set s${i} :w_id`);
    lines.push(i === k ? `\\set i${i} CASE WHEN :rb = 1 THEN ${MAXITEMS + 1} ELSE random(1, ${MAXITEMS}) END` : `\\set i${i} random(1, ${MAXITEMS})`);
    lines.push(`\\set q${i} random(1, 10)`);
  }
  const arr = (p) => `ARRAY[${Array.from({ length: k }, (_, j) => `:${p}${j + 1}::integer`).join(', ')}]`;
  const args = `:w_id::integer, :d_id::integer, :c_id::integer, ${arr('i')}, ${arr('s')}, ${arr('q')}`;
  lines.push('\\if :rb = 1', `SELECT ${schema}.neword_rb(${args}) AS total;`, '\\else', `SELECT neword(${args}) AS total;`, '\\endif');
  return lines.join('\n') + '\n';
}

function payment(W, wHome) {
  return [
    '-- Payment (Sledge: payment(w_id, d_id, c_w_id, c_d_id, c_id, byname, c_last, amount))',
    `\\set w_id ${wHome}`,
    '\\set d_id random(1, 10)',
    '\\set remote random(1, 100) > 85',
    '\\set c_d_id CASE WHEN :remote THEN random(1, 10) ELSE :d_id END',
    W > 1 ? `\\set c_w_id CASE WHEN :remote THEN ${otherWarehouse(W)} ELSE :w_id END` : '\\set c_w_id :w_id',
    '\\set byname random(1, 100) <= 60',
    ...lastNameDraws,
    '\\set c_id random(1, 3000)',
    '\\set amount random(1, 5000)',
    `SELECT payment(:w_id::integer, :d_id::integer, :c_w_id::integer, :c_d_id::integer, :c_id::integer, :byname::boolean, ${LAST_NAME}, :amount::numeric) AS c_id;`,
  ].join('\n') + '\n';
}

const delivery = (wHome) =>
  ['-- Delivery (Sledge: delivery(w_id, carrier_id))', `\\set w_id ${wHome}`, '\\set carrier random(1, 10)', 'SELECT delivery(:w_id::integer, :carrier::integer) AS delivered;'].join('\n') + '\n';

const stockLevel = (wHome, dStock) =>
  [
    '-- Stock level (Sledge: slev(w_id, d_id, threshold); d_id is the VU\'s stock-level district, drawn once)',
    `\\set w_id ${wHome}`,
    `\\set d_id ${dStock}`,
    '\\set threshold random(10, 20)',
    'SELECT slev(:w_id::integer, :d_id::integer, :threshold::integer) AS stock_count;',
  ].join('\n') + '\n';

const orderStatus = (wHome) =>
  [
    '-- Order status (Sledge: SELECT * FROM ostat(w_id, d_id, c_id, byname, c_last))',
    `\\set w_id ${wHome}`,
    '\\set d_id random(1, 10)',
    '\\set byname random(1, 100) <= 60',
    ...lastNameDraws,
    '\\set c_id random(1, 3000)',
    `SELECT * FROM ostat(:w_id::integer, :d_id::integer, :c_id::integer, :byname::boolean, ${LAST_NAME});`,
  ].join('\n') + '\n';

/**
 * Writes the scripts into dir and returns pgbench's -f arguments (file@weight).
 * homes: [{ homeW, stockD }] per VU in VU order; mix: TPROC-C weights; schema: where neword_rb lives.
 */
export function writePgbenchScripts(dir, { warehouses: W, homes, mix, schema }) {
  const wHome = perClient(homes.map((h) => h.homeW));
  const dStock = perClient(homes.map((h) => h.stockD));
  const files = [];
  const put = (name, text, weight) => {
    if (weight <= 0) return;
    const f = join(dir, name);
    writeFileSync(f, text);
    files.push(`${f}@${weight}`);
  };
  for (let k = 5; k <= 15; k++) put(`neworder_${k}.sql`, newOrder(k, W, schema, wHome), mix.neworder);
  put('payment.sql', payment(W, wHome), mix.payment * 11);
  put('delivery.sql', delivery(wHome), mix.delivery * 11);
  put('stocklevel.sql', stockLevel(wHome, dStock), mix.stocklevel * 11);
  put('orderstatus.sql', orderStatus(wHome), mix.orderstatus * 11);
  return files;
}

/** The rollback wrapper (see above): the same neword, SLRBK caught so that pgbench's client goes on. */
export function rollbackWrapperSql(schema, routineSchema) {
  return `CREATE SCHEMA IF NOT EXISTS ${schema};
CREATE OR REPLACE FUNCTION ${schema}.neword_rb(integer, integer, integer, integer[], integer[], integer[]) RETURNS numeric
LANGUAGE plpgsql AS $$
BEGIN
  RETURN ${routineSchema}.neword($1, $2, $3, $4, $5, $6);
EXCEPTION WHEN SQLSTATE 'SLRBK' THEN
  RETURN NULL;
END
$$;
`;
}
