import { sqlSet } from '@sledge/sql';

/** Files of packages/sql/postgresql/tproch/ the driver reads. */
export type TprochSqlFile = 'admin.sql' | 'tables.sql' | 'keys.sql' | 'statistics.sql' | 'drop.sql' | 'refresh.sql';

/** The TPROC-H SQL, resolved and read once by @sledge/sql. */
const files = sqlSet<TprochSqlFile>('postgresql', 'tproch');

/** One named statement; throws naming the file when it is missing. */
export const tprochStatement = (file: TprochSqlFile, name: string): string => files.statement(file, name);

/** A script split into statements. */
export const tprochScript = (file: TprochSqlFile): string[] => files.script(file);
