/** What a provisioning is made of (the mappers of schema/provisioning.graphql). */

export type StepTask = 'network' | 'hostedGateway' | 'service' | 'bridgeGateway' | 'client' | 'appWan' | 'authorizeEndpoints' | 'authorizeServices';

export interface ProvisioningErrorRecord {
  code: string;
  message: string;
  outcomeUnknown: boolean;
}

export interface StepRecord {
  index: number;
  task: StepTask;
  description: string;
  state: 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';
  resourceKind: string;
  resourceId: string | null;
  resourceName: string | null;
  created: boolean;
  statusName: string | null;
  businessKey: string | null;
  error: ProvisioningErrorRecord | null;
  rollback: 'NONE' | 'PENDING' | 'DELETED' | 'FAILED';
  rollbackError: ProvisioningErrorRecord | null;
  /** RFC 3339 (UTC). */
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ProvisioningRecord {
  id: string;
  state: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  steps: StepRecord[];
  networkId: string | null;
  appWanId: string | null;
  error: ProvisioningErrorRecord | null;
  rollbackOnFailure: boolean;
  startedAt: string;
  finishedAt: string | null;
}
