import { describe, expect, it } from 'vitest';
import { limitsFromOpenApi } from './limits';

// The shapes pydantic writes into the backend's OpenAPI document (GET api/openapi.json).
const document = {
  components: {
    schemas: {
      FlowGroup: {
        properties: {
          size_bytes: { anyOf: [{ type: 'integer', minimum: 1, maximum: 10737418240 }, { type: 'null' }] },
          count: { type: 'integer', minimum: 1, maximum: 16 },
        },
      },
      Tunnel: { properties: { k: { type: 'integer', minimum: 1, maximum: 1000 }, z: { type: 'integer', exclusiveMinimum: 0, maximum: 1000 } } },
      CampaignSpec: {
        properties: {
          iterations: { type: 'integer', minimum: 1, maximum: 10000 },
          parallel: { type: 'integer', minimum: 1, maximum: 8 },
          seed: { type: 'integer', minimum: 0, maximum: 4294967295 },
        },
      },
    },
  },
};

describe('limitsFromOpenApi', () => {
  it('reads each range, nullable fields and exclusive bounds included', () => {
    const limits = limitsFromOpenApi(document);
    expect(limits.sizeBytes).toEqual({ min: 1, max: 10737418240, integer: true });
    expect(limits.flowCount).toEqual({ min: 1, max: 16, integer: true });
    expect(limits.tunnelZ).toEqual({ min: 1, max: 1000, integer: true });
    expect(limits.parallel).toEqual({ min: 1, max: 8, integer: true });
    expect(limits.seed).toEqual({ min: 0, max: 4294967295, integer: true });
  });

  it('names what an older backend lacks', () => {
    expect(() => limitsFromOpenApi({ components: { schemas: {} } })).toThrow(
      "the backend's OpenAPI document has no FlowGroup.size_bytes (is the backend older than this page?)",
    );
  });
});
