/**
 * The names of everything the state keeps in Redis, all under one prefix so several endpoints
 * (or test runs) can share a server.
 */
export class Keys {
  constructor(readonly prefix: string) {}

  /** A legacy session's record (a JSON string). */
  session(sessionId: string): string {
    return `${this.prefix}session:${sessionId}`;
  }

  /** The set of a session's stream ids, so ending the session can forget its streams. */
  sessionStreams(sessionId: string): string {
    return `${this.prefix}session-streams:${sessionId}`;
  }

  /** The prefix of every stream key; a stream id follows it. */
  get eventsPrefix(): string {
    return `${this.prefix}events:`;
  }

  /** One SSE stream's events (a Redis Stream). */
  events(streamId: string): string {
    return `${this.eventsPrefix}${streamId}`;
  }

  /** The prefix of every stream's byte count; a stream id follows it. */
  get eventBytesPrefix(): string {
    return `${this.prefix}event-bytes:`;
  }

  /** The bytes of the events one SSE stream keeps (a counter beside its Redis Stream). */
  eventBytes(streamId: string): string {
    return `${this.eventBytesPrefix}${streamId}`;
  }

  /** The marker of a once-key appended to a stream. */
  once(streamId: string, key: string): string {
    return `${this.prefix}once:${streamId}:${key}`;
  }

  /** The record that a one-time requestState (named by its signature) was accepted. */
  usedState(id: string): string {
    return `${this.prefix}used-state:${id}`;
  }

  /** A task's fields (a hash). */
  task(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }

  /**
   * The tasks of one share that may still run (a sorted set of ids scored by expiry): an
   * anonymous client's `share`, else the owner's, apart so that no principal's id names a
   * client's share, and percent-encoded so that every key is printable (`redis-cli --scan` shows
   * it whole) whatever the principal's id holds.
   */
  ownerTasks(task: { readonly owner: string | undefined; readonly share?: string }): string {
    const share =
      task.share === undefined
        ? `owner:${encodeURIComponent(task.owner ?? '')}`
        : `share:${encodeURIComponent(task.share)}`;
    return `${this.prefix}owner-tasks:${share}`;
  }

  /** The prefix of every task's key; a task id follows it. */
  get taskPrefix(): string {
    return `${this.prefix}task:`;
  }

  /** A task's outstanding input requests (a hash: key → JSON body). */
  taskRequests(taskId: string): string {
    return `${this.prefix}task:${taskId}:requests`;
  }

  /** A task's recorded answers (a hash: key → JSON answer). */
  taskAnswers(taskId: string): string {
    return `${this.prefix}task:${taskId}:answers`;
  }

  /** The channel of change notifications. */
  get changesChannel(): string {
    return `${this.prefix}changes`;
  }

  /** The channel of messages relayed between processes. */
  get relayChannel(): string {
    return `${this.prefix}relay`;
  }

  /** The channel of task events. */
  get tasksChannel(): string {
    return `${this.prefix}tasks`;
  }

  /** One event type's replay buffer (a Redis Stream, entry ids `<seq>-0`), percent-encoded. */
  occurrences(type: string): string {
    return `${this.prefix}occurrences:${encodeURIComponent(type)}`;
  }

  /** One event type's log state (a hash: epoch, head, bytes kept and the replay bounds). */
  occurrenceLog(type: string): string {
    return `${this.prefix}occurrence-log:${encodeURIComponent(type)}`;
  }

  /** The channel every appended occurrence is published on, for the push streams of every process. */
  get occurrencesChannel(): string {
    return `${this.prefix}occurrences`;
  }

  /** One webhook subscription (a JSON string, expiring with it). */
  webhook(id: string): string {
    return `${this.prefix}webhook:${encodeURIComponent(id)}`;
  }

  /** The webhook subscriptions of one event type (a sorted set of ids scored by expiry). */
  webhooksOfType(type: string): string {
    return `${this.prefix}webhooks-type:${encodeURIComponent(type)}`;
  }

  /** The webhook subscriptions of one principal (a sorted set of ids scored by expiry). */
  webhooksOfPrincipal(principal: string): string {
    return `${this.prefix}webhooks-principal:${encodeURIComponent(principal)}`;
  }

  /** The claim of one delivery (an occurrence to a subscription), expiring when it lapses. */
  webhookClaim(id: string, eventId: string): string {
    return `${this.prefix}webhook-claim:${encodeURIComponent(id)}:${encodeURIComponent(eventId)}`;
  }

  /** One rate-limit counter (a hash), by the digest of its key. */
  rate(keyDigest: string): string {
    return `${this.prefix}rate:${keyDigest}`;
  }

  /** One cached answer, by the digests of its group and key. */
  cached(groupDigest: string, keyDigest: string): string {
    return `${this.prefix}cache:${groupDigest}:${keyDigest}`;
  }

  /** The set of the cached answers of one group. */
  cacheGroup(groupDigest: string): string {
    return `${this.prefix}cache-group:${groupDigest}`;
  }
}

/** The session a stream belongs to: its id up to the last `.` (`<session id>.<stream>`). */
export function sessionOfStream(streamId: string): string {
  const dot = streamId.lastIndexOf('.');
  return dot < 0 ? streamId : streamId.slice(0, dot);
}
