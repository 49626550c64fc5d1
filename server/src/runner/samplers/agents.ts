import type { CpuSample, SystemInfo } from '@sledge/protocol';

export interface AgentInfo {
  id: number;
  label: string;
  system: SystemInfo;
  connectedAt: number;
  last?: CpuSample;
}

type Listener = (label: string, sample: CpuSample) => void;

/** CPU agents connected over /api/v1/agent; jobs subscribe to their samples while they run. */
export class AgentHub {
  private next = 1;
  private readonly agents = new Map<number, AgentInfo>();
  private readonly listeners = new Set<Listener>();

  connect(label: string, system: SystemInfo): number {
    const id = this.next++;
    this.agents.set(id, { id, label, system, connectedAt: Date.now() });
    return id;
  }

  sample(id: number, s: CpuSample): void {
    const a = this.agents.get(id);
    if (!a) return;
    a.last = s;
    for (const l of this.listeners) l(a.label, s);
  }

  disconnect(id: number): void {
    this.agents.delete(id);
  }

  list(): AgentInfo[] {
    return [...this.agents.values()];
  }

  onSample(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
