import { request } from 'node:http';

/** What SledgeClient reads of an answer: fetch's Response has these too. */
export interface Answer {
  status: number;
  ok: boolean;
  text(): Promise<string>;
}

/**
 * One HTTP request to the in-process server of `sledge --local` (http://127.0.0.1:<port>), with
 * node:http instead of fetch: fetch's first call loads undici and the web streams (~120 ms of CPU
 * in every `--local` command, docs/benchmarks.md "Process start"). The server sees the headers
 * fetch sends (accept, accept-language, sec-fetch-mode, user-agent, content-length 0 on a POST or
 * PUT without a body), except accept-encoding: nothing here would undo a compressed body. The
 * body is decoded as fetch's text() decodes it (UTF-8, a leading BOM dropped). A failure to
 * connect rejects with the socket's error (its code, e.g. ECONNREFUSED, where fetch puts it in
 * cause.code).
 */
export function loopbackRequest(url: URL, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'node' };
  for (const [k, v] of Object.entries(init.headers)) headers[k.toLowerCase()] = v; // the caller's own win, as with fetch
  if (init.body !== undefined) headers['content-length'] = String(Buffer.byteLength(init.body));
  else if (method === 'POST' || method === 'PUT') headers['content-length'] = '0';
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        const text = new TextDecoder().decode(Buffer.concat(chunks));
        resolve({ status, ok: status >= 200 && status < 300, text: async () => text });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
