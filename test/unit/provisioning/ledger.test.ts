/**
 * `ProvisioningLedger` when it only tracks runs reserved elsewhere (a fleet's replica while Redis
 * is up): a record past its time goes when another run finishes, not only on a reservation, so
 * the ledger does not grow with every run the replica ever carried.
 */
import { ProvisioningLedger } from '../../../src/provisioning/limits';

it('drops the finished records past their time when a run finishes', () => {
  const dropped: string[] = [];
  const ledger = new ProvisioningLedger({ maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 100, retainMs: 1000 }, (id) => dropped.push(id));
  ledger.track('alice', 'a1');
  ledger.track('bob', 'b1');
  ledger.track('bob', 'b2');
  ledger.finish('a1', 0);
  ledger.finish('b1', 500);
  expect(dropped).toEqual([]);
  ledger.finish('b2', 1200);
  expect(dropped).toEqual(['a1']);
  expect(ledger.running()).toBe(0);
});
