/** A file a driver's datagenScripts writes beside the CSV files. */
export interface DatagenScript {
  /** File name inside the directory, e.g. load_postgresql.sql. */
  name: string;
  text: string;
  executable: boolean;
}
