import { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync, accessSync, constants, writeSync } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { TclError } from '../errors.js';
import type { CallContext, Interp } from '../interp.js';
import { formatList } from '../lists.js';
import { arity, subcommand } from './util.js';

/** Files and channels: puts open close gets read flush eof file pwd cd. */

interface Channel {
  fd: number;
  buf: string;
  eof: boolean;
}

const MODES: Record<string, string> = { r: 'r', 'r+': 'r+', w: 'w', 'w+': 'w+', a: 'a', 'a+': 'a+', RDONLY: 'r', WRONLY: 'w', RDWR: 'r+' };

function fsError(e: unknown, what: string): TclError {
  const code = (e as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'illegal operation on a directory' : (e as Error).message;
  return new TclError(`${what}: ${reason}`);
}

export function registerIo(interp: Interp): void {
  const channels = new Map<string, Channel>();
  let next = 3;
  const chan = (id: string): Channel => {
    const c = channels.get(id) ?? (id === 'stdin' ? { fd: 0, buf: '', eof: false } : undefined);
    if (!c) throw new TclError(`can not find channel named "${id}"`);
    if (id === 'stdin') channels.set('stdin', c);
    return c;
  };
  const fill = (c: Channel): boolean => {
    const b = Buffer.alloc(65536);
    let n = 0;
    try {
      n = readSync(c.fd, b, 0, b.length, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') return true;
      throw fsError(e, 'error reading');
    }
    if (n === 0) c.eof = true;
    c.buf += b.toString('utf8', 0, n);
    return n > 0;
  };

  interp.register('puts', (args) => {
    let i = 1;
    let newline = true;
    if (args[i] === '-nonewline' && args.length > 2) {
      newline = false;
      i++;
    }
    const rest = args.slice(i);
    if (rest.length < 1 || rest.length > 2) throw new TclError('wrong # args: should be "puts ?-nonewline? ?channelId? string"');
    const [id, text] = rest.length === 2 ? [rest[0]!, rest[1]!] : ['stdout', rest[0]!];
    const s = text + (newline ? '\n' : '');
    if (id === 'stdout') interp.out(s);
    else if (id === 'stderr') interp.err(s);
    else writeSync(chan(id).fd, s);
    return '';
  });
  interp.register('open', (args) => {
    arity(args, 1, 3, 'open fileName ?access? ?permissions?');
    const mode = MODES[args[2] ?? 'r'];
    if (!mode) throw new TclError(`illegal access mode "${args[2]}"`);
    try {
      const fd = openSync(args[1]!, mode, args[3] === undefined ? 0o666 : parseInt(args[3], 8));
      const id = `file${next++}`;
      channels.set(id, { fd, buf: '', eof: false });
      return id;
    } catch (e) {
      throw fsError(e, `couldn't open "${args[1]}"`);
    }
  });
  interp.register('close', (args) => {
    arity(args, 1, 2, 'close channelId ?direction?');
    const c = chan(args[1]!);
    if (c.fd > 2) closeSync(c.fd);
    channels.delete(args[1]!);
    return '';
  });
  interp.register('flush', (args) => {
    arity(args, 1, 1, 'flush channelId');
    if (!['stdout', 'stderr'].includes(args[1]!)) chan(args[1]!);
    return '';
  });
  interp.register('eof', (args) => {
    arity(args, 1, 1, 'eof channelId');
    const c = chan(args[1]!);
    return c.eof && c.buf === '' ? '1' : '0';
  });
  interp.register('gets', (args, { interp: it }: CallContext) => {
    arity(args, 1, 2, 'gets channelId ?varName?');
    const c = chan(args[1]!);
    while (!c.buf.includes('\n') && !c.eof) fill(c);
    const nl = c.buf.indexOf('\n');
    const atEnd = nl < 0 && c.buf === '';
    const line = nl >= 0 ? c.buf.slice(0, nl) : c.buf;
    c.buf = nl >= 0 ? c.buf.slice(nl + 1) : '';
    if (args[2] === undefined) return line;
    it.setVar(args[2], line);
    return atEnd ? '-1' : String(line.length);
  });
  interp.register('read', (args) => {
    const nonewline = args[1] === '-nonewline';
    const id = args[nonewline ? 2 : 1];
    if (id === undefined) throw new TclError('wrong # args: should be "read channelId ?numChars?" or "read ?-nonewline? channelId"');
    const c = chan(id);
    while (!c.eof) fill(c);
    let text = c.buf;
    c.buf = '';
    if (!nonewline && args[2] !== undefined) {
      const n = Number(args[2]);
      c.buf = text.slice(n);
      text = text.slice(0, n);
    }
    return nonewline && text.endsWith('\n') ? text.slice(0, -1) : text;
  });
  interp.register('file', fileCmd);
  interp.register('pwd', () => process.cwd());
  interp.register('cd', (args) => {
    try {
      process.chdir(args[1] ?? process.env['HOME'] ?? '/');
    } catch (e) {
      throw fsError(e, `couldn't change working directory to "${args[1]}"`);
    }
    return '';
  });
}

function can(path: string, mode: number): boolean {
  try {
    accessSync(path, mode);
    return true;
  } catch {
    return false;
  }
}

function fileCmd(args: string[]): string {
  arity(args, 1, Infinity, 'file subcommand ?arg ...?');
  const p = args[2] ?? '';
  const stat = () => {
    try {
      return statSync(p);
    } catch {
      return undefined;
    }
  };
  switch (subcommand(args[1], ['delete', 'dirname', 'exists', 'extension', 'isdirectory', 'isfile', 'join', 'mkdir', 'normalize', 'readable', 'rootname', 'size', 'split', 'tail', 'writable'])) {
    case 'exists':
      return existsSync(p) ? '1' : '0';
    case 'isfile':
      return stat()?.isFile() ? '1' : '0';
    case 'isdirectory':
      return stat()?.isDirectory() ? '1' : '0';
    case 'readable':
      return can(p, constants.R_OK) ? '1' : '0';
    case 'writable':
      return can(p, constants.W_OK) ? '1' : '0';
    case 'join':
      return args.slice(2).reduce((acc, x) => (x.startsWith('/') ? x : join(acc, x)));
    case 'tail':
      return basename(p);
    case 'dirname': {
      const d = dirname(p);
      return d;
    }
    case 'extension':
      return extname(p);
    case 'rootname':
      return extname(p) ? p.slice(0, -extname(p).length) : p;
    case 'normalize':
      return resolve(p);
    case 'size': {
      const s = stat();
      if (!s) throw new TclError(`could not read "${p}": no such file or directory`);
      return String(s.size);
    }
    case 'mkdir':
      for (const d of args.slice(2)) mkdirSync(d, { recursive: true });
      return '';
    case 'delete': {
      const rest = args.slice(2).filter((x) => x !== '-force' && x !== '--');
      for (const d of rest) rmSync(d, { recursive: args.includes('-force'), force: true });
      return '';
    }
    case 'split':
      return formatList(p.split('/').filter((x, i) => x !== '' || i === 0).map((x, i) => (i === 0 && x === '' ? '/' : x)));
  }
  return '';
}
