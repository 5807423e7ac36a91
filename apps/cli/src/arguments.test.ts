import { describe, expect, it } from 'vitest';
import { parseArguments } from './arguments.js';
import { UsageError } from './cli-errors.js';
import { COMMANDS } from './commands/index.js';

const parse = (...argv: string[]) => parseArguments(argv, COMMANDS);

describe('parseArguments', () => {
  it('finds the command around global flags in either form', () => {
    expect(parse('credits').command?.name).toBe('credits');
    const parsed = parse('--base-url', 'http://x:1', 'credits', '--json');
    expect(parsed.command?.name).toBe('credits');
    expect(parsed.values).toMatchObject({ 'base-url': 'http://x:1', json: true });
    expect(parse('--org=personal', 'usage', '--days', '7').values).toMatchObject({ org: 'personal', days: '7' });
  });

  it('takes a second word for sessions too', () => {
    expect(parse('sessions', 'list', '--json').command?.name).toBe('sessions list');
    const revoke = parse('sessions', 'revoke', 'abc');
    expect(revoke.command?.name).toBe('sessions revoke');
    expect(revoke.positionals).toEqual(['abc']);
    expect(parse('sessions').command).toBeUndefined();
    expect(parse('logout', '--all').values).toMatchObject({ all: true });
  });


  it('takes a second word for billing', () => {
    expect(parse('billing', 'methods', '--json').command?.name).toBe('billing methods');
    expect(parse('billing', 'topup', '--amount', '25', '--card', 'pm_1').values).toMatchObject({ amount: '25', card: 'pm_1' });
    expect(parse('billing').command).toBeUndefined();
  });


  it('takes a second word only for keys, sessions and billing', () => {
    expect(parse('keys', 'list', '--json').command?.name).toBe('keys list');
    expect(parse('keys', 'create', '--name', 'ci', '--save').values).toMatchObject({ name: 'ci', save: true });
    const revoke = parse('keys', 'revoke', 'abc');
    expect(revoke.command?.name).toBe('keys revoke');
    expect(revoke.positionals).toEqual(['abc']);
    expect(parse('keys').command).toBeUndefined();
    expect(parse('keys', 'rotate').unknown).toBe('keys rotate');
    // A flag value that looks like a command stays a value.
    expect(parse('say', 'keys', '--model', 'local/espeak-ng').positionals).toEqual(['keys']);
  });

  it('reads say text, short -o and repeated filters', () => {
    const say = parse('say', 'Hello', 'world', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', 'out.mp3');
    expect(say.positionals).toEqual(['Hello', 'world']);
    expect(say.values).toMatchObject({ model: 'local/espeak-ng', voice: 'en-us', output: 'out.mp3' });
    expect(parse('voices', '--provider', 'local', '--provider', 'openai').values.provider).toEqual(['local', 'openai']);
  });

  it('refuses unknown flags, missing values and wrong argument counts with a usage error', () => {
    const refuse = (argv: string[], message: RegExp, command?: string) => {
      try {
        parse(...argv);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        expect((error as UsageError).message).toMatch(message);
        expect((error as UsageError).command).toBe(command);
        expect((error as UsageError).exitCode).toBe(2);
      }
    };
    refuse(['credits', '--bogus'], /Unknown option '--bogus'/, 'credits');
    refuse(['say', 'hi', '--model'], /--model/, 'say');
    refuse(['say', '--model', 'x'], /missing TEXT/, 'say');
    refuse(['keys', 'revoke'], /missing ID/, 'keys revoke');
    refuse(['status', 'extra'], /unexpected argument "extra"/, 'status');
    refuse(['credits', '--model', 'x'], /Unknown option '--model'/, 'credits');
  });

  it('lets --help through without the required arguments', () => {
    expect(parse('keys', 'revoke', '--help').values.help).toBe(true);
    expect(parse('say', '-h').values.help).toBe(true);
  });
});
