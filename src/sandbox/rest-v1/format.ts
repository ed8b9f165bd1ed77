/** rest/v1 wire formats: timestamps with millisecond precision and the `+0000` offset. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace('Z', '+0000');
}

/** The platform's numeric life-cycle statuses. */
export const STATUS = {
  NEW: 100,
  PROVISIONING: 200,
  PROVISIONED: 300,
  REGISTERED: 400,
  ERROR: 500,
  UPDATING: 600,
  REPLACING: 700,
  DELETING: 800,
  DELETED: 900,
} as const;

/** The platform's endpoint `currentState` values. */
export const CURRENT_STATE = { REGISTERING: 100, OFFLINE: 200, ONLINE: 300 } as const;
