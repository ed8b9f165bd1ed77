/** The message of the ConfigError loadConfig throws for `env`; fails when it accepts it. */
import { ConfigError, loadConfig } from '../../src/config';

export function configError(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}
