export {
  ApiError,
  BackendMissingError,
  BackendUnreachableError,
  backendAddress,
  postJson,
  type ProblemDetail,
  request,
} from './request';
export { apiUrl, streamUrl } from './url';
export type { Schemas } from './schemas';
