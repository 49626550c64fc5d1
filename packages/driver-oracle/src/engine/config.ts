import type { OracleTarget } from '@sledge/protocol';
import type { OraConnectAttrs } from './library.js';

export type OracleRole = 'system' | 'user';

/**
 * Connection attributes for node-oracledb thin mode. The connect string is
 * passed through unchanged: Easy Connect ("host:port/service_name", with
 * optional "?transport_connect_timeout=..." parameters) or a full
 * (DESCRIPTION=...) descriptor. The system role connects as
 * target.systemUser; SYS needs the SYSDBA privilege.
 */
export function oracleConnectAttrs(t: OracleTarget, role: OracleRole, sysdba: number): OraConnectAttrs {
  if (role === 'system') {
    return {
      user: t.systemUser,
      password: t.systemPassword,
      connectString: t.connectString.trim(),
      connectTimeout: 20,
      ...(t.systemUser.trim().toLowerCase() === 'sys' ? { privilege: sysdba } : {}),
    };
  }
  return { user: t.user, password: t.password, connectString: t.connectString.trim(), connectTimeout: 20 };
}
