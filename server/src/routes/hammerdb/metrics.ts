import os from 'node:os';
import type { AgentInfo } from '../../runner/samplers/agents.js';
import { failure, success, type Outcome, type Pairs } from './reply.js';
import type { RunCtx } from './lifecycle.js';

/**
 * HammerDB's CPU metrics verbs (metset, metstart, metstatus, metstop) over
 * Sledge's CPU agents (apps/agent, connected over /api/v1/agent). HammerDB
 * records CPU metrics for the jobs that run while metstart is in force; so
 * does Sledge: the HammerDB session's jobs carry metrics.cpu = metstart's flag.
 * agent_hostname picks the agent (its label); agent_id, HammerDB's comm port,
 * is kept and shown (Sledge agents connect over the WebSocket, not a port).
 */

const USAGE = 'Usage: metset [agent_hostname|agent_id] value';
const here = () => os.hostname();
const isLocal = (h: string) => h === 'localhost' || h === '127.0.0.1' || h === here();

/** The connected agent agent_hostname names: the server's local agent for localhost, else the agent labelled with that host. */
export function agentFor(ctx: RunCtx): AgentInfo | undefined {
  const h = ctx.s.metrics.agent_hostname;
  const agents = ctx.engine.agents.list();
  if (isLocal(h)) return agents.find((a) => a.label === `${here()} (local)` || a.label === here() || a.label === 'localhost' || a.system.hostname === here());
  return agents.find((a) => a.label === h || a.label.startsWith(`${h} `) || a.system.hostname === h);
}

export function metset(ctx: RunCtx, pairs: Pairs): Outcome {
  if (pairs.length !== 1) return failure(USAGE);
  const [key, raw] = pairs[0]!;
  const val = raw.trim();
  if (key !== 'agent_hostname' && key !== 'agent_id') return failure(`Error: invalid option: ${USAGE}`);
  if (ctx.s.metricsOn) return failure('Stop Metrics before setting configuration');
  if (key === 'agent_id') {
    if (!/^\d+$/.test(val) || Number(val) < 1 || Number(val) > 65535) return failure('agent_id must be an integer port number (1-65535)');
    ctx.s.metrics.agent_id = String(Number(val));
    return success(`Metrics agent id set to ${ctx.s.metrics.agent_id}`);
  }
  if (!/^[A-Za-z0-9._:-]{1,253}$/.test(val)) return failure('agent_hostname must be a host name or address');
  ctx.s.metrics.agent_hostname = val;
  return success(`Metrics agent hostname set to ${val}`);
}

/** How long metstart waits for the local agent it started to connect. */
export const AGENT_CONNECT_MS = 10_000;

export async function metstart(ctx: RunCtx, waitMs = AGENT_CONNECT_MS): Promise<Outcome> {
  const { s } = ctx;
  if (s.metricsOn) return failure(`CPU metrics are already running on ${here()}, call metstop to stop`);
  let agent = agentFor(ctx);
  const { agent_hostname: h, agent_id: id } = s.metrics;
  // As HammerDB's CLI does: no agent on this host, so start one (an in-process server, hammerdbcli or --local, has none).
  let started = '';
  if (!agent && isLocal(h) && ctx.startAgent?.()) {
    const end = Date.now() + waitMs;
    while (!(agent = agentFor(ctx)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    if (agent) started = `Starting Local Metrics Agent on ${here()}\n`;
  }
  if (!agent) {
    return isLocal(h)
      ? failure(`No Metrics Agent detected on id: ${h}:${id}: the server's local CPU agent is not connected (it starts with the server unless SLEDGE_AGENT=off; or run pnpm sledge-agent --server ws://<sledge-host>:8080)`)
      : failure(`Remote Metrics Agent is not running on ${h}, ${id}: on that host run pnpm sledge-agent --server ws://<sledge-host>:8080 --label ${h}`);
  }
  s.metricsOn = true;
  return success(`${started}Started CPU Metrics for ${agent.system.cpuModel}:(${agent.system.cpuCount} CPUs) from agent ${agent.label}; every following job records them`);
}

export function metstatus(ctx: RunCtx): Outcome {
  const { s } = ctx;
  if (!s.metricsOn) return success(`CPU Metrics are not running on ${here()}`);
  const agent = agentFor(ctx);
  return success(`CPU Metrics are running on ${here()}${agent ? `, Metrics Agent running on ${s.metrics.agent_hostname}:${s.metrics.agent_id} (${agent.label})` : `; no agent is connected for ${s.metrics.agent_hostname} now`}`);
}

export function metstop(ctx: RunCtx): Outcome {
  const { s } = ctx;
  const { agent_hostname: h, agent_id: id } = s.metrics;
  if (!s.metricsOn) return failure(`CPU Metrics are not running on ${here()}`);
  s.metricsOn = false;
  // The agent is shared with the dashboard and other jobs: it keeps running; HammerDB jobs stop recording its samples.
  return success(`Stopping Metrics Agent and Display on ${h}:${id}: following jobs record no CPU metrics`);
}
