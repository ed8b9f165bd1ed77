/**
 * Checks of a document's text before it is parsed: its size in bytes, then its token count.
 * Parsing a 1 MB document of aliases takes seconds of one core and builds a large AST; counting
 * tokens with graphql-js's own lexer stops at the first token past the maximum.
 */
import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';
import { CostTooExpensiveError } from '../errors/codes';

export interface DocumentLimits {
  maxBytes: number;
  maxTokens: number;
}

/** Throws CostTooExpensiveError (limit `bytes` or `tokens`) when the document is over a maximum. */
export function checkDocument(query: string, limits: DocumentLimits): void {
  const bytes = Buffer.byteLength(query, 'utf8');
  if (bytes > limits.maxBytes) {
    throw new CostTooExpensiveError('bytes', bytes, limits.maxBytes, `the document is ${bytes} bytes, over the maximum of ${limits.maxBytes} (MAX_DOCUMENT_BYTES)`);
  }
  // Counted once per document: the pipeline keeps each document's verdict (src/pipeline/prepare.ts).
  const tokens = countTokens(query, limits.maxTokens + 1);
  if (tokens > limits.maxTokens) {
    throw new CostTooExpensiveError('tokens', tokens, limits.maxTokens, `the document has more than ${limits.maxTokens} tokens (MAX_DOCUMENT_TOKENS)`);
  }
}

/** Tokens of `query` (comments excluded, as graphql-js's parser counts them), stopping at `stopAt`. */
export function countTokens(query: string, stopAt: number): number {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF && count < stopAt; token = lexer.advance()) count += 1;
  } catch (error) {
    // A lexing error is the parser's to report (a syntax error with its location).
    if (!(error instanceof GraphQLError)) throw error;
  }
  return count;
}
