/**
 * `INTROSPECTION=off`: the validation rules that refuse `__schema` and `__type` (graphql's
 * NoSchemaIntrospectionCustomRule), so nobody reads the whole schema through the gateway.
 * `__typename` stays allowed: clients need it to tell a union's members apart. The rules belong in
 * the validation of every door; with them the IDE cannot load the schema.
 */
import { NoSchemaIntrospectionCustomRule, type ValidationRule } from 'graphql';

/** The validation rules to add: none while introspection is on. */
export function introspectionRules(introspection: boolean): ValidationRule[] {
  return introspection ? [] : [NoSchemaIntrospectionCustomRule];
}
