/** "DB2 v11.5.9.0" -> "11.5.9.0": the server version every workload's admin session reports (SYSIBMADM.ENV_INST_INFO service_level). */
export function versionFromServiceLevel(s: string): string {
  return s.trim().replace(/^DB2\s+v?/i, '');
}
