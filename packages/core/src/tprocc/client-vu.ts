import type { TxType } from '@sledge/protocol';
import type { TxInputs } from './inputs.js';
import type { TxOutcome, VuSession } from './hooks.js';

/**
 * The frame of a VU that sends each TPROC-C transaction's statements itself
 * over one connection (client-side SQL, no stored routines): run() calls are
 * queued so transactions on the connection never interleave, each
 * transaction type goes to its method, and any error rolls the open
 * transaction back (unless the connection is gone) before it is rethrown
 * untouched, so the driver's classifyError still sees it. A driver supplies
 * the five transactions, the rollback and close.
 */
export abstract class ClientSqlVuBase implements VuSession {
  private queue: Promise<unknown> = Promise.resolve();

  protected abstract newOrder(i: TxInputs['neworder']): Promise<TxOutcome>;
  protected abstract payment(i: TxInputs['payment']): Promise<TxOutcome>;
  protected abstract delivery(i: TxInputs['delivery']): Promise<TxOutcome>;
  protected abstract stockLevel(i: TxInputs['stocklevel']): Promise<TxOutcome>;
  protected abstract orderStatus(i: TxInputs['orderstatus']): Promise<TxOutcome>;
  /** Roll the open transaction back after error `e`; do nothing when `e` says the connection is gone. Must not throw. */
  protected abstract rollbackAfter(e: unknown): Promise<void>;
  abstract close(): Promise<void>;

  run<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    const next = this.queue.then(() => this.runOne(tx, input));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async runOne<K extends TxType>(tx: K, input: TxInputs[K]): Promise<TxOutcome> {
    try {
      switch (tx) {
        case 'neworder':
          return await this.newOrder(input as TxInputs['neworder']);
        case 'payment':
          return await this.payment(input as TxInputs['payment']);
        case 'delivery':
          return await this.delivery(input as TxInputs['delivery']);
        case 'stocklevel':
          return await this.stockLevel(input as TxInputs['stocklevel']);
        case 'orderstatus':
          return await this.orderStatus(input as TxInputs['orderstatus']);
        default:
          throw new RangeError(`unknown transaction ${String(tx)}`);
      }
    } catch (e) {
      await this.rollbackAfter(e);
      throw e;
    }
  }
}
