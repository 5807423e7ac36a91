// Compares the Ingress path routing with nginx's on sample paths: both must send each path to the
// same app. nginx: an exact location wins, else the longest prefix. Ingress (networking.k8s.io/v1):
// an Exact path wins, else the longest Prefix, matched by whole path segments.
import type { NginxRoute, Upstream } from './nginx-routes.js';

export interface IngressPath {
  path: string;
  pathType: 'Exact' | 'Prefix' | 'ImplementationSpecific';
  service: string;
}

export function routeWithNginx(routes: NginxRoute[], path: string): Upstream | undefined {
  const exact = routes.find((route) => route.modifier === '=' && route.path === path);
  if (exact) return exact.upstream;
  const prefixes = routes.filter((route) => route.modifier !== '=' && path.startsWith(route.path));
  return prefixes.sort((a, b) => b.path.length - a.path.length)[0]?.upstream;
}

function segmentPrefix(prefix: string, path: string): boolean {
  const trimmed = prefix.replace(/\/+$/, '');
  return trimmed === '' || path === trimmed || path.startsWith(`${trimmed}/`);
}

export function routeWithIngress(paths: IngressPath[], path: string): string | undefined {
  const exact = paths.find((entry) => entry.pathType === 'Exact' && entry.path === path);
  if (exact) return exact.service;
  const prefixes = paths.filter((entry) => entry.pathType !== 'Exact' && segmentPrefix(entry.path, path));
  return prefixes.sort((a, b) => b.path.length - a.path.length)[0]?.service;
}

/** Every routed path, a path below it, and one that merely starts with the same letters. */
export function samplePaths(routes: NginxRoute[]): string[] {
  const samples = new Set(['/', '/console', '/console/login', '/v1/openapi.json', '/v1/keys', '/v1/usage', '/v1/auth/device-code', '/v1/billing/checkout']);
  for (const route of routes) {
    const base = route.path.replace(/\/+$/, '') || '/';
    samples.add(base);
    samples.add(`${base}/child`);
    samples.add(`${base}x`);
  }
  return [...samples].sort();
}
