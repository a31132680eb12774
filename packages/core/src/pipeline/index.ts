export { RequestCall, type CallSetup, type ClientAsker, type RequestAttachment } from './call.js';
export { LOG_LEVEL_RANK, isLogLevel } from './logLevels.js';
export {
  RequestPipeline,
  RequestRefusal,
  methodNotFound,
  type EraMethod,
  type EraRules,
  type RequiredCapability,
  type WireResult,
} from './pipeline.js';
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
  type DescriptorKind,
  type ListMethod,
  type PageShape,
} from './lists.js';
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
export { decorateDescriptor, extensionNameParam, withExtensionMethods } from './extensions.js';
