/** The poller registry: see README.md. */
export type { CallerPollers, PollErrorDecision, PollerRegistry, PollerSettings, PollKind, PollOwner, PollPace, PollState, PollStream, PollWire } from './types';
export { createPollerRegistry } from './registry';
export { createAcquisition, type Placed, type Placement } from './acquisition';
export { admissionRead } from './admission';
export { Subscribers, type SubscriberHooks } from './subscribers';
export { PollerLife } from './life';
export { createPollerMetrics, NO_POLLER_METRICS, type PollerMetrics, type PollOutcome } from './metrics';
export { classifyPollError, errorCodeOf, isTransient } from './errors';
export { mapStream, sharedPayload } from './map-stream';
export { PollAbandonedError, untilTerminal } from './wait';
