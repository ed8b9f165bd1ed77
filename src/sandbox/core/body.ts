/**
 * Reads a request body and classifies it by media type: JSON is parsed (malformed → 400),
 * everything else (text/csv, YAML, unknown types) is kept as text for the handler.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './types';

/** Bodies above this size get 413; the largest legitimate upload is a CSV of a few thousand rows. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export interface ParsedBody {
  rawBody: string;
  json: unknown;
  contentType: string;
}

export function readRaw(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) reject(new HttpError(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

export function isJsonType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

export function parseBody(rawBody: string, contentTypeHeader: string | undefined): ParsedBody {
  const contentType = mediaType(contentTypeHeader);
  let json: unknown = undefined;
  if (isJsonType(contentType) && rawBody.trim() !== '') {
    try {
      json = JSON.parse(rawBody) as unknown;
    } catch (err) {
      const reason = err instanceof Error ? err.message : 'invalid JSON';
      throw new HttpError(400, `malformed JSON body: ${reason}`);
    }
  }
  return { rawBody, json, contentType };
}
