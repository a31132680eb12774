import type { Provider } from '@rondo/core';
import { ProxyProvider, type UpstreamCallRecord } from '@rondo/proxy';
import { processMetrics } from '@rondo/server/operations';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

const STATES = ['idle', 'connecting', 'connected', 'down', 'closed'] as const;
const LISTS = ['tools', 'prompts', 'resources', 'templates'] as const;

/**
 * The gateway's Prometheus metrics, beside the process metrics: calls, errors and latency per
 * upstream and tool (or prompt, or resource), and, read at each scrape, each upstream's state,
 * suspended calls and catalog sizes. Label values come from the configuration and the upstreams'
 * servable catalogs, so their number is bounded by them.
 */
export class GatewayMetrics {
  readonly registry: Registry = processMetrics();
  private readonly calls: Counter<'upstream' | 'method' | 'name' | 'outcome'>;
  private readonly errors: Counter<'upstream' | 'method' | 'name' | 'code'>;
  private readonly latency: Histogram<'upstream' | 'method' | 'name'>;
  private providers: ReadonlyMap<string, Provider> = new Map();

  constructor() {
    const registers = [this.registry];
    this.calls = new Counter({
      name: 'rondo_gateway_upstream_calls_total',
      help: 'Calls to upstreams (each round of a multi-round call counts), by outcome.',
      labelNames: ['upstream', 'method', 'name', 'outcome'],
      registers,
    });
    this.errors = new Counter({
      name: 'rondo_gateway_upstream_call_errors_total',
      help: 'Calls to upstreams that ended in a JSON-RPC error, by code.',
      labelNames: ['upstream', 'method', 'name', 'code'],
      registers,
    });
    this.latency = new Histogram({
      name: 'rondo_gateway_upstream_call_duration_seconds',
      help: 'Time from a call (or round) reaching the gateway to its answer or next question.',
      labelNames: ['upstream', 'method', 'name'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers,
    });
    this.scraped();
  }

  /** The providers whose state is read at each scrape (set once the gateway is built). */
  watch(providers: ReadonlyMap<string, Provider>): void {
    this.providers = providers;
  }

  /** Counts one call (`ProxyWatch.onCall`). */
  readonly record = (record: UpstreamCallRecord): void => {
    const labels = { upstream: record.upstream, method: record.method, name: record.name };
    this.calls.inc({ ...labels, outcome: record.outcome });
    this.latency.observe(labels, record.durationMs / 1000);
    if (record.outcome === 'error') this.errors.inc({ ...labels, code: String(record.errorCode) });
  };

  /** The gauges read from the providers at each scrape. */
  private scraped(): void {
    const proxies = (): [string, ProxyProvider][] =>
      [...this.providers].filter(
        (pair): pair is [string, ProxyProvider] => pair[1] instanceof ProxyProvider,
      );
    new Gauge({
      name: 'rondo_gateway_upstream_state',
      help: "1 for each upstream's current connection state, 0 for the others.",
      labelNames: ['upstream', 'state'],
      registers: [this.registry],
      collect() {
        for (const [key, proxy] of proxies())
          for (const state of STATES)
            this.set({ upstream: key, state }, proxy.upstream.status.state === state ? 1 : 0);
      },
    });
    new Gauge({
      name: 'rondo_gateway_upstream_suspended_calls',
      help: "Calls waiting for their caller's answers to an upstream's questions.",
      labelNames: ['upstream'],
      registers: [this.registry],
      collect() {
        for (const [key, proxy] of proxies()) this.set({ upstream: key }, proxy.suspendedCalls);
      },
    });
    new Gauge({
      name: 'rondo_gateway_upstream_catalog_items',
      help: "Items of each upstream's lists as last read (servable ones).",
      labelNames: ['upstream', 'list'],
      registers: [this.registry],
      collect() {
        for (const [key, proxy] of proxies()) {
          const sizes = proxy.lists.sizes();
          for (const list of LISTS) this.set({ upstream: key, list }, sizes[list]);
        }
      },
    });
  }
}
