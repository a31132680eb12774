export { proxy, ProxyProvider, type ProxyOptions } from './proxyProvider.js';
export type { LogSink } from './passThroughCalls.js';
export { withPassThrough } from './passThrough.js';
export type { PassedTaskLimits } from './passedTasks.js';
export type { NameRules } from './names.js';
export { DEFAULT_MAX_CATALOG_BYTES, type CatalogLimits } from './catalogBudget.js';
export type { SuspensionLimits } from './suspendedCalls.js';
export type { Isolation, IsolationLimits } from './isolation.js';
export type { MirrorLimits } from './legacyMirror.js';
export type { RelayLimits } from './relayedRounds.js';
export type { ConnectionOptions, UpstreamState, UpstreamStatus } from './upstreamLink.js';
export type { CallObserver, CallOutcome, UpstreamCallRecord } from './callRecords.js';
export { UpstreamLink } from './upstreamLink.js';
export type {
  UpstreamSpec,
  StdioUpstream,
  RemoteUpstream,
  CustomUpstream,
} from './upstreamSpec.js';
export { namespaced, type EntryClaims } from './namespaced.js';
export { relaySkills } from './skillsRelay.js';
export {
  relayEvents,
  DEFAULT_RELAYED_STREAMS_PER_CLIENT,
  type EventsRelayOptions,
} from './eventsRelay.js';
export { MAX_RELAYED_POLL_EVENTS } from './relayedEventRequests.js';
export {
  DEFAULT_RELAYED_WEBHOOK_SUBSCRIPTIONS,
  type RelayedWebhookOptions,
} from './relayedWebhooks.js';
export { FEED_RETRY_MS } from './webhookFeed.js';
export { DEFAULT_RELAYED_CURSOR_TTL_MS, MAX_UPSTREAM_CURSOR_LENGTH } from './relayCursors.js';
export type { ProxyEvents } from './upstreamEvents.js';
export { seeCallers } from './callerMiddleware.js';
export type { UpstreamConnections } from './upstreamConnections.js';
export type { ProxySkills, SkillRequest } from './upstreamSkills.js';
export type { UpstreamLists, ListName } from './upstreamLists.js';
export { CatalogClaims, type ClaimKind } from './catalogClaims.js';
export { redactForCaller, redactForOperator } from './redaction.js';
