// Files the service keeps in its data directory on first start: the key that encrypts stored secrets
// and, when TLS is on without a certificate, a self-signed certificate for this machine.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { Config } from './config.js';
import { randomHex } from './identity/tokens.js';

export interface TlsMaterial {
  key: string;
  cert: string;
  /** The certificate file clients should trust (`curl --cacert`). */
  certFile: string;
  generated: boolean;
}

export async function loadSecretKey(config: Config): Promise<Buffer> {
  if (config.secretKeyHex) return Buffer.from(config.secretKeyHex, 'hex');
  const file = path.join(config.dataDir, 'secret.key');
  if (!existsSync(file)) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(file, `${randomHex(32)}\n`, { mode: 0o600, flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error; // another instance wrote it first: use theirs
    });
  }
  const hex = (await readFile(file, 'utf8')).trim();
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${file} does not hold 64 hexadecimal characters`);
  return Buffer.from(hex, 'hex');
}

/**
 * The certificate the server presents, which clients are told to trust (`curl --cacert`): the one
 * configured, or the one generated into the data directory; none when TLS is off.
 */
export function certificateFile(config: Config): string | undefined {
  if (!config.tls.enabled) return undefined;
  if (config.tls.certFile && config.tls.keyFile) return path.resolve(config.tls.certFile);
  return path.resolve(config.dataDir, 'tls', 'cert.pem');
}

export async function loadTls(config: Config): Promise<TlsMaterial | undefined> {
  const certFile = certificateFile(config);
  if (!certFile) return undefined;
  if (config.tls.certFile && config.tls.keyFile) {
    const [key, cert] = await Promise.all([readFile(config.tls.keyFile, 'utf8'), readFile(config.tls.certFile, 'utf8')]);
    return { key, cert, certFile, generated: false };
  }
  const dir = path.dirname(certFile);
  const keyFile = path.join(dir, 'key.pem');
  if (existsSync(certFile) && existsSync(keyFile)) {
    const [key, cert] = await Promise.all([readFile(keyFile, 'utf8'), readFile(certFile, 'utf8')]);
    return { key, cert, certFile, generated: false };
  }
  const pems = await generateSelfSigned();
  await mkdir(dir, { recursive: true });
  await writeFile(keyFile, pems.private, { mode: 0o600 });
  await writeFile(certFile, pems.cert);
  return { key: pems.private, cert: pems.cert, certFile, generated: true };
}

/** A certificate for localhost, 127.0.0.1 and ::1, valid for 825 days (the longest clients accept). */
export async function generateSelfSigned() {
  const notAfterDate = new Date(Date.now() + 825 * 24 * 3_600_000);
  return generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
}
