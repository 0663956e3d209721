// An `svc` command that acts on the metadata store, as data: what the shell asked for, in a form that can
// be run here or sent to the running server over its admin channel and run there the same way.
import { z } from 'zod';

const options = z.record(z.string(), z.union([z.string(), z.boolean()]));
// Model files travel with the request: the command reads them where it runs, with its own working
// directory and permissions, and `dir` is kept only to name them in diagnostics as the user wrote it.
const modelFiles = z.array(z.object({ path: z.string(), content: z.string() }));

export const storeRequestSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('migrate') }),
  z.object({ command: z.literal('users'), sub: z.enum(['create', 'list', 'set-role', 'remove']), values: options }),
  z.object({ command: z.literal('workspaces'), sub: z.enum(['list', 'set-plan']), values: options }),
  z.object({ command: z.literal('keys'), sub: z.enum(['create', 'list', 'revoke']), values: options }),
  z.object({ command: z.literal('model'), sub: z.enum(['deploy', 'validate']), dir: z.string(), files: modelFiles, values: options }),
]);

export type StoreRequest = z.infer<typeof storeRequestSchema>;

/** e.g. `svc users create`: names the command in the store's lock and in the server's log, never with option values. */
export function requestName(request: StoreRequest): string {
  return request.command === 'migrate' ? 'svc migrate' : `svc ${request.command} ${request.sub}`;
}
