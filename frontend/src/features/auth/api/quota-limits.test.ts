import { describe, expect, it } from 'vitest';
import { quotaLimitsFromOpenApi } from './quota-limits';

describe('quotaLimitsFromOpenApi', () => {
  it("reads each quota's range, its ceiling the maximum", () => {
    const document = {
      components: {
        schemas: {
          ClassQuotas: {
            properties: {
              student_concurrent_runs: { type: 'integer', minimum: 0, maximum: 8 },
              retention_days: { type: 'integer', minimum: 0, maximum: 365 },
            },
          },
        },
      },
    };
    expect(quotaLimitsFromOpenApi(document)).toEqual({
      student_concurrent_runs: { min: 0, max: 8, integer: true },
      retention_days: { min: 0, max: 365, integer: true },
    });
  });

  it('says when the backend does not document the quotas', () => {
    expect(() => quotaLimitsFromOpenApi({ components: { schemas: {} } })).toThrow(
      "the backend's OpenAPI document has no ClassQuotas (is the backend older than this page?)",
    );
  });
});
