import { createInterface } from 'node:readline';

export interface Streams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export interface LineReader {
  /** Shows the prompt and waits for a line; undefined at the end of the input (or after Ctrl-C / Ctrl-D). */
  ask(prompt: string): Promise<string | undefined>;
  close(): void;
}

const isTTY = (stream: unknown) => Boolean((stream as { isTTY?: boolean }).isTTY);

/**
 * Lines from a stream, one prompt at a time. On a terminal, readline edits the line and shows the
 * prompt; from a pipe or a test stream, the prompt and the line read are written out so the
 * transcript reads like a session.
 */
export function lineReader({ input, output }: Streams, onInterrupt?: () => void): LineReader {
  const terminal = isTTY(input) && isTTY(output);
  const rl = createInterface({ input, ...(terminal ? { output } : {}), terminal, crlfDelay: Infinity });
  let closed = false;
  let interrupted = false;
  rl.on('close', () => {
    closed = true;
  });
  // Ctrl-C ends the session, a request under way too (`onInterrupt`), not only the prompt.
  rl.on('SIGINT', () => {
    interrupted = true;
    onInterrupt?.();
    rl.close();
  });
  const lines = rl[Symbol.asyncIterator]();
  return {
    async ask(prompt) {
      // Lines piped in are still read after the input ended; a terminal closed takes no prompt.
      if (interrupted || (terminal && closed)) return undefined;
      if (terminal) {
        rl.setPrompt(prompt);
        rl.prompt();
      } else {
        output.write(prompt);
      }
      const next = await lines.next();
      if (next.done) {
        if (!terminal) output.write('\n');
        return undefined;
      }
      if (!terminal) output.write(`${next.value}\n`);
      return next.value;
    },
    close() {
      rl.close();
    },
  };
}

/** A writer of whole lines. */
export const printer =
  (output: NodeJS.WritableStream) =>
  (text = '') => {
    output.write(`${text}\n`);
  };

/** A reader that went away (`| head`) ends the program quietly, without a stack trace. */
export function quietPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}
