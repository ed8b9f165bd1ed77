/**
 * The IDE is the documentation: every type, field, argument and enum value of the schema has a
 * description (DESIGN.md "Schema conventions").
 */
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType } from 'graphql';
import { buildSchema } from '../../src/server/schema';

it('describes every type, field, argument and enum value', () => {
  const schema = buildSchema();
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    if (!type.description) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (!field.description) missing.push(`${type.name}.${field.name}`);
        for (const arg of 'args' in field ? field.args : []) {
          if (!arg.description) missing.push(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    if (isEnumType(type)) {
      for (const value of type.getValues()) if (!value.description) missing.push(`${type.name}.${value.name}`);
    }
  }
  expect(missing).toEqual([]);
});
