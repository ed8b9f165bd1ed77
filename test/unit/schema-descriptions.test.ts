/**
 * The IDE is the documentation: every type, field, argument and enum value of the schema has a
 * description, and no description names a document the repository does not have.
 */
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from 'graphql';
import { buildSchema } from '../../src/server/schema';
import { citations, DESCRIPTION_ONLY, EXAMPLES, missingDocuments, OUTSIDE_DOCUMENTS, trackedFiles } from '../helpers/outside-references';

/** Every described (or describable) element of the schema: its coordinate and its description. */
function descriptions(schema: GraphQLSchema): Array<[coordinate: string, description: string | null | undefined]> {
  const all: Array<[string, string | null | undefined]> = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    all.push([type.name, type.description]);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        all.push([`${type.name}.${field.name}`, field.description]);
        for (const arg of 'args' in field ? field.args : []) all.push([`${type.name}.${field.name}(${arg.name})`, arg.description]);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) all.push([`${type.name}.${value.name}`, value.description]);
  }
  for (const directive of schema.getDirectives()) {
    if (['include', 'skip', 'deprecated', 'specifiedBy', 'oneOf'].includes(directive.name)) continue;
    all.push([`@${directive.name}`, directive.description]);
    for (const arg of directive.args) all.push([`@${directive.name}(${arg.name})`, arg.description]);
  }
  return all;
}

const schema = buildSchema();

it('describes every type, field, argument and enum value', () => {
  const missing = descriptions(schema)
    .filter(([, description]) => !description)
    .map(([coordinate]) => coordinate);
  expect(missing).toEqual([]);
});

it('names no document the repository does not have, and no specification by its words', () => {
  const missing = missingDocuments(new Set(trackedFiles()));
  const patterns = [...OUTSIDE_DOCUMENTS, ...DESCRIPTION_ONLY];
  const offending = descriptions(schema).flatMap(([coordinate, description]) =>
    [...citations(description ?? '', patterns), ...missing('schema/', description ?? '')].map((hit) => `${coordinate}: ${hit}`),
  );
  expect(offending).toEqual([]);
});

it.each(EXAMPLES.descriptionCited)('the description check catches %j', (text) => {
  expect(citations(text, [...OUTSIDE_DOCUMENTS, ...DESCRIPTION_ONLY])).not.toEqual([]);
});
