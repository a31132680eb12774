import type { JsonObject } from '@rondo/protocol';
import type { Icon } from './definitions.js';

/** Who the server is: what `initialize` and `server/discover` announce of it. */
export interface ServerInfo {
  name: string;
  version: string;
  title?: string;
  description?: string;
  instructions?: string;
  icons?: Icon[];
  websiteUrl?: string;
}

/** What the server's providers offer, for capability negotiation. */
export interface ServerCapabilitySet {
  tools: boolean;
  prompts: boolean;
  resources: boolean;
  subscribe: boolean;
  listChanged: boolean;
  completions: boolean;
  /** Extension settings the providers announce, by id (see `ProviderCapabilities.extensions`). */
  extensions?: Readonly<Record<string, JsonObject>>;
  /** Some provider keeps tasks of its own (see `ProviderCapabilities.tasks`). */
  tasks?: boolean;
}

/** The capability a method family needs the server to offer; without it the method is -32601. */
export type RequiredCapability = keyof Pick<
  ServerCapabilitySet,
  'tools' | 'prompts' | 'resources' | 'completions'
>;
