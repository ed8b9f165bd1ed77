/** A request's "stop now" lives in src/core (every layer shares it); kept here for the upstream's imports. */
export { Cancellation, onAbort, type CancelSignal } from '../core/cancellation';
