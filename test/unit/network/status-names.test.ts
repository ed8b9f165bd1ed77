import { currentStateName, sessionStatusName, statusName } from '../../../src/resolvers/network/status-names';

test.each([
  [statusName, 300, 'PROVISIONED'],
  [statusName, 100, 'NEW'],
  [statusName, 600, 'UPDATING'],
  [statusName, 650, null],
  [statusName, null, null],
  [currentStateName, 300, 'ONLINE'],
  [currentStateName, 100, 'REGISTERING'],
  [sessionStatusName, 200, 'ACTIVE'],
  [sessionStatusName, 300, null],
] as const)('%#: %s -> %s', (name, code, expected) => {
  expect(name(code)).toBe(expected);
});
