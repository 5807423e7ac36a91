// The offline infra check passes on the committed files and catches each kind of mistake it exists
// for: each case below breaks one thing in a copy of infra/ and expects a finding naming it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkInfra } from './check-infra.js';

const infraDirectory = fileURLToPath(new URL('..', import.meta.url));
const copies: string[] = [];

/** A copy of infra/'s deployment files with one file edited. */
function copyWith(relative: string, edit: (text: string) => string): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-infra-'));
  copies.push(directory);
  for (const folder of ['docker', 'compose', 'k8s', 'nginx']) fs.cpSync(path.join(infraDirectory, folder), path.join(directory, folder), { recursive: true });
  const file = path.join(directory, relative);
  const before = fs.readFileSync(file, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`the edit to ${relative} changed nothing`);
  fs.writeFileSync(file, after);
  return directory;
}

async function findingsAfter(relative: string, edit: (text: string) => string): Promise<string[]> {
  const report = await checkInfra(copyWith(relative, edit));
  return report.findings.map((item) => `${item.file}: ${item.message}`);
}

afterEach(() => {
  for (const directory of copies.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

describe('infra check', () => {
  it('passes on the committed files, all of them read', async () => {
    const report = await checkInfra(infraDirectory);
    expect(report.findings).toEqual([]);
    expect(report.checked).toEqual(expect.arrayContaining([
      'infra/docker/Dockerfile', 'infra/compose/compose.yaml', 'infra/nginx/voice-router.conf.template',
      'infra/k8s/kustomization.yaml', 'infra/k8s/data-plane.yaml', 'infra/k8s/ingress.yaml', 'infra/k8s/migrate-job.yaml',
    ]));
  });

  describe('Kubernetes', () => {
    it('rejects a field of the wrong type (the Kubernetes schema)', async () => {
      expect(await findingsAfter('k8s/data-plane.yaml', (text) => text.replace('replicas: 2', 'replicas: two'))).toEqual([
        expect.stringMatching(/data-plane\.yaml: Deployment data-plane: .*replicas must be integer/),
      ]);
    });

    it('reports a Deployment without containers once, without tripping over it', async () => {
      const findings = await findingsAfter('k8s/worker.yaml', (text) => text.replace('      containers:\n        - name: worker', '      containerz:\n        - name: worker'));
      expect(findings).toContainEqual(expect.stringMatching(/worker\.yaml: Deployment worker: .*containers/));
    });

    it('rejects a selector that does not match its pods', async () => {
      const findings = await findingsAfter('k8s/worker.yaml', (text) => text.replace('  selector:\n    matchLabels:\n      app.kubernetes.io/name: worker', '  selector:\n    matchLabels:\n      app.kubernetes.io/name: workers'));
      expect(findings).toContainEqual(expect.stringContaining('Deployment worker: the selector does not match the pod labels'));
    });

    it('rejects a probe on a port the container does not declare', async () => {
      const findings = await findingsAfter('k8s/control-plane.yaml', (text) => text.replace('path: /readyz\n              port: http', 'path: /readyz\n              port: admin'));
      expect(findings).toEqual([expect.stringContaining('control-plane/control-plane: readinessProbe uses port admin')]);
    });

    it('rejects a grace period shorter than the drain', async () => {
      const findings = await findingsAfter('k8s/data-plane.yaml', (text) => text.replace('terminationGracePeriodSeconds: 100', 'terminationGracePeriodSeconds: 60'));
      expect(findings).toEqual([expect.stringContaining('terminationGracePeriodSeconds must cover the drain, preStop + SHUTDOWN_GRACE_MS + 30 s (95000 ms)')]);
    });

    it('rejects an Ingress that routes a path elsewhere than nginx does', async () => {
      const findings = await findingsAfter('k8s/ingress.yaml', (text) => text.replace('- path: /v1/credits\n            pathType: Prefix', '- path: /v1/credits\n            pathType: Exact'));
      expect(findings).toContainEqual(expect.stringContaining('/v1/credits/child goes to control-plane through the Ingress but to data-plane through nginx'));
    });

    it('rejects buffered speech and a missing autoscaler', async () => {
      expect(await findingsAfter('k8s/ingress.yaml', (text) => text.replace('proxy-buffering: "off"', 'proxy-buffering: "on"'))).toEqual([
        expect.stringContaining('speech must not be buffered'),
      ]);
      expect(await findingsAfter('k8s/worker.yaml', (text) => text.replace('kind: HorizontalPodAutoscaler', 'kind: HorizontalPodAutoscalerX'))).toEqual([
        expect.stringContaining('unknown apiVersion/kind autoscaling/v2/HorizontalPodAutoscalerX'),
        expect.stringContaining('no HorizontalPodAutoscaler for worker'),
      ]);
    });

    it('rejects a manifest left out of kustomization.yaml', async () => {
      expect(await findingsAfter('k8s/kustomization.yaml', (text) => text.replace('  - migrate-job.yaml\n', ''))).toEqual([
        expect.stringContaining('migrate-job.yaml: is not listed in kustomization.yaml'),
        expect.stringContaining('no migration Job'),
      ]);
    });
  });

  describe('compose', () => {
    it('rejects an unknown key (the Compose schema)', async () => {
      expect(await findingsAfter('compose/compose.yaml', (text) => text.replace('(bounded at 60 s).\n    stop_grace_period: 65s', '(bounded at 60 s).\n    stop_grace_periods: 65s'))).toEqual([
        expect.stringMatching(/compose\.yaml: \/services\/worker must NOT have additional properties/),
      ]);
    });

    it('rejects a data plane that would be killed mid-stream, and nginx missing a replica', async () => {
      expect(await findingsAfter('compose/compose.yaml', (text) => text.replace('stop_grace_period: 95s', 'stop_grace_period: 10s'))).toEqual([
        expect.stringContaining('data-plane-1: stop_grace_period (10s) must cover the drain, SHUTDOWN_GRACE_MS + 30 s (90000 ms)'),
        expect.stringContaining('data-plane-2: stop_grace_period (10s) must cover the drain, SHUTDOWN_GRACE_MS + 30 s (90000 ms)'),
      ]);
      expect(await findingsAfter('compose/compose.yaml', (text) => text.replace(' server data-plane-2:8080 max_fails=2 fail_timeout=5s;', ''))).toEqual([
        expect.stringContaining("nginx's DATA_PLANE_SERVERS leaves out data-plane-2"),
      ]);
    });

    it('rejects an app container that is not hardened, and a dependency on a missing service', async () => {
      const findings = await findingsAfter('compose/compose.yaml', (text) => text.replace('    - ALL\n', '    - NET_RAW\n').replace('      postgres:\n        condition: service_healthy\n\n  # Operator', '      postgre:\n        condition: service_healthy\n\n  # Operator'));
      expect(findings).toContainEqual(expect.stringContaining('migrate depends on postgre, which is not a service'));
      expect(findings).toContainEqual(expect.stringContaining('control-plane must drop all capabilities'));
    });
  });

  describe('Dockerfile', () => {
    it('rejects a target that runs as root, has no health check or no tini', async () => {
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace('USER node\n', ''))).toEqual(
        ['data-plane', 'control-plane', 'worker', 'admin'].map((target) => expect.stringContaining(`${target}: must run as a non-root USER`)),
      );
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace(/HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \\\n  CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:'\+process\.env\.METRICS_PORT[^\n]*\n/, ''))).toEqual([
        expect.stringContaining('worker: needs a HEALTHCHECK'),
      ]);
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace('ENTRYPOINT ["/usr/bin/tini", "--", "node"]', 'ENTRYPOINT ["node"]'))).toEqual(
        ['data-plane', 'control-plane', 'worker'].map((target) => expect.stringContaining(`${target}: tini (or an equivalent init) must be PID 1`)),
      );
    });

    it('rejects a base without glibc 2.38, an unpinned base image and an unchecked native build', async () => {
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace('ARG DEBIAN_RELEASE=trixie', 'ARG DEBIAN_RELEASE=bookworm'))).toEqual([
        expect.stringContaining('DEBIAN_RELEASE bookworm has no glibc 2.38'),
      ]);
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace('FROM node:${NODE_VERSION}-${DEBIAN_RELEASE}-slim AS build', 'FROM node AS build'))).toEqual([
        expect.stringContaining('stage build: base image node is not pinned to a version'),
      ]);
      expect(await findingsAfter('docker/uws-checksums.sha256', (text) => text.split('\n').filter((line) => !line.includes('arm64')).join('\n'))).toEqual([
        expect.stringContaining('uws-checksums.sha256 has no checksum for uws_linux_arm64_137.node'),
      ]);
    });

    it('reports what the Dockerfile language service finds', async () => {
      expect(await findingsAfter('docker/Dockerfile', (text) => text.replace('WORKDIR /app', 'WORKDIR /app\nEXPOSE eighty'))).toEqual([
        expect.stringMatching(/Dockerfile: line \d+: .*/),
      ]);
    });
  });

  it('rejects an nginx template that sends the OpenAPI document to the data planes', async () => {
    const findings = await findingsAfter('nginx/voice-router.conf.template', (text) => text.replace('    location = /v1/status {', '    location = /v1/openapi.json {\n        proxy_pass http://voice_router_data_plane;\n    }\n    location = /v1/status {'));
    expect(findings).toContainEqual(expect.stringContaining('/v1/openapi.json is not routed to the control-plane'));
    expect(findings).toContainEqual(expect.stringContaining('/v1/openapi.json goes to control-plane through the Ingress but to data-plane through nginx'));
  });
});
