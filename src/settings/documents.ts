/** Which documents may run: automatic persisted queries and a trusted-documents manifest. */
import { ConfigError, area, choice, custom, int, onOff, type SettingsOf } from './setting';

export const APQ = onOff({
  name: 'APQ',
  meaning: 'automatic persisted queries: a client sends `extensions.persistedQuery.sha256Hash`, the document once, then the hash alone',
  fallback: true,
});

export const APQ_TTL_SECONDS = int({
  name: 'APQ_TTL_SECONDS',
  meaning: 'how long a persisted query registration lives after its last use, in this process or across the fleet (documents over `MAX_DOCUMENT_BYTES` are not kept)',
  min: 1,
  max: 30 * 86_400,
  fallback: 86_400,
});

export const APQ_SHARED_MAX_BYTES = int({
  name: 'APQ_SHARED_MAX_BYTES',
  meaning: 'bytes the shared persisted-query store may hold in Redis (documents and their bookkeeping; the least recently used go first). Only verified callers register there; anonymous registrations stay in their replica',
  min: 64 * 1024,
  max: 4 * 1024 * 1024 * 1024,
  fallback: 16 * 1024 * 1024,
  defaultText: '`16777216` (16 MiB)',
});

export const TRUSTED_DOCUMENTS = custom<string | undefined>({
  name: 'TRUSTED_DOCUMENTS',
  meaning: "path of a persisted-operations manifest (Apollo's `apollo-persisted-query-manifest` format, or `{ \"<sha256>\": \"<document>\" }`), read and checked at start-up",
  defaultText: 'unset: any document may run',
  rangeText: 'a file path',
  read: (env) => env.text('TRUSTED_DOCUMENTS'),
});

const only = choice({ name: 'TRUSTED_DOCUMENTS_ONLY', meaning: '', values: ['on', 'off'] as const, fallback: 'on' });

export const TRUSTED_DOCUMENTS_ONLY = custom<boolean>({
  name: 'TRUSTED_DOCUMENTS_ONLY',
  meaning:
    'with a manifest, only its operations run (by hash or by full document); any other gets `PERSISTED_QUERY_NOT_IN_LIST` before parsing, on every door. The IDE\'s free-form queries are refused too. Set without `TRUSTED_DOCUMENTS`: an error',
  defaultText: only.defaultText,
  rangeText: only.rangeText,
  read(env) {
    const value = only.read(env) === 'on';
    if (env.get(TRUSTED_DOCUMENTS) === undefined && env.text('TRUSTED_DOCUMENTS_ONLY') !== undefined) throw new ConfigError('TRUSTED_DOCUMENTS_ONLY needs TRUSTED_DOCUMENTS (the manifest path)');
    return value;
  },
});

export const DOCUMENTS = area({
  title: 'Persisted and trusted documents',
  settings: {
    apq: APQ,
    apqTtlSeconds: APQ_TTL_SECONDS,
    apqSharedMaxBytes: APQ_SHARED_MAX_BYTES,
    trustedDocuments: TRUSTED_DOCUMENTS,
    trustedDocumentsOnly: TRUSTED_DOCUMENTS_ONLY,
  },
});

export type DocumentSettings = SettingsOf<typeof DOCUMENTS>;
