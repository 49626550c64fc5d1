/** TPC-C / HammerDB constants (hammerdb.md §5.2, §13). */
export const MAXITEMS = 100000;
export const DIST_PER_WARE = 10;
export const CUST_PER_DIST = 3000;
export const ORD_PER_DIST = 3000;
/** Orders 1..2100 are delivered at load; 2101..3000 are in NEW_ORDER (900 per district). */
export const FIRST_UNDELIVERED_O_ID = 2101;
export const NURAND_C = 123;
export const STOCK_CHUNK = 10000;
export const ITEM_CHUNK = 10000;

/** Stream tags: one independent PRNG stream per unit of generated data. */
export const TAG = {
  itemOriginal: 1,
  item: 2,
  warehouse: 3,
  stockOriginal: 4,
  stock: 5,
  district: 6,
  customer: 7,
  orders: 8,
  vu: 20,
} as const;
