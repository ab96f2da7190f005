import type { components } from './schema';

/**
 * The API's schemas by name, as the backend's OpenAPI document gives them (schema.d.ts, generated
 * by `npm run generate-api`). What the API sends has every field (a defaulted one filled in); a
 * request body's defaulted fields are optional.
 */
export type Schemas = components['schemas'];
