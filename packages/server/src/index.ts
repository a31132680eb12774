export {
  serve,
  TRANSPORTS,
  type RunningServer,
  type ServeCommonOptions,
  type ServeOptions,
  type ServeOnOptions,
  type Transport,
} from './serve.js';
