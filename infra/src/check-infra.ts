// Everything `npm run infra:check` looks at, read from an infra/ directory.
import fs from 'node:fs';
import path from 'node:path';
import { checkCompose } from './check-compose.js';
import { APP_TARGETS, checkDockerfile } from './check-dockerfile.js';
import { checkKubernetes } from './check-kubernetes.js';
import { finding, type Finding } from './findings.js';
import { routeWithNginx } from './kubernetes-routing.js';
import { nginxRoutes } from './nginx-routes.js';

export interface InfraReport {
  checked: string[];
  findings: Finding[];
}

export async function checkInfra(infraDirectory: string): Promise<InfraReport> {
  const read = (relative: string) => fs.readFileSync(path.join(infraDirectory, relative), 'utf8');
  const label = (relative: string) => path.posix.join('infra', relative);
  const checked: string[] = [];
  const findings: Finding[] = [];

  const template = read('nginx/voice-router.conf.template');
  const routes = nginxRoutes(template);
  checked.push(label('nginx/voice-router.conf.template'));
  for (const [path, upstream] of [['/v1/audio/speech', 'data-plane'], ['/v1/openapi.json', 'control-plane']] as const) {
    if (routeWithNginx(routes, path) !== upstream) findings.push(finding(label('nginx/voice-router.conf.template'), `${path} is not routed to the ${upstream}`));
  }

  findings.push(...checkDockerfile(label('docker/Dockerfile'), read('docker/Dockerfile'), read('docker/uws-checksums.sha256')));
  checked.push(label('docker/Dockerfile'));

  findings.push(...checkCompose(label('compose/compose.yaml'), read('compose/compose.yaml'), { nginxTemplate: template, dockerTargets: APP_TARGETS }));
  checked.push(label('compose/compose.yaml'));

  const k8sDirectory = path.join(infraDirectory, 'k8s');
  const resources = Object.fromEntries(
    fs.readdirSync(k8sDirectory).filter((name) => /\.ya?ml$/.test(name) && name !== 'kustomization.yaml').map((name) => [name, read(`k8s/${name}`)]),
  );
  findings.push(...(await checkKubernetes(label('k8s'), { kustomization: read('k8s/kustomization.yaml'), resources }, routes)));
  checked.push(...['kustomization.yaml', ...Object.keys(resources)].map((name) => label(`k8s/${name}`)));
  return { checked, findings };
}
