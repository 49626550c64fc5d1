import { TPROCC, TX_PROC, opColor, type TxType } from '@sledge/protocol';
import type { WorkloadOp } from '../types.js';

/**
 * TPROC-C's operations as protocol lists them (the five transactions in
 * HammerDB's report order), named by their procedures (NEWORD ...), in the
 * colours protocol gives them (the HTML report draws with the same).
 */
export const TPROCC_OPS: readonly WorkloadOp[] = TPROCC.operations.map((t) => ({ id: t, label: TX_PROC[t as TxType] ?? t, color: opColor(TPROCC.id, t) }));
