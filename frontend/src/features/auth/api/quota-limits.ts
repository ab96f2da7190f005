import type { NumberLimit } from '../../../components/form';

interface IntegerSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
}

export interface OpenApiDocument {
  components?: { schemas?: Record<string, { properties?: Record<string, IntegerSchema> }> };
}

/**
 * quotaLimitsFromOpenApi reads the range of each quota from the body of PUT api/class/quotas as
 * the backend documents it (ClassQuotas: from 0 to the ceiling this server allows), so that the
 * form refuses exactly what the API would. A document without it is an error that says so.
 */
export function quotaLimitsFromOpenApi(document: OpenApiDocument): Record<string, NumberLimit> {
  const properties = document.components?.schemas?.ClassQuotas?.properties;
  if (!properties) throw new Error("the backend's OpenAPI document has no ClassQuotas (is the backend older than this page?)");
  return Object.fromEntries(
    Object.entries(properties).map(([name, { type, minimum, maximum }]) => [name, { min: minimum, max: maximum, integer: type === 'integer' }]),
  );
}
