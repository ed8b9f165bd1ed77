/**
 * Caller authentication for contract routes: bearer JWTs signed by the sandbox (identity in
 * `sub`) and basic credentials for the search service. Failures throw 401 before any handler.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { TokenService } from './tokens';
import { HttpError, type Caller } from './types';

export interface BasicCredentials {
  username: string;
  password: string;
}

/** 401 answers for basic routes carry this challenge. */
export class BasicChallengeError extends HttpError {
  constructor(message: string) {
    super(401, message);
    this.name = 'BasicChallengeError';
  }
}

export function bearerCaller(headers: IncomingHttpHeaders, tokens: TokenService): Caller {
  const header = headers.authorization;
  if (header === undefined || header === '') throw new HttpError(401, 'missing bearer token');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null || match[1] === undefined) throw new HttpError(401, 'malformed Authorization header: expected "Bearer <token>"');
  const claims = tokens.verify(match[1]);
  if (claims === null) throw new HttpError(401, 'invalid or expired token');
  const sub = claims['sub'];
  if (typeof sub !== 'string' || sub === '') throw new HttpError(401, 'token has no subject');
  return { identityId: sub, claims };
}

export function checkBasic(headers: IncomingHttpHeaders, expected: BasicCredentials): void {
  const header = headers.authorization;
  const match = header === undefined ? null : /^Basic\s+(\S+)\s*$/i.exec(header);
  if (match === null || match[1] === undefined) throw new BasicChallengeError('basic credentials required');
  const given = Buffer.from(Buffer.from(match[1], 'base64').toString('utf8'));
  const wanted = Buffer.from(`${expected.username}:${expected.password}`);
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) {
    throw new BasicChallengeError('bad credentials');
  }
}
