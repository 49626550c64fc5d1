import { orderLinePartitions } from '@sledge/core';
import { renderVars, type Quoting } from '../engine/sql-text.js';
import { statement } from './sqlfiles.js';

/** Partition names follow HammerDB: ol_0 .. ol_{n-1}. */
export function partitionName(remainder: number): string {
  return `ol_${remainder}`;
}

/**
 * CREATE TABLE statements for the ORDER_LINE hash partitions of a W-warehouse
 * build: floor(W/100) of them when partitioning is on and W >= 200, else none
 * (ORDER_LINE stays a plain table).
 */
export function renderOrderLinePartitions(W: number, enabled: boolean, q: Quoting): string[] {
  const n = orderLinePartitions(W, enabled);
  const template = statement('partition.sql', 'order_line_partition');
  const out: string[] = [];
  for (let r = 0; r < n; r++) out.push(renderVars(template, { partition: partitionName(r), modulus: n, remainder: r }, q));
  return out;
}
