/** Parameter types a statement or procedure call binds (mapped to tedious TYPES by the connection). */
export type ParamType = 'int' | 'smallint' | 'numeric' | 'varchar' | 'char' | 'tvp';

/** A table-valued parameter: a user-defined table type and its rows. */
export interface TvpValue {
  schema: string;
  typeName: string;
  columns: readonly string[];
  rows: number[][];
}

/** A parameter bound to a statement (`@name`) or to a procedure's RPC call. */
export interface BoundParam {
  /** Without the leading '@'. */
  name: string;
  type: ParamType;
  value: string | number | null;
  output?: boolean;
  length?: number;
  precision?: number;
  scale?: number;
  tvp?: TvpValue;
}
