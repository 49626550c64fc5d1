import { TPROCC, TX_PROC, type TxType } from '@sledge/protocol';
import type { WorkloadOp } from '../types.js';

/** Each transaction's fixed colour in the charts (light, dark). */
const COLORS: Record<TxType, { light: string; dark: string }> = {
  neworder: { light: '#2563eb', dark: '#60a5fa' },
  payment: { light: '#16a34a', dark: '#4ade80' },
  delivery: { light: '#d97706', dark: '#fbbf24' },
  stocklevel: { light: '#9333ea', dark: '#c084fc' },
  orderstatus: { light: '#0891b2', dark: '#22d3ee' },
};

/** TPROC-C's operations as protocol lists them (the five transactions in HammerDB's report order), named by their procedures (NEWORD ...). */
export const TPROCC_OPS: readonly WorkloadOp[] = TPROCC.operations.map((t) => ({ id: t, label: TX_PROC[t as TxType] ?? t, color: COLORS[t as TxType] ?? { light: '#4b5563', dark: '#d1d5db' } }));
