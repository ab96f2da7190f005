import type { NumberLimit } from '../../../components/form';
import { request } from '../../../shared/api';

/**
 * The limits the console's number fields share with the backend, read from its OpenAPI document
 * (GET api/openapi.json, where the scenario and campaign schemas carry pydantic's ranges): one
 * source, so that the form refuses exactly what the API would.
 */
export interface Limits {
  sizeBytes: NumberLimit;
  flowCount: NumberLimit;
  tunnelK: NumberLimit;
  tunnelZ: NumberLimit;
  iterations: NumberLimit;
  parallel: NumberLimit;
  seed: NumberLimit;
}

interface JsonSchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
}

export interface OpenApiDocument {
  components?: { schemas?: Record<string, JsonSchema> };
}

/** getOpenApi reads the backend's OpenAPI document (GET api/openapi.json). */
export const getOpenApi = () => request<OpenApiDocument>('openapi.json');

/** limitOf reads a numeric property's range; an exclusive bound of an integer becomes the next whole number. */
function limitOf(property: JsonSchema): NumberLimit {
  const numeric = property.anyOf?.find((option) => option.type === 'integer' || option.type === 'number') ?? property;
  const integer = numeric.type === 'integer';
  const step = integer ? 1 : 0;
  const min = numeric.minimum ?? (numeric.exclusiveMinimum === undefined ? undefined : numeric.exclusiveMinimum + step);
  const max = numeric.maximum ?? (numeric.exclusiveMaximum === undefined ? undefined : numeric.exclusiveMaximum - step);
  return { min, max, integer };
}

/** limitsFromOpenApi finds each limit in the document; a schema or field it lacks is an error naming it. */
export function limitsFromOpenApi(document: OpenApiDocument): Limits {
  const schemas = document.components?.schemas ?? {};
  const field = (schema: string, name: string) => {
    const property = schemas[schema]?.properties?.[name];
    if (!property) throw new Error(`the backend's OpenAPI document has no ${schema}.${name} (is the backend older than this page?)`);
    return limitOf(property);
  };
  return {
    sizeBytes: field('FlowGroup', 'size_bytes'),
    flowCount: field('FlowGroup', 'count'),
    tunnelK: field('Tunnel', 'k'),
    tunnelZ: field('Tunnel', 'z'),
    iterations: field('CampaignSpec', 'iterations'),
    parallel: field('CampaignSpec', 'parallel'),
    seed: field('CampaignSpec', 'seed'),
  };
}
