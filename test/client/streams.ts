import { PassThrough } from 'node:stream';

/** Input that holds the given lines, then ends; output collected as text: a session at the prompt. */
export function streams(lines: string[] = []) {
  const input = new PassThrough();
  input.end(lines.map((line) => `${line}\n`).join(''));
  const output = new PassThrough();
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  return { input, output, text: () => text };
}
