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
