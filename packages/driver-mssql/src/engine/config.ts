import type { MssqlTarget } from '@sledge/protocol';
import { SledgeError } from '@sledge/protocol';
import type { ConnectionConfiguration } from 'tedious';

/** tedious authentication block for a target (SQL login or Azure AD password). */
export type MssqlAuthentication =
  | { type: 'default'; options: { userName: string; password: string } }
  | {
      type: 'azure-active-directory-password';
      options: { userName: string; password: string; clientId: string; tenantId?: string };
    };

export function mssqlAuthentication(t: MssqlTarget): MssqlAuthentication {
  if (t.authentication === 'azure-active-directory-password') {
    if (!t.azureClientId.trim()) {
      throw new SledgeError(
        'SLEDGE_E_VALIDATION',
        'Azure AD password authentication needs the application (client) id: set target.azureClientId',
        { field: 'target.azureClientId' },
      );
    }
    return {
      type: 'azure-active-directory-password',
      options: {
        userName: t.user,
        password: t.password,
        clientId: t.azureClientId.trim(),
        ...(t.azureTenantId.trim() ? { tenantId: t.azureTenantId.trim() } : {}),
      },
    };
  }
  return { type: 'default', options: { userName: t.user, password: t.password } };
}

export interface SessionOptions {
  /** Database to open ("master" for server-level work). */
  database: string;
  /** Shown in sys.dm_exec_sessions.program_name. */
  appName: string;
  connectTimeoutMs?: number;
}

/**
 * Map a target to a tedious connection configuration. Requests never time
 * out on the client (builds and checkpoints run long); the connect attempt does.
 */
export function tediousConfig(t: MssqlTarget, o: SessionOptions): ConnectionConfiguration {
  return {
    server: t.host,
    authentication: mssqlAuthentication(t),
    options: {
      port: t.port,
      database: o.database,
      encrypt: t.encrypt,
      trustServerCertificate: t.trustServerCertificate,
      appName: o.appName,
      connectTimeout: o.connectTimeoutMs ?? 15000,
      requestTimeout: 0,
      useUTC: true,
      useColumnNames: false,
      rowCollectionOnRequestCompletion: false,
      abortTransactionOnError: true,
      enableArithAbort: true,
      maxRetriesOnTransientErrors: 0,
    },
  };
}
