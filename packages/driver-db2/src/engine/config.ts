import { SledgeError, type Db2Target } from '@sledge/protocol';

/** A CLI keyword value: wrapped in braces when it holds ';' or surrounding spaces. */
function value(v: string, field: string): string {
  if (v.includes('}') || /[\0\r\n]/.test(v)) {
    throw new SledgeError('SLEDGE_E_VALIDATION', `${field} may not contain "}" or line breaks (Db2 CLI connection string)`, { field });
  }
  return /[;{]|^\s|\s$/.test(v) ? `{${v}}` : v;
}

/**
 * The Db2 CLI connection string for a target: TCP/IP to host:port,
 * database target.database, the TPROC-C user's credentials, a 15 s
 * connect timeout.
 */
export function db2ConnectionString(t: Db2Target): string {
  return [
    `DATABASE=${value(t.database, 'target.database')}`,
    `HOSTNAME=${value(t.host, 'target.host')}`,
    `PORT=${t.port}`,
    'PROTOCOL=TCPIP',
    `UID=${value(t.user, 'target.user')}`,
    `PWD=${value(t.password, 'target.password')}`,
    'CONNECTTIMEOUT=15',
  ].join(';') + ';';
}
