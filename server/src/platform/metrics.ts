/**
 * A small Prometheus registry: counters (optionally with one label) and gauges read when scraped.
 * Enough for GET /metrics without a dependency; names follow Prometheus conventions.
 */
export interface Counter {
  inc(label?: string, by?: number): void;
}

interface CounterEntry {
  help: string;
  labelName: string | undefined;
  values: Map<string, number>;
}

export function createMetrics() {
  const counters = new Map<string, CounterEntry>();
  const gauges = new Map<string, { help: string; read: () => number | Promise<number> }>();
  const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

  return {
    counter(name: string, help: string, labelName?: string): Counter {
      const entry: CounterEntry = { help, labelName, values: new Map() };
      counters.set(name, entry);
      return {
        inc(label = '', by = 1) {
          entry.values.set(label, (entry.values.get(label) ?? 0) + by);
        },
      };
    },

    gauge(name: string, help: string, read: () => number | Promise<number>): void {
      gauges.set(name, { help, read });
    },

    async render(): Promise<string> {
      const lines: string[] = [];
      for (const [name, entry] of counters) {
        lines.push(`# HELP ${name} ${entry.help}`, `# TYPE ${name} counter`);
        if (entry.values.size === 0 && !entry.labelName) lines.push(`${name} 0`);
        for (const [label, value] of entry.values) {
          lines.push(entry.labelName ? `${name}{${entry.labelName}="${escape(label)}"} ${value}` : `${name} ${value}`);
        }
      }
      for (const [name, gauge] of gauges) {
        let value: number;
        try {
          value = await gauge.read();
        } catch {
          value = Number.NaN;
        }
        lines.push(`# HELP ${name} ${gauge.help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
