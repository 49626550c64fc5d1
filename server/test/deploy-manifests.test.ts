import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageFiles } from '../../deploy/image-files.mjs';
import { makeApp, type SledgeApp } from './helpers.js';
import { deployYaml, envNamesInCode, envOf, execForm, lastOp, ops, parseDockerfile, ROOT, yamlDocs, type Obj } from './deploy-files.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
}
interface Probe {
  httpGet?: { path: string; port: number | string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  securityContext?: { runAsUser?: number; runAsGroup?: number; fsGroup?: number; runAsNonRoot?: boolean };
  volumes?: { name: string; persistentVolumeClaim?: { claimName: string }; emptyDir?: object }[];
}
interface Deployment {
  kind: 'Deployment';
  metadata: { name: string };
  spec: { replicas: number; strategy?: { type: string }; template: { metadata: { labels: Record<string, string> }; spec: PodSpec } };
}
interface Service {
  kind: 'Service';
  metadata: { name: string };
  spec: { selector: Record<string, string>; ports: { port: number; targetPort: number | string }[] };
}
interface ComposeService {
  image?: string;
  command?: string[];
  ports?: string[];
  expose?: unknown[];
  environment?: Record<string, string> | string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
}

const SECRET_NAME = /TOKEN|PASSWORD|SECRET|CREDS/;
const HEALTH = '/api/v1/health';

const dockerfile = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const runtime = dockerfile[dockerfile.length - 1]!;
const rootPkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; packageManager: string };
const IMAGE = `sledge:${rootPkg.version}`;

const compose = yamlDocs('deploy/compose.yaml')[0] as { services: Record<string, ComposeService> };
const composeSledge = Object.entries(compose.services).filter(([, s]) => s.image?.split(':')[0] === 'sledge');
const composeEnv = (s: ComposeService): Record<string, string> =>
  Array.isArray(s.environment) ? Object.fromEntries(s.environment.map((e) => [e.split('=')[0]!, e.slice(e.indexOf('=') + 1)])) : (s.environment ?? {});
const isReplicaCommand = (argv: readonly string[] | undefined) => JSON.stringify(argv) === JSON.stringify(['node', 'apps/cli/dist/main.js', 'replica']);

const k8sFiles = deployYaml().filter((f) => f.path.startsWith('deploy/k8s/'));
const k8sObjects = k8sFiles.filter((f) => !/(kustomization|nats-values)\.yaml$/.test(f.path)).flatMap((f) => f.docs);
const deployments = k8sObjects.filter((d): d is Obj & Deployment => d['kind'] === 'Deployment');
const services = k8sObjects.filter((d): d is Obj & Service => d['kind'] === 'Service');
const deployment = (name: string) => {
  const d = deployments.find((x) => x.metadata.name === name);
  if (!d) throw new Error(`no Deployment ${name} in deploy/k8s`);
  return d;
};
const server = deployment('sledge-server');
const replica = deployment('sledge-replica');
const serverContainer = server.spec.template.spec.containers[0]!;
const secretExample = yamlDocs('deploy/k8s/secret.example.yaml')[0] as { kind: string; metadata: { name: string }; stringData: Record<string, string> };
const natsValues = yamlDocs('deploy/k8s/nats-values.yaml')[0] as {
  config: { jetstream: { enabled: boolean }; merge: { authorization: { token: string } } };
  container: { env: Record<string, { valueFrom?: { secretKeyRef?: { name: string; key: string } } }> };
};
const natsValuesText = readFileSync(join(ROOT, 'deploy/k8s/nats-values.yaml'), 'utf8');

