/**
 * A tool's input for one operation: one property per path, query, header and cookie
 * parameter (named as the parameter; `<in>_<name>` when two locations share a name), and
 * `body` for the JSON request body. Path parameters are required, others as the document
 * says; unknown properties are refused so a misspelt parameter is reported, not dropped.
 */
import type { ApiOperation, ApiParameter, JsonSchema } from "./api-description.js";

export interface ParameterBinding {
  parameter: ApiParameter;
  /** The property of the tool's input that carries it. */
  property: string;
}

export interface OperationInput {
  schema: JsonSchema;
  bindings: ParameterBinding[];
  /** The property carrying the request body, when the operation has one. */
  bodyProperty: string | undefined;
}

export const BODY_PROPERTY = "body";

export function operationInput(operation: ApiOperation): OperationInput {
  const taken = new Map<string, number>();
  for (const parameter of operation.parameters)
    taken.set(parameter.name, (taken.get(parameter.name) ?? 0) + 1);
  if (operation.body) taken.set(BODY_PROPERTY, (taken.get(BODY_PROPERTY) ?? 0) + 1);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const bindings = operation.parameters.map((parameter) => {
    const property =
      (taken.get(parameter.name) ?? 0) > 1 ? `${parameter.in}_${parameter.name}` : parameter.name;
    properties[property] = describe(parameter.schema, parameter.description);
    if (parameter.required) required.push(property);
    return { parameter, property };
  });
  let bodyProperty: string | undefined;
  if (operation.body) {
    bodyProperty = BODY_PROPERTY;
    properties[bodyProperty] = describe(
      operation.body.schema,
      operation.body.description ?? "The JSON request body",
    );
    if (operation.body.required) required.push(bodyProperty);
  }
  const schema: JsonSchema = { type: "object", properties, additionalProperties: false };
  if (required.length) schema.required = required;
  return { schema, bindings, bodyProperty };
}

function describe(schema: JsonSchema, description: string | undefined): JsonSchema {
  return description && schema.description === undefined ? { ...schema, description } : schema;
}
