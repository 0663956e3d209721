// The `svc` command run in-process: main() with a given environment, its output kept rather than printed.
// The same code the binary runs (src/cli.ts only calls main), without a process start per step.
import { main } from '../../src/cli/main.js';
import { capture } from '../../src/cli/output.js';

export interface SvcResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function svcInProcess(args: string[], env: Record<string, string | undefined>): Promise<SvcResult> {
  const run = await capture(() => main(args, env));
  return { code: run.exitCode, stdout: run.stdout, stderr: run.stderr };
}