/** A container port given by number or by name, as a number. */
function portNumber(c: Container, port: number | string): number {
  if (typeof port === 'number') return port;
  const p = c.ports?.find((x) => x.name === port);
  if (!p) throw new Error(`container ${c.name} has no port named ${port}`);
  return p.containerPort;
}
const probes = (c: Container) => [c.readinessProbe, c.livenessProbe, c.startupProbe].filter((p): p is Probe => p !== undefined);
const selects = (selector: Record<string, string>, labels: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
const finalUser = () => lastOp(runtime, 'USER')!.args.split(':')[0]!;

describe('deployment files: Dockerfile, deploy/compose.yaml, deploy/k8s', () => {
  it('every YAML file in deploy/ parses, and the expected files are there', () => {
    const files = deployYaml();
    for (const f of files) expect(f.errors, f.path).toEqual([]);
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['deploy/compose.yaml', 'deploy/k8s/sledge-server.yaml', 'deploy/k8s/sledge-replica.yaml', 'deploy/k8s/secret.example.yaml', 'deploy/k8s/kustomization.yaml', 'deploy/k8s/nats-values.yaml']),
    );
    for (const o of k8sObjects) expect(o, 'a Kubernetes object has apiVersion, kind, metadata.name').toMatchObject({ apiVersion: expect.any(String), kind: expect.any(String), metadata: { name: expect.any(String) } });
    // Namespace-agnostic: the namespace is chosen at apply time.
    for (const o of k8sObjects) expect((o['metadata'] as Obj)['namespace'], `${o['kind'] as string} ${(o['metadata'] as Obj)['name'] as string}`).toBeUndefined();
  });

  it('the Dockerfile builds in a full stage and runs as a non-root user in a slim one', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    const build = dockerfile[0]!;
    expect(build.base).toMatch(/^node:20(\.\d+)*-bookworm$/);
    expect(runtime.base).toMatch(/^node:20(\.\d+)*-bookworm-slim$/);
    // The pnpm of package.json's packageManager (pnpm would otherwise fetch that version at install).
    expect(`pnpm@${envOf(build, 'ARG').get('PNPM_VERSION')}`).toBe(rootPkg.packageManager);
    const runs = ops(build, 'RUN').map((i) => i.args);
    for (const step of ['libpq-dev', 'libmariadb-dev', 'pnpm install --frozen-lockfile', 'pnpm build', '--prod', 'deploy/image-files.mjs']) expect(runs.some((r) => r.includes(step)), step).toBe(true);
    expect(ops(runtime, 'RUN').some((i) => /\blibpq5\b/.test(i.args))).toBe(true);
    expect(ops(runtime, 'RUN').some((i) => /\blibmariadb3\b/.test(i.args))).toBe(true);
    const user = finalUser();
    expect(user).toBe('10001');
    expect(user).not.toMatch(/^(0|root)$/);
    expect(execForm(lastOp(runtime, 'CMD')!)).toEqual(['node', 'server/dist/main.js']);
    const env = envOf(runtime);
    expect(env.get('HOST')).toBe('0.0.0.0');
    expect(env.get('SLEDGE_DATA_DIR')).toBe('/data');
    expect(lastOp(runtime, 'VOLUME')!.args).toMatch(/["\s[]\/data["\s\]]|^\/data$/);
    expect(lastOp(runtime, 'WORKDIR')!.args).toBe('/app');
  });

  it('the image holds what its commands run: server, CLI (replicas), UI, CPU agent, SQL files, migrations, addons', () => {
    // The build stage assembles /out with deploy/image-files.mjs; the runtime stage copies /out to its WORKDIR.
    const build = dockerfile[0]!;
    const assemble = ops(build, 'RUN').find((i) => i.args.includes('deploy/image-files.mjs'))!;
    const out = /deploy\/image-files\.mjs\s+(\S+)/.exec(assemble.args)![1]!;
    const copy = ops(runtime, 'COPY').find((i) => i.args.includes('--from='))!;
    expect(copy.args).toBe(`--from=${build.name} ${out} ${lastOp(runtime, 'WORKDIR')!.args}`);

    const files = imageFiles(ROOT);
    const inImage = (p: string) => files.some((f) => p === f || p.startsWith(`${f}/`)) && existsSync(join(ROOT, p));
    const needed = [
      execForm(lastOp(runtime, 'CMD')!)[1]!, // node server/dist/main.js
      'apps/cli/dist/main.js', // sledge replica
      'ui/dist/index.html', // served by the server (server/src/app.ts: ../../ui/dist)
      'apps/agent/dist/main.js', // started by the server (server/src/plugins/local-agent.ts)
      'packages/sql/postgresql', // packages/sql/src/files.ts
      'packages/jobstore/src/migrations', // packages/jobstore/src/migrate.ts
      'package.json', // server/src/version.ts
      'node_modules/.pnpm',
    ];
    if (existsSync(join(ROOT, 'worker-native/build/Release/sledge_native.node'))) needed.push('worker-native/build/Release/sledge_native.node');
    for (const p of needed) expect(inImage(p), p).toBe(true);
    // Dev-only workspace packages stay out.
    expect(files.some((f) => f.startsWith('e2e/') || f.startsWith('packages/driver-testkit/'))).toBe(false);
    // Every command compose and Kubernetes give the image runs a file it holds.
    const commands = [...composeSledge.map(([, s]) => s.command), ...deployments.flatMap((d) => d.spec.template.spec.containers.map((c) => c.command))];
    for (const argv of commands) if (argv) expect(inImage(argv[1]!), argv.join(' ')).toBe(true);
  });

  it('compose and Kubernetes run the image the repository builds, under one name tagged with its version', () => {
    expect(composeSledge.map(([n]) => n).sort()).toEqual(['replica-1', 'replica-2', 'sledge']);
    for (const [name, s] of composeSledge) expect(s.image, name).toBe(IMAGE);
    expect(compose.services['sledge']).toMatchObject({ build: { context: '..', dockerfile: 'Dockerfile' } });
    for (const d of deployments) for (const c of d.spec.template.spec.containers) expect(c.image, `${d.metadata.name}/${c.name}`).toBe(IMAGE);
    const kustomization = yamlDocs('deploy/k8s/kustomization.yaml')[0] as { images: { name: string; newName?: string; newTag?: string }[] };
    const [name, tag] = IMAGE.split(':');
    expect(kustomization.images).toEqual([expect.objectContaining({ name, newTag: tag })]);
  });

  it('the server port is one number everywhere: EXPOSE, PORT, compose, containerPort, Service targetPort, probes', () => {
    const expose = Number(lastOp(runtime, 'EXPOSE')!.args.split('/')[0]);
    expect(expose).toBe(8080);
    expect(Number(envOf(runtime).get('PORT') ?? 8080)).toBe(expose);
    const composePorts = compose.services['sledge']!.ports!;
    expect(composePorts.map((p) => Number(p.split(':').pop()))).toEqual([expose]);
    expect(serverContainer.ports!.map((p) => p.containerPort)).toEqual([expose]);
    const svc = services.find((s) => selects(s.spec.selector, server.spec.template.metadata.labels))!;
    expect(svc, 'a Service selects the server pods').toBeDefined();
    for (const p of svc.spec.ports) expect(portNumber(serverContainer, p.targetPort)).toBe(expose);
    const ps = probes(serverContainer);
    expect(ps.length).toBeGreaterThanOrEqual(2);
    for (const p of ps) expect(portNumber(serverContainer, p.httpGet!.port)).toBe(expose);
    const check = compose.services['sledge']!.healthcheck!.test.join(' ');
    expect(check).toContain(`http://127.0.0.1:${expose}${HEALTH}`);
  });

  describe('the probes', () => {
    let s: SledgeApp & { dataDir: string };
    beforeAll(async () => {
      s = await makeApp({ token: 'deploy-manifests-token' });
    });
    afterAll(async () => {
      await s.app.close();
    });

    it('ask the server health route, which answers without the API token', async () => {
      const paths = new Set(probes(serverContainer).map((p) => p.httpGet!.path));
      expect([...paths]).toEqual([HEALTH]);
      const r = await s.app.inject({ method: 'GET', url: HEALTH });
      expect(r.statusCode, r.body).toBe(200);
      expect(JSON.parse(r.body)).toMatchObject({ ok: true });
      // A route that needs the token refuses here, so the health route passing is not a server without auth.
      expect((await s.app.inject({ method: 'GET', url: '/api/v1/jobs' })).statusCode).toBe(401);
    });
  });

  it('every environment name given to a Sledge container is one the code reads', () => {
    const known = envNamesInCode();
    const given = new Map<string, string>(); // name -> where
    for (const k of envOf(runtime).keys()) given.set(k, 'Dockerfile ENV');
    for (const [name, s] of composeSledge) for (const k of Object.keys(composeEnv(s))) given.set(k, `compose ${name}`);
    for (const d of deployments) for (const c of d.spec.template.spec.containers) for (const e of c.env ?? []) given.set(e.name, `k8s ${d.metadata.name}`);
    for (const k of Object.keys(secretExample.stringData)) given.set(k, 'k8s secret.example.yaml');
    // NODE_ENV is for the libraries (Fastify and friends), not read by Sledge's own code.
    const unread = [...given].filter(([k]) => k !== 'NODE_ENV' && !known.has(k)).map(([k, where]) => `${k} (${where})`);
    expect(unread, 'names set in deploy files that server/src/main.ts and apps/cli/src do not read').toEqual([]);
  });

  it('secrets come from Secret refs in Kubernetes and from variables in compose, never as literals', () => {
    for (const d of deployments) {
      for (const c of d.spec.template.spec.containers) {
        for (const e of (c.env ?? []).filter((x) => SECRET_NAME.test(x.name))) {
          expect(e.value, `${d.metadata.name} ${e.name}`).toBeUndefined();
          const ref = e.valueFrom?.secretKeyRef;
          expect(ref, `${d.metadata.name} ${e.name} comes from a Secret`).toBeDefined();
          expect(ref!.name).toBe(secretExample.metadata.name);
          expect(Object.keys(secretExample.stringData)).toContain(ref!.key);
        }
      }
    }
    expect(secretExample.kind).toBe('Secret');
    for (const [name, s] of Object.entries(compose.services)) {
      for (const [k, v] of Object.entries(composeEnv(s))) if (SECRET_NAME.test(k)) expect(v, `compose ${name} ${k}`).toMatch(/^\$\{[A-Z_]+(:-[^}]*)?\}$/);
    }
    // No token value written out in the Kubernetes manifests or the Helm values other than the example Secret.
    const natsRef = Object.values(natsValues.container.env).map((e) => e.valueFrom?.secretKeyRef);
    expect(natsRef).toEqual([{ name: secretExample.metadata.name, key: 'SLEDGE_NATS_TOKEN' }]);
    for (const f of k8sFiles.filter((x) => !x.path.endsWith('secret.example.yaml'))) {
      const text = readFileSync(join(ROOT, f.path), 'utf8');
      for (const v of Object.values(secretExample.stringData)) expect(text.includes(v), `${f.path} holds the example value ${v}`).toBe(false);
    }
  });

  it('replicas open no port: no ports, no Service, no HTTP probe; they run `sledge replica` with distinct names', () => {
    expect(replica.spec.replicas).toBe(2);
    const pod = replica.spec.template;
    for (const c of pod.spec.containers) {
      expect(c.ports ?? [], c.name).toEqual([]);
      expect(probes(c).filter((p) => p.httpGet)).toEqual([]);
      expect(isReplicaCommand([...(c.command ?? []), ...(c.args ?? [])]), (c.command ?? []).join(' ')).toBe(true);
      const name = c.env?.find((e) => e.name === 'SLEDGE_REPLICA_NAME');
      expect(name?.valueFrom?.fieldRef?.fieldPath, 'each pod is named after itself').toBe('metadata.name');
    }
    for (const s of services) expect(selects(s.spec.selector, pod.metadata.labels), `Service ${s.metadata.name} selects replica pods`).toBe(false);
    const replicas = composeSledge.filter(([, s]) => isReplicaCommand(s.command));
    expect(replicas.map(([n]) => n).sort()).toEqual(['replica-1', 'replica-2']);
    for (const [name, s] of replicas) {
      expect(s.ports, name).toBeUndefined();
      expect(s.expose, name).toBeUndefined();
      expect(composeEnv(s)['SLEDGE_REPLICA_NAME']).toBe(name);
    }
  });

  it('NATS runs with JetStream and token auth, where the server and the replicas look for it, with the same token', () => {
    const nats = compose.services['nats']!;
    expect(nats.image).toBe('nats:2.10-alpine');
    expect(nats.command).toContain('-js');
    const authAt = nats.command!.indexOf('--auth');
    expect(authAt).toBeGreaterThan(-1);
    const composeToken = nats.command![authAt + 1];
    for (const [name, s] of composeSledge) {
      const env = composeEnv(s);
      expect(env['SLEDGE_NATS_URL'], name).toBe('nats://nats:4222');
      expect(env['SLEDGE_NATS_TOKEN'], name).toBe(composeToken);
    }

    expect(natsValues.config.jetstream.enabled).toBe(true);
    const tokenVar = /^<< \$([A-Za-z_][A-Za-z0-9_]*) >>$/.exec(natsValues.config.merge.authorization.token)?.[1];
    expect(tokenVar, 'the NATS token is a config variable').toBeDefined();
    expect(natsValues.container.env[tokenVar!]?.valueFrom?.secretKeyRef).toBeDefined();
    const install = /helm install (\S+) nats\/nats --version (\d+\.\d+\.\d+) -f deploy\/k8s\/nats-values\.yaml/.exec(natsValuesText);
    expect(install, 'nats-values.yaml documents a helm install with a pinned chart version').not.toBeNull();
    const release = install![1]!;
    for (const d of [server, replica]) {
      for (const c of d.spec.template.spec.containers) {
        const url = c.env?.find((e) => e.name === 'SLEDGE_NATS_URL')?.value;
        expect(url, `${d.metadata.name} reaches the Helm release's Service`).toBe(`nats://${release}:4222`);
        expect(c.env?.find((e) => e.name === 'SLEDGE_NATS_TOKEN')?.valueFrom?.secretKeyRef).toEqual(natsValues.container.env[tokenVar!]!.valueFrom!.secretKeyRef);
      }
    }
  });

  it('kustomization lists every manifest but the Secret example; the server keeps /data on a volume as the user of the image', () => {
    const kustomization = yamlDocs('deploy/k8s/kustomization.yaml')[0] as { resources: string[] };
    const manifests = k8sFiles.map((f) => f.path.slice('deploy/k8s/'.length)).filter((p) => !['kustomization.yaml', 'nats-values.yaml', 'secret.example.yaml'].includes(p));
    expect([...kustomization.resources].sort()).toEqual(manifests.sort());
    expect(kustomization.resources).not.toContain('secret.example.yaml');

    expect(server.spec.replicas).toBe(1);
    expect(server.spec.strategy?.type, 'one pod holds the SQLite job store at a time').toBe('Recreate');
    const dataDir = envOf(runtime).get('SLEDGE_DATA_DIR')!;
    const mount = serverContainer.volumeMounts?.find((m) => m.mountPath === dataDir);
    expect(mount, `${dataDir} is mounted`).toBeDefined();
    const claim = server.spec.template.spec.volumes?.find((v) => v.name === mount!.name)?.persistentVolumeClaim?.claimName;
    expect(k8sObjects.some((o) => o['kind'] === 'PersistentVolumeClaim' && (o['metadata'] as Obj)['name'] === claim)).toBe(true);
    expect(compose.services['sledge']!.volumes!.map((v) => v.split(':')[1])).toContain(dataDir);
    const uid = Number(finalUser());
    for (const d of deployments) {
      expect(d.spec.template.spec.securityContext, d.metadata.name).toMatchObject({ runAsNonRoot: true, runAsUser: uid, fsGroup: uid });
    }
  });
});
