export {
  serve,
  TRANSPORTS,
  type RunningServer,
  type ServeOptions,
  type ServeOnOptions,
  type Transport,
} from './serve.js';
