// Reads the path routing out of infra/nginx/voice-router.conf.template, so the Ingress and the test
// suites are held to the same routes as nginx.
export type Upstream = 'data-plane' | 'control-plane';

export interface NginxRoute {
  /** `=` for an exact match, `^~` or `` for a prefix. */
  modifier: '=' | '^~' | '';
  path: string;
  upstream: Upstream;
}

const UPSTREAMS: Record<string, Upstream> = {
  voice_router_data_plane: 'data-plane',
  voice_router_control_plane: 'control-plane',
};

export function nginxRoutes(template: string): NginxRoute[] {
  const routes: NginxRoute[] = [];
  const location = /location\s+(=|\^~)?\s*(\/[^\s{]*)\s*\{([^}]*)\}/g;
  for (const match of template.matchAll(location)) {
    const proxied = /proxy_pass\s+http:\/\/([a-z_]+)\s*;/.exec(match[3]!);
    const upstream = proxied ? UPSTREAMS[proxied[1]!] : undefined;
    if (upstream) routes.push({ modifier: (match[1] ?? '') as NginxRoute['modifier'], path: match[2]!, upstream });
  }
  return routes;
}

/** `${NAME}` placeholders the template needs filled in. */
export function nginxPlaceholders(template: string): string[] {
  return [...new Set([...template.matchAll(/\$\{([A-Z][A-Z0-9_]*)\}/g)].map((match) => match[1]!))].sort();
}
