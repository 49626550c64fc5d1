import type { FastifyInstance } from 'fastify';
import type { LogSink } from './log-redact.js';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'v']);

/** One JSON log record as one human line: `16:31:02 INFO  message key=value ...`. */
export function formatLogLine(json: string): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : json + '\n';
  }
  const time = new Date(typeof r['time'] === 'number' ? r['time'] : Date.now()).toTimeString().slice(0, 8);
  const level = LEVELS[r['level'] as number] ?? String(r['level']);
  const extra = Object.entries(r)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => {
      if (k === 'err' && v && typeof v === 'object') {
        const e = v as { type?: string; message?: string; stack?: string };
        return `\n    ${e.stack ?? `${e.type ?? 'Error'}: ${e.message ?? ''}`}`;
      }
      return ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join('');
  return `${time} ${level} ${String(r['msg'] ?? '')}${extra}\n`;
}

/** A log sink that writes human lines (for a terminal) instead of JSON. */
export function prettySink(out: { write(s: string): unknown } = process.stdout): LogSink {
  return { write: (line: string) => void out.write(formatLogLine(line)) };
}

/**
 * Requests are logged at debug (LOG_LEVEL=debug shows them), one line when
 * each answer is sent, so that a busy dashboard does not bury job and server
 * messages; server errors are logged by the error handler at error level.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (req, reply) => {
    req.log.debug({ req, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request completed');
  });
}
