// infra/docker/Dockerfile: the Dockerfile language service's validator (dockerfile-utils, the checks
// behind VS Code's Docker support), then this project's image rules, hadolint-style: every app target
// runs as a non-root user under tini with a health check; base images are pinned; Node 24 on a base
// with glibc >= 2.38 for the native uWebSockets.js build, whose download is checksummed.
import { DockerfileParser, type From, type Instruction } from 'dockerfile-ast';
import dockerfileUtils from 'dockerfile-utils';
import { finding, type Finding } from './findings.js';

export const APP_TARGETS = ['data-plane', 'control-plane', 'worker', 'admin'];
/** Debian releases with glibc >= 2.38 (trixie has 2.41). */
const GLIBC_238_RELEASES = ['trixie', 'forky'];

interface Stage {
  name: string | undefined;
  base: string;
  instructions: Instruction[];
}

function stagesOf(text: string): { stages: Stage[]; globalArgs: Record<string, string> } {
  const stages: Stage[] = [];
  const globalArgs: Record<string, string> = {};
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    if (keyword === 'FROM') {
      const from = instruction as From;
      stages.push({ name: from.getBuildStage() ?? undefined, base: from.getImage() ?? '', instructions: [] });
    } else if (stages.length === 0 && keyword === 'ARG') {
      const [name, value] = (instruction.getArgumentsContent() ?? '').split('=');
      if (name && value !== undefined) globalArgs[name.trim()] = value.trim();
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { stages, globalArgs };
}

/** The target's stage and every stage it is built FROM, nearest first. */
function chain(stages: Stage[], target: string): Stage[] {
  const found: Stage[] = [];
  for (let stage = stages.find((item) => item.name === target); stage && !found.includes(stage); stage = stages.find((item) => item.name === stage!.base)) found.push(stage);
  return found;
}

const last = (stages: Stage[], keyword: string) => {
  for (const stage of stages) {
    const instruction = [...stage.instructions].reverse().find((item) => item.getKeyword() === keyword);
    if (instruction) return instruction.getArgumentsContent() ?? '';
  }
  return undefined;
};

export function checkDockerfile(file: string, text: string, checksums: string): Finding[] {
  const findings: Finding[] = dockerfileUtils.validate(text).map((diagnostic) => finding(file, `line ${diagnostic.range.start.line + 1}: ${diagnostic.message}`));
  const { stages, globalArgs } = stagesOf(text);
  const resolve = (value: string) => value.replace(/\$\{?([A-Z_]+)\}?/g, (_, name: string) => globalArgs[name] ?? `<${name} unset>`);

  for (const stage of stages) {
    if (stages.some((other) => other.name === stage.base)) continue;
    const image = resolve(stage.base);
    const tag = image.includes('@') ? 'digest' : image.split(':')[1];
    if (!tag || tag === 'latest' || image.includes('<')) findings.push(finding(file, `stage ${stage.name ?? '?'}: base image ${image} is not pinned to a version`));
  }
  if (!globalArgs.NODE_VERSION?.startsWith('24.')) findings.push(finding(file, `NODE_VERSION ${globalArgs.NODE_VERSION ?? '(unset)'} is not Node 24 LTS`));
  if (!GLIBC_238_RELEASES.includes(globalArgs.DEBIAN_RELEASE ?? '')) findings.push(finding(file, `DEBIAN_RELEASE ${globalArgs.DEBIAN_RELEASE ?? '(unset)'} has no glibc 2.38, which the native uWebSockets.js build needs`));

  for (const target of APP_TARGETS) {
    const lineage = chain(stages, target);
    if (lineage.length === 0) { findings.push(finding(file, `no target ${target}`)); continue; }
    const user = last(lineage, 'USER');
    if (!user || /^(root|0)(:|$)/.test(user.trim())) findings.push(finding(file, `${target}: must run as a non-root USER`));
    if (!/tini/.test(last(lineage, 'ENTRYPOINT') ?? '')) findings.push(finding(file, `${target}: tini (or an equivalent init) must be PID 1`));
    const healthcheck = last(lineage, 'HEALTHCHECK');
    if (!healthcheck || (healthcheck.trim() === 'NONE' && target !== 'admin')) findings.push(finding(file, `${target}: needs a HEALTHCHECK`));
    if (!last(lineage, 'CMD')) findings.push(finding(file, `${target}: needs a CMD`));
  }

  const copiesUws = chain(stages, 'data-plane').some((stage) => stage.instructions.some((item) => item.getKeyword() === 'COPY' && /--from=uws\b/.test(item.getTextContent())));
  if (!copiesUws) findings.push(finding(file, 'data-plane: does not install the native uWebSockets.js build (COPY --from=uws)'));
  const uws = stages.find((stage) => stage.name === 'uws');
  if (!uws?.instructions.some((item) => /sha256sum --check/.test(item.getArgumentsContent() ?? ''))) findings.push(finding(file, 'uws: the download is not checked against uws-checksums.sha256'));
  for (const name of ['.tgz', 'uws_linux_x64_137.node', 'uws_linux_arm64_137.node']) {
    if (!checksums.split('\n').some((line) => /^[0-9a-f]{64} {2}\S+$/.test(line) && line.endsWith(name))) findings.push(finding(file, `uws-checksums.sha256 has no checksum for ${name}`));
  }
  return findings;
}
