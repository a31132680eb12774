export { RequestCall, type CallSetup, type ClientAsker } from './call.js';
export { type RequestAttachment } from '../contracts/extension.js';
export { LOG_LEVEL_RANK, isLogLevel } from './logLevels.js';
export {
  RequestPipeline,
  RequestRefusal,
  methodNotFound,
  type EraMethod,
  type EraRules,
  type WireResult,
} from './pipeline.js';
export { type RequiredCapability } from '../contracts/server.js';
export {
  assertClientCanAnswer,
  assertWithinRoundLimit,
  elicitationValidator,
  readInputResponse,
} from './inputs.js';
export {
  completeArgument,
  listPage,
  listVariesByCaller,
  type CompleteParams,
  type ListMethod,
  type PageShape,
} from './lists.js';
export { type DescriptorKind } from '../contracts/extension.js';
export {
  CALL_TOOL,
  GET_PROMPT,
  READ_RESOURCE,
  namedCall,
  type NamedCall,
  type ResourceCall,
  type RoundMethodName,
  type RoundOperation,
} from './operations.js';
export { roundTakeover, takenRoundOf, type TakenRound } from './takeover.js';
export { decorateDescriptor, extensionNameParam, withExtensionMethods } from './extensions.js';
