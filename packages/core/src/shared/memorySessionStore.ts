import type { SessionRecord, SessionStore } from '../contracts/sessionStore.js';

/** How a {@link MemorySessionStore} is bounded. */
export interface MemorySessionStoreOptions {
  /**
   * Records kept at once (default 10,000, the HTTP transport's `maxSessions`); a new one past it
   * takes the place of the least recently used.
   */
  maxSessions?: number;
  /** The clock, in epoch milliseconds (tests use their own). */
  now?: () => number;
}

/** The default of {@link MemorySessionStoreOptions.maxSessions}. */
const DEFAULT_MAX_STORED_SESSIONS = 10_000;

interface Entry {
  readonly record: SessionRecord;
  expiresAt: number;
}

/** Records looked at from the least recently used end on each save: a sweep that costs O(1). */
const SWEEP_PER_SAVE = 2;

/**
 * The default {@link SessionStore}: the records of one process's sessions, in its memory. Every
 * member answers at once. It holds at most `maxSessions` records: a record past its TTL is forgotten
 * when it is next looked at or swept, and a new record that finds the store full takes the place
 * of the least recently used. Its `scope` is `'process'`: no other process reads it, so a session
 * the transport drops here is gone.
 */
export class MemorySessionStore implements SessionStore {
  readonly scope = 'process';
  /** Insertion order is use order: a loaded or saved record moves to the end. */
  private readonly entries = new Map<string, Entry>();
  private readonly maxSessions: number;
  private readonly now: () => number;

  constructor(options: MemorySessionStoreOptions = {}) {
    this.maxSessions = Math.max(1, options.maxSessions ?? DEFAULT_MAX_STORED_SESSIONS);
    this.now = options.now ?? Date.now;
  }

  save(sessionId: string, record: SessionRecord, ttlMs: number): void {
    this.entries.delete(sessionId);
    this.entries.set(sessionId, { record, expiresAt: this.now() + ttlMs });
    this.sweep();
    while (this.entries.size > this.maxSessions) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  load(sessionId: string, ttlMs: number): SessionRecord | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    const now = this.now();
    this.entries.delete(sessionId);
    if (entry.expiresAt <= now) return undefined;
    entry.expiresAt = now + ttlMs;
    this.entries.set(sessionId, entry);
    return entry.record;
  }

  delete(sessionId: string): void {
    this.entries.delete(sessionId);
  }

  /** How many records are kept, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  /** Forgets expired records at the least recently used end. */
  private sweep(): void {
    const now = this.now();
    let looked = 0;
    for (const [id, entry] of this.entries) {
      if (looked++ >= SWEEP_PER_SAVE) return;
      if (entry.expiresAt <= now) this.entries.delete(id);
    }
  }
}
