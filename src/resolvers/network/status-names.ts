/** Names of rest/v1's numeric codes, as the platform defines them; null for a code the gateway does not know. */
const LIFE_CYCLE: Readonly<Record<number, string>> = {
  100: 'NEW',
  200: 'PROVISIONING',
  300: 'PROVISIONED',
  400: 'REGISTERED',
  500: 'ERROR',
  600: 'UPDATING',
  700: 'REPLACING',
  800: 'DELETING',
  900: 'DELETED',
};
const CURRENT_STATE: Readonly<Record<number, string>> = { 100: 'REGISTERING', 200: 'OFFLINE', 300: 'ONLINE' };
const SESSION_STATUS: Readonly<Record<number, string>> = { 100: 'INACTIVE', 200: 'ACTIVE' };

const lookup = (table: Readonly<Record<number, string>>) => (code: number | null): string | null =>
  code === null ? null : (table[code] ?? null);

export const statusName = lookup(LIFE_CYCLE);
export const currentStateName = lookup(CURRENT_STATE);
export const sessionStatusName = lookup(SESSION_STATUS);
