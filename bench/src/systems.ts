// The five systems as load targets: the fake upstream itself, the two reference proxies, and the
// router in each mode that is running. CPU groups name every process a request costs.
import { pidsByName } from './infra/proc-stats.js';
import type { References } from './infra/references.js';
import { routerSpeech, upstreamSpeech, type SystemName, type Target } from './load/targets.js';
import type { LimitsOffTwin, ModeContext } from './mode-setup.js';

export function referenceTargets(references: References): Target[] {
  const upstream = () => [references.upstream.process.pid];
  const bench = () => [process.pid];
  const speech = (size: Parameters<Target['speech']>[0]) => upstreamSpeech(references.upstream.apiKey, size);
  return [
    { system: 'direct', baseUrl: references.upstream.baseUrl, pids: () => [], cpuGroups: () => ({ upstream, bench }), speech },
    {
      system: 'bare-proxy', baseUrl: references.bareProxy.baseUrl, pids: () => [references.bareProxy.process.pid],
      cpuGroups: () => ({ proxy: () => [references.bareProxy.process.pid], upstream, bench }), speech,
    },
    {
      system: 'gateway', baseUrl: references.gateway.baseUrl, pids: () => [references.gateway.process.pid],
      cpuGroups: () => ({ proxy: () => [references.gateway.process.pid], upstream, bench }), speech,
    },
  ];
}

export function routerTarget(mode: ModeContext, references: References): Target {
  const { router, loadAccounts } = mode;
  const role = (name: string) => () => router.processes().filter((item) => item.name === name).map((item) => item.pid);
  return {
    system: router.mode === 'embedded' ? 'router-embedded' : 'router-scaled',
    baseUrl: router.baseUrl,
    metricsUrl: router.metricsUrl,
    pids: () => [router.dataPlane.pid],
    cpuGroups: () => ({
      'data plane': () => [router.dataPlane.pid],
      ...(router.mode === 'scaled'
        ? { worker: role('worker'), 'control plane': role('control-plane'), postgres: () => pidsByName('postgres'), redis: () => pidsByName('redis-server') }
        : {}),
      upstream: () => [references.upstream.process.pid],
      bench: () => [process.pid],
    }),
    speech: (size, client = 0) => routerSpeech(loadAccounts[client % loadAccounts.length]!.key, size),
    startupPeakRss: () => router.dataPlane.startupPeakRss(),
  };
}

/** A twin of a router target (limits off, or metrics off): served by its own data plane, sharing the rest. */
export function twinTarget(mode: ModeContext, twin: LimitsOffTwin, references: References, kind: 'nolimits' | 'nometrics' | 'ref' = 'nolimits'): Target {
  return twinTargetNamed(`router-${mode.router.mode}-${kind}` as SystemName, mode, twin, references);
}

/** The Node 24 twin of a router target (its data plane on the node:http adapter), limits on. */
export function nodeLineTarget(mode: ModeContext, twin: LimitsOffTwin, references: References): Target {
  return twinTargetNamed(mode.router.mode === 'embedded' ? 'router-embedded-node24' : 'router-scaled-node24', mode, twin, references);
}

/** A scaled data plane from another build (`--baseline-data-plane`), limits on, on the same database. */
export function baselineTarget(mode: ModeContext, twin: LimitsOffTwin, references: References): Target {
  return twinTargetNamed('router-scaled-baseline', mode, twin, references);
}

function twinTargetNamed(system: SystemName, mode: ModeContext, twin: LimitsOffTwin, references: References): Target {
  const on = routerTarget(mode, references);
  const { 'data plane': _servingProcess, ...shared } = on.cpuGroups();
  return {
    system,
    baseUrl: twin.baseUrl,
    pids: () => [twin.pid()],
    cpuGroups: () => ({ ...shared, 'data plane': () => [twin.pid()] }),
    speech: (size, client = 0) => routerSpeech(twin.loadAccounts[client % twin.loadAccounts.length]!.key, size),
  };
}
