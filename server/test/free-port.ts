import { createServer } from 'node:net';

/**
 * A loopback port free now (bound to port 0, then released), for a test
 * that spawns a server process. Every start takes a port of its own from
 * here: a random port can be one another test file's server is listening
 * on, and its health check would then answer for the wrong process.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}
