/**
 * A running provisioning's token, kept in Redis only while the run lasts so that another replica
 * can resume it: encrypted with AES-256-GCM under `FLEET_TOKEN_KEY`, bound to the run's id (as
 * associated data: a sealed token moved to another run does not open). Redis never holds a token
 * in clear; without the key, none is kept at all.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export function sealToken(key: Buffer, token: string, runId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(runId));
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join('.');
}

/** The token, or null when it does not open (another key, another run, altered). */
export function openToken(key: Buffer, sealed: string, runId: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(runId));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
