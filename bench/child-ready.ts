// A benchmark's child server announces itself with one JSON line on stdout once it listens; later
// output is drained and dropped, so that a chatty child never blocks on a full pipe.
import type { ChildProcess } from 'node:child_process';

export function firstJsonLine<T>(child: ChildProcess, describe: () => string = () => ''): Promise<T> {
  return new Promise((resolve, reject) => {
    let buffered: string | undefined = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      if (buffered === undefined) return;
      buffered += chunk.toString();
      const line = buffered.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        buffered = undefined;
        resolve(JSON.parse(line) as T);
      }
    });
    child.once('exit', (code) => reject(new Error(`child server exited with ${code} ${describe()}`)));
  });
}
