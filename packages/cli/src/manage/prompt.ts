/** Reading a secret: from standard input when it is piped, else a prompt that does not echo. */
import { readFileSync } from 'node:fs';
import { CliError } from './errors.ts';

export async function readSecret(question: string, fromStdin: boolean): Promise<string> {
  if (fromStdin || !process.stdin.isTTY) {
    const text = readFileSync(0, 'utf8').split(/\r?\n/)[0] ?? '';
    if (!text) throw new CliError('Nothing on standard input: pipe the password in, or run in a terminal to be asked');
    return text;
  }
  return promptHidden(question);
}

function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') return finish();
        if (char === '\u0003') return finish(new CliError('Cancelled', 130));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else value += char;
      }
    };
    stdin.on('data', onData);
  });
}
