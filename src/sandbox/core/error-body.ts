/**
 * Error bodies of the sandbox: the Spring-style shape the platform answers,
 * `{ timestamp, status, error, message, path }`, for every non-2xx answer of every area.
 */
import { STATUS_CODES } from 'node:http';

export interface ErrorBody {
  timestamp: string;
  status: number;
  error: string;
  message: string;
  path: string;
}

export function errorBody(status: number, message: string, path: string): ErrorBody {
  return {
    timestamp: new Date().toISOString(),
    status,
    error: STATUS_CODES[status] ?? 'Error',
    message,
    path,
  };
}
