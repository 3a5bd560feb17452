/**
 * The public API of the coord core: policy parsing, visibility decisions, message
 * schemas, ids and the store.
 *
 * @module
 */
export {
  ARTIFACT_REFUSAL,
  MESSAGE_REFUSAL,
  PolicyError,
  RefusedError,
  StoreError,
  UsageError,
} from "./errors.ts";
export {
  formatMessageId,
  isArtifactPath,
  isLaneName,
  isWorkItem,
  parseMessageIdOrUndefined,
} from "./ids.ts";
export { isBlind, isSealed, parsePolicy, type Policy, PRIMARY } from "./policy.ts";
export { canInspect, channelAllowed, type History, messageVisible } from "./visibility.ts";
export {
  type Ack,
  AckSchema,
  type Artifact,
  type Message,
  MESSAGE_TYPES,
  MessageSchema,
  PROVENANCES,
} from "./message.ts";
export { Store } from "./store.ts";
export { creationRule, isCreation, ownsCommit, parseOwnership } from "./ownership.ts";
