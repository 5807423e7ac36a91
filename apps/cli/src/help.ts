// The text of `vr --help` and `vr <command> --help`.
import type { Command } from './command.js';
import { GLOBAL_HELP } from './arguments.js';

export function mainHelp(commands: Command[]): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    'vr: the Voice Router command line',
    '',
    'Usage: vr <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Global options:',
    ...GLOBAL_HELP.map((line) => `  ${line}`),
    '',
    'Environment: VR_BASE_URL, VR_API_KEY, VR_ORGANIZATION, VR_CONFIG_DIR (else $XDG_CONFIG_HOME/voice-router or ~/.config/voice-router).',
    'Run `vr <command> --help` for the options of one command.',
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  return [
    `${command.summary}.`,
    '',
    `Usage: vr ${command.synopsis}`,
    '',
    'Options:',
    ...(command.help ?? []).map((line) => `  ${line}`),
    ...GLOBAL_HELP.map((line) => `  ${line}`),
    '',
  ].join('\n');
}
