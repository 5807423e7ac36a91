// infra/k8s: every object against its Kubernetes schema, then the references between them (selectors,
// named ports, autoscaler and budget targets, Ingress backends), the drain timing and the routing.
import { finding, type Finding } from './findings.js';
import type { NginxRoute } from './nginx-routes.js';
import { validateKubernetesObject } from './kubernetes-models.js';
import { routeWithIngress, routeWithNginx, samplePaths, type IngressPath } from './kubernetes-routing.js';
import { parseYamlDocuments } from './yaml-documents.js';

type Labels = Record<string, string>;
interface Port { name?: string; containerPort?: number }
interface Probe { httpGet?: { path?: string; port?: string | number } }
interface Container {
  name: string; ports?: Port[]; readinessProbe?: Probe; livenessProbe?: Probe; startupProbe?: Probe;
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface K8sObject {
  apiVersion: string; kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: any; // shapes differ per kind; the schema checked them
  data?: Record<string, string>;
}

export interface KubernetesFiles {
  /** kustomization.yaml's text. */
  kustomization: string;
  /** Every other file in infra/k8s, by name. */
  resources: Record<string, string>;
}

const podLabels = (object: K8sObject): Labels | undefined => object.spec?.template?.metadata?.labels;
const containersOf = (object: K8sObject): Container[] => (Array.isArray(object.spec?.template?.spec?.containers) ? object.spec.template.spec.containers : []);
const matches = (selector: Labels | undefined, labels: Labels | undefined) =>
  Boolean(selector) && Object.entries(selector!).every(([key, value]) => labels?.[key] === value);

export async function checkKubernetes(directory: string, files: KubernetesFiles, nginx: NginxRoute[]): Promise<Finding[]> {
  const at = (name: string) => `${directory}/${name}`;
  const findings: Finding[] = [];
  const kustomization = parseYamlDocuments(at('kustomization.yaml'), files.kustomization);
  findings.push(...kustomization.findings);
  const listed = ((kustomization.documents[0] as { resources?: string[] } | undefined)?.resources ?? []);
  for (const name of listed) if (files.resources[name] === undefined) findings.push(finding(at('kustomization.yaml'), `lists ${name}, which does not exist`));
  for (const name of Object.keys(files.resources)) if (!listed.includes(name)) findings.push(finding(at(name), 'is not listed in kustomization.yaml'));

  const objects: Array<{ file: string; object: K8sObject }> = [];
  for (const name of listed.filter((item) => files.resources[item] !== undefined)) {
    const parsed = parseYamlDocuments(at(name), files.resources[name]!);
    findings.push(...parsed.findings);
    for (const document of parsed.documents) {
      const object = document as K8sObject;
      const problem = await validateKubernetesObject(object);
      if (problem) findings.push(finding(at(name), `${object.kind ?? '?'} ${object.metadata?.name ?? '?'}: ${problem}`));
      // An object with a bad field still takes part in the reference checks, so one typo is one finding.
      if (object.kind && object.metadata?.name) objects.push({ file: at(name), object });
    }
  }
  const ofKind = (kind: string) => objects.filter((entry) => entry.object.kind === kind);
  const deployments = ofKind('Deployment');
  const podTemplates = [...deployments, ...ofKind('Job')];
  const deploymentNamed = (name: string) => deployments.find((entry) => entry.object.metadata.name === name);

  for (const { file, object } of podTemplates) {
    const where = `${object.kind} ${object.metadata.name}`;
    const template = object.spec?.template;
    const pod = template?.spec;
    if (!Array.isArray(pod?.containers)) continue; // the schema check has reported it
    if (object.kind === 'Deployment' && !matches(object.spec.selector?.matchLabels, template.metadata?.labels)) findings.push(finding(file, `${where}: the selector does not match the pod labels`));
    for (const container of pod.containers as Container[]) {
      const ports = container.ports ?? [];
      if (pod.securityContext?.runAsNonRoot !== true) findings.push(finding(file, `${where}: pods must run as non-root (runAsNonRoot)`));
      if (container.securityContext?.readOnlyRootFilesystem !== true || container.securityContext.allowPrivilegeEscalation !== false) {
        findings.push(finding(file, `${where}/${container.name}: needs readOnlyRootFilesystem and no privilege escalation`));
      }
      if (object.kind !== 'Deployment') continue;
      for (const kind of ['readinessProbe', 'livenessProbe'] as const) if (!container[kind]) findings.push(finding(file, `${where}/${container.name}: no ${kind}`));
      for (const kind of ['readinessProbe', 'livenessProbe', 'startupProbe'] as const) {
        const port = container[kind]?.httpGet?.port;
        if (port !== undefined && !ports.some((item) => item.name === port || item.containerPort === port)) {
          findings.push(finding(file, `${where}/${container.name}: ${kind} uses port ${port}, which the container does not declare`));
        }
      }
    }
  }

  for (const { file, object } of ofKind('Service')) {
    const target = deployments.find((entry) => matches(object.spec?.selector, podLabels(entry.object)));
    if (!target) { findings.push(finding(file, `Service ${object.metadata.name} selects no Deployment`)); continue; }
    const declared = containersOf(target.object).flatMap((container) => container.ports ?? []);
    for (const port of (object.spec?.ports ?? []) as Array<{ name?: string; targetPort?: string | number }>) {
      if (!declared.some((item) => item.name === port.targetPort || item.containerPort === port.targetPort)) {
        findings.push(finding(file, `Service ${object.metadata.name}: targetPort ${port.targetPort} is not a port of ${target.object.metadata.name}`));
      }
    }
  }
  for (const { file, object } of ofKind('HorizontalPodAutoscaler')) {
    if (!deploymentNamed(object.spec?.scaleTargetRef?.name)) findings.push(finding(file, `HorizontalPodAutoscaler ${object.metadata.name} targets no Deployment`));
  }
  for (const name of ['data-plane', 'worker']) {
    if (!ofKind('HorizontalPodAutoscaler').some((entry) => entry.object.spec?.scaleTargetRef?.name === name)) findings.push(finding(directory, `no HorizontalPodAutoscaler for ${name}`));
  }
  for (const { file, object } of ofKind('PodDisruptionBudget')) {
    if (!deployments.some((entry) => matches(object.spec?.selector?.matchLabels, podLabels(entry.object)))) findings.push(finding(file, `PodDisruptionBudget ${object.metadata.name} covers no Deployment`));
  }
  for (const { file, object } of deployments) {
    const covered = ofKind('PodDisruptionBudget').some((entry) => matches(entry.object.spec?.selector?.matchLabels, podLabels(object)));
    if (!covered) findings.push(finding(file, `Deployment ${object.metadata.name} has no PodDisruptionBudget`));
  }
  if (!ofKind('Job').some((entry) => JSON.stringify(containersOf(entry.object)).includes('"migrate"'))) findings.push(finding(directory, 'no migration Job'));

  const config = Object.assign({}, ...ofKind('ConfigMap').map((entry) => entry.object.data ?? {})) as Record<string, string>;
  const streamMaxMs = Number(config.STREAM_MAX_DURATION_MS ?? 300_000);
  const dataPlane = deploymentNamed('data-plane');
  if (!dataPlane) findings.push(finding(directory, 'no data-plane Deployment'));
  else {
    // preStop, then the data plane's own stop: streams run on for SHUTDOWN_GRACE_MS, settling takes up to 30 s more.
    const preStop = containersOf(dataPlane.object).map((container) => (container as { lifecycle?: { preStop?: { exec?: { command?: string[] } } } }).lifecycle?.preStop?.exec?.command ?? []);
    const preStopMs = Math.max(0, ...preStop.map((command) => (command[0] === 'sleep' ? Number(command[1]) * 1000 : 0)));
    const drainMs = preStopMs + Number(config.SHUTDOWN_GRACE_MS ?? 30_000) + 30_000;
    if ((dataPlane.object.spec?.template?.spec?.terminationGracePeriodSeconds ?? 30) * 1000 < drainMs) {
      findings.push(finding(dataPlane.file, `data-plane: terminationGracePeriodSeconds must cover the drain, preStop + SHUTDOWN_GRACE_MS + 30 s (${drainMs} ms)`));
    }
  }

  const ingressPaths: IngressPath[] = [];
  for (const { file, object } of ofKind('Ingress')) {
    for (const rule of object.spec?.rules ?? []) {
      for (const entry of rule?.http?.paths ?? []) {
        const service = objects.find((item) => item.object.kind === 'Service' && item.object.metadata.name === entry.backend?.service?.name);
        const portName = entry.backend?.service?.port?.name;
        if (!service) findings.push(finding(file, `Ingress ${object.metadata.name}: ${entry.path} goes to a Service that does not exist`));
        else if (portName && !((service.object.spec?.ports ?? []) as Array<{ name?: string }>).some((port) => port.name === portName)) findings.push(finding(file, `Ingress ${object.metadata.name}: ${entry.path} uses port ${portName}, which Service ${service.object.metadata.name} does not have`));
        ingressPaths.push({ path: entry.path, pathType: entry.pathType, service: entry.backend?.service?.name });
        if (entry.path === '/v1/audio/speech') {
          const annotations = object.metadata.annotations ?? {};
          if (annotations['nginx.ingress.kubernetes.io/proxy-buffering'] !== 'off') findings.push(finding(file, `Ingress ${object.metadata.name}: speech must not be buffered (proxy-buffering: "off")`));
          if (Number(annotations['nginx.ingress.kubernetes.io/proxy-read-timeout'] ?? 60) * 1000 <= streamMaxMs) findings.push(finding(file, `Ingress ${object.metadata.name}: proxy-read-timeout must exceed STREAM_MAX_DURATION_MS`));
        }
      }
    }
  }
  for (const path of samplePaths(nginx)) {
    const expected = routeWithNginx(nginx, path);
    const actual = routeWithIngress(ingressPaths, path);
    if (expected !== actual) findings.push(finding(`${directory}/ingress.yaml`, `${path} goes to ${actual ?? 'nothing'} through the Ingress but to ${expected ?? 'nothing'} through nginx`));
  }
  return findings;
}
