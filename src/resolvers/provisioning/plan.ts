/**
 * `provisionAppWan`'s plan: the input checked whole (before any upstream call), then turned into
 * the steps of the network-management API's usual creation order: network → hosted gateway (GW) → service → bridge
 * gateway (ZTGW) → client endpoints (ZTCL) → empty AppWAN → authorize endpoints → authorize services.
 */
import { BadInputError } from '../../errors/codes';
import type { ProvisionAppWanInput, ProvisionEndpointInput } from '../../generated/graphql';
import type { JsonObject } from '../../core/parse';
import { createBody, inputSpecs } from '../network/change-input';
import type { PlannedStep, StepAction, StepTask } from '../../provisioning/records';

/** Most clients one provisioning creates: each is a step that waits for its status. */
export const MAX_CLIENTS = 50;

const KIND: Record<StepTask, string> = {
  network: 'NETWORK',
  hostedGateway: 'ENDPOINT',
  service: 'SERVICE',
  bridgeGateway: 'ENDPOINT',
  client: 'ENDPOINT',
  appWan: 'APP_WAN',
  authorizeEndpoints: 'APP_WAN',
  authorizeServices: 'APP_WAN',
};

function step(index: number, action: StepAction, description: string, resourceName: string | null): PlannedStep {
  return {
    action,
    record: {
      index,
      task: action.task,
      description,
      state: 'PENDING',
      resourceKind: KIND[action.task],
      resourceId: null,
      resourceName,
      created: false,
      changeSent: false,
      statusName: null,
      businessKey: null,
      error: null,
      rollback: 'NONE',
      rollbackError: null,
      startedAt: null,
      finishedAt: null,
    },
  };
}

// The service's terminator is the hosted gateway created by an earlier step, so the input has none.
const { exclusive: _terminator, ...serviceWithoutTerminator } = inputSpecs.service;

function endpointBody(input: ProvisionEndpointInput, endpointType: string, field: string): JsonObject {
  return createBody({ ...input, endpointType }, inputSpecs.endpoint, field);
}

/** Checks the whole input (BadInputError naming the field) and lists the steps. */
export function planProvisioning(input: ProvisionAppWanInput): PlannedStep[] {
  const hasId = input.networkId !== undefined && input.networkId !== null;
  const hasNew = input.network !== undefined && input.network !== null;
  if (hasId === hasNew) throw new BadInputError('input.networkId', 'input.networkId or input.network: exactly one must be given');
  if (input.clients.length > MAX_CLIENTS) throw new BadInputError('input.clients', `input.clients may hold at most ${MAX_CLIENTS} endpoints`);

  const names = new Map<string, string>();
  const endpoint = (e: ProvisionEndpointInput, type: string, field: string): JsonObject => {
    const body = endpointBody(e, type, field);
    const key = e.name.trim().toLowerCase();
    const earlier = names.get(key);
    if (earlier !== undefined) throw new BadInputError(`${field}.name`, `${field}.name repeats ${earlier}.name (endpoint names are unique in a network)`);
    names.set(key, field);
    return body;
  };

  const network: StepAction = input.network
    ? { task: 'network', body: createBody(input.network, inputSpecs.network, 'input.network') }
    : { task: 'network', existingId: input.networkId ?? '' };
  const gateway = endpoint(input.hostedGateway, 'GW', 'input.hostedGateway');
  const service = createBody(input.service, serviceWithoutTerminator, 'input.service');
  const bridge = endpoint(input.bridgeGateway, 'ZTGW', 'input.bridgeGateway');
  const clients = input.clients.map((c, i) => endpoint(c, 'ZTCL', `input.clients[${i}]`));
  const appWan = createBody({ name: input.appWanName }, inputSpecs.appWan, 'input.appWanName');

  const steps: PlannedStep[] = [];
  const add = (action: StepAction, description: string, name: string | null): void => {
    steps.push(step(steps.length + 1, action, description, name));
  };
  add(network, network.existingId !== undefined ? 'Use the existing network' : 'Create the network and wait until it is provisioned', input.network?.name ?? null);
  add({ task: 'hostedGateway', body: gateway }, 'Create the hosted gateway (GW) and wait for it', input.hostedGateway.name);
  add({ task: 'service', body: service }, 'Create the service terminated by the hosted gateway and wait for it', input.service.name);
  add({ task: 'bridgeGateway', body: bridge }, 'Create the bridge gateway (ZTGW) and wait for it', input.bridgeGateway.name);
  input.clients.forEach((c, i) => add({ task: 'client', body: clients[i] ?? {} }, 'Create a client endpoint (ZTCL) and wait for it', c.name));
  add({ task: 'appWan', body: appWan }, 'Create the empty AppWAN', input.appWanName);
  add({ task: 'authorizeEndpoints' }, 'Authorize the bridge gateway and the clients in the AppWAN, and wait for the change', input.appWanName);
  add({ task: 'authorizeServices' }, 'Authorize the service in the AppWAN, and wait for the change', input.appWanName);
  return steps;
}
