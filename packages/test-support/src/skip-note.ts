// Says plainly, once per reason, which suites did not run on this machine and why.
const announced = new Set<string>();

export function announceSkip(suite: string, reason: string): void {
  const line = `[skipped] ${suite}: ${reason}`;
  if (announced.has(line)) return;
  announced.add(line);
  process.stderr.write(`${line}\n`);
}
