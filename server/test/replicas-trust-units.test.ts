/**
 * Scale-out's trust pieces without NATS: sealing and signing (seal.ts) and
 * the primary's replica registry (registry.ts). The behaviour over a real
 * nats-server is in apps/cli/test/replicas-trust.test.ts and
 * replicas-registry.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Opener, Signer, fingerprint, seal, signedBy, verifierOf } from '../dist/replicas/seal.js';
import { Registry } from '../dist/replicas/registry.js';
import type { Announce } from '../dist/replicas/wire.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('seal and sign', () => {
  const to = Opener.generate();
  const plain = bytes('{"password":"s3cret"}');

  it('a sealed payload opens only with the recipient key and the same context, unaltered', () => {
    const s = seal(to.pub, plain, 'control boot 7 fp');
    expect(Buffer.from(s.ct, 'base64url').includes(Buffer.from('s3cret'))).toBe(false);
    expect(Buffer.from(to.open(s, 'control boot 7 fp')!).toString()).toBe('{"password":"s3cret"}');
    expect(to.open(s, 'control boot 8 fp')).toBeNull();
    expect(Opener.generate().open(s, 'control boot 7 fp')).toBeNull();
    const ct = Buffer.from(s.ct, 'base64url');
    ct[0] = ct[0]! ^ 1;
    expect(to.open({ ...s, ct: ct.toString('base64url') }, 'control boot 7 fp')).toBeNull();
    expect(to.open({ ...s, epk: Opener.generate().pub }, 'control boot 7 fp')).toBeNull();
    expect(to.open({ epk: 'junk', iv: '', ct: '' }, 'control boot 7 fp')).toBeNull();
    // Each seal has its own ephemeral key and nonce.
    expect(seal(to.pub, plain, 'c').ct).not.toBe(seal(to.pub, plain, 'c').ct);
  });

  it('a signed message verifies with its signer\'s public key only, and not once altered', () => {
    const a = Signer.generate();
    const msg = a.sign(bytes('{"k":"frame","n":1}'));
    const key = verifierOf(a.pub)!;
    expect(signedBy(msg, key)).toBe(true);
    expect(signedBy(msg, verifierOf(Signer.generate().pub)!)).toBe(false);
    const altered = Uint8Array.from(msg);
    altered[altered.length - 2] = altered[altered.length - 2]! ^ 1;
    expect(signedBy(altered, key)).toBe(false);
    expect(signedBy(msg.subarray(0, 64), key)).toBe(false);
    for (const junk of [undefined, 42, '', 'x'.repeat(42), a.pub + 'A', 'x'.repeat(42) + '!']) expect(verifierOf(junk)).toBeNull();
    expect(a.fp).toBe(fingerprint(a.pub));
    expect(a.fp).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });
});

describe('the replica registry', () => {
  const announce = (name: string, host = 'h'): Announce => ({
    name,
    version: '0.1.0',
    host,
    cores: 2,
    drivers: ['sqlite'],
    jobId: null,
    cpuPct: null,
    processCpuPct: null,
    bootId: 'b',
    system: { hostname: host, cpuModel: 'm', cpuCount: 2, memoryBytes: 1, os: 'Linux', kernel: 'k' },
    cpu: { ts: 0, cpus: [], iops: 0, mbps: 0 },
  });
  const identity = () => {
    const s = Signer.generate();
    return { keys: { sign: s.pub, seal: Opener.generate().pub }, verify: verifierOf(s.pub)! };
  };
  const hb = (id: ReturnType<typeof identity>, seq: number, name: string, host?: string) => ({ seq, keys: id.keys, a: announce(name, host) });

  it('binds a name to one live identity: another is refused (once said), replays are stale, a lost or left holder is replaced', () => {
    const r = new Registry({ lossMs: 1000, pruneMs: 5000, max: 10 });
    const a = identity();
    const b = identity();
    expect(r.seen(hb(a, 1, 'x', 'ha'), a.verify, 0).t).toBe('joined');
    expect(r.seen(hb(a, 1, 'x'), a.verify, 100).t).toBe('stale');
    expect(r.seen(hb(b, 1, 'x', 'hb'), b.verify, 200)).toMatchObject({ t: 'refused', first: true });
    expect(r.seen(hb(b, 2, 'x', 'hb'), b.verify, 300)).toMatchObject({ t: 'refused', first: false });
    expect(r.list().map((x) => [x.name, x.host, x.key, x.joinedAt])).toEqual([['x', 'ha', fingerprint(a.keys.sign), 0]]);
    // Lost: the next identity takes the name.
    expect(r.sweep(1200).lost.map((e) => e.peer.name)).toEqual(['x']);
    expect(r.seen(hb(b, 3, 'x', 'hb'), b.verify, 1300)).toMatchObject({ t: 'joined', replaced: { lost: true } });
    expect(r.live('x')!.peer.fp).toBe(fingerprint(b.keys.sign));
    // Left (a signed leave, newer than its last heartbeat): the name is free at once.
    expect(r.left('x', fingerprint(a.keys.sign), 9)).toBeNull();
    expect(r.left('x', fingerprint(b.keys.sign), 3)).toBeNull();
    expect(r.left('x', fingerprint(b.keys.sign), 4)).not.toBeNull();
    expect(r.list()[0]!.state).toBe('left'); // a clean leave shows as left, not lost (issue 31 item 4)
    expect(r.seen(hb(a, 5, 'x'), a.verify, 1400)).toMatchObject({ t: 'joined', replaced: { left: true } });
  });

  it('prunes lost replicas after pruneMs, and holds at most max: a new name takes the longest-lost one\'s place, or is refused while all are live', () => {
    const r = new Registry({ lossMs: 1000, pruneMs: 5000, max: 2 });
    const [a, b, c, d] = [identity(), identity(), identity(), identity()];
    r.seen(hb(a, 1, 'a'), a.verify, 0);
    r.seen(hb(b, 1, 'b'), b.verify, 500);
    expect(r.seen(hb(c, 1, 'c'), c.verify, 600)).toMatchObject({ t: 'full', first: true });
    expect(r.seen(hb(c, 2, 'c'), c.verify, 700)).toMatchObject({ t: 'full', first: false });
    expect(r.sweep(1100).lost.map((e) => e.peer.name)).toEqual(['a']);
    expect(r.seen(hb(c, 3, 'c'), c.verify, 1200).t).toBe('joined');
    expect(r.list().map((x) => x.name)).toEqual(['b', 'c']);
    expect(r.sweep(1600).lost.map((e) => e.peer.name)).toEqual(['b']);
    expect(r.sweep(6500).pruned).toEqual([]);
    expect(r.sweep(6700).pruned.map((e) => e.peer.name)).toEqual(['b']);
    expect(r.seen(hb(d, 1, 'd'), d.verify, 6800).t).toBe('joined');
    expect(r.size).toBe(2);
  });
});
