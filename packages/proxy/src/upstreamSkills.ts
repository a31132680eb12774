import type { Client, Skill } from '@rondo/client';
import type { JsonObject } from '@rondo/protocol';
import { readWithinBudget } from './catalogBudget.js';
import type { Gate } from './gate.js';
import type { ResourceOwnership } from './resourceOwnership.js';
import { upstreamFailure } from './roundRunner.js';
import type { UpstreamLink } from './upstreamLink.js';

/** The Skills extension's requests a proxy relays to its upstream besides its list. */
export type SkillRequest = 'skills/get' | 'resources/directory/read';

/** What an {@link UpstreamSkills} reads and asks through. */
export interface SkillsServices {
  readonly upstreamName: string;
  readonly link: UpstreamLink;
  /** The upstream's concurrency limit: a relayed request takes a slot like a call. */
  readonly gate: Gate;
  /** The budget of the list as JSON (the proxy's `maxCatalogBytes`). */
  readonly budget: number;
  readonly ownership: ResourceOwnership;
  readonly warn: (message: string) => void;
}

/** What a gateway sees of a proxy's upstream skills (`ProxyProvider.skills`). */
export interface ProxySkills {
  /** Whether the connected upstream declares the extension (and with `directoryRead`). */
  readonly declared: { readonly directoryRead: boolean } | undefined;
  /** The upstream's skill entries as last read. */
  readonly listed: readonly Skill[];
  /** True when `uri` is the `SKILL.md` of one of the listed skills or a path under its root. */
  owns(uri: string): boolean;
  /** `method` asked of the upstream in a slot of its gate; failures say which upstream. */
  request(method: SkillRequest, params: JsonObject, signal?: AbortSignal): Promise<JsonObject>;
}

/** The signal of a request asked outside a call (never aborted). */
const NEVER_ABORTED = new AbortController().signal;

/**
 * An upstream's skills (the Skills extension, `io.modelcontextprotocol/skills`) as a proxy relays
 * them: its `skills/list` read with its other lists (within the catalog budget) and kept as last
 * read, the files of those skills owned for `resources/read`, and `skills/get` and
 * `resources/directory/read` asked of it for a URI under one of its skills.
 */
export class UpstreamSkills implements ProxySkills {
  private entries: readonly Skill[] = [];

  constructor(private readonly services: SkillsServices) {}

  /** Whether the connected upstream declares the extension (and with `directoryRead`). */
  get declared(): { readonly directoryRead: boolean } | undefined {
    const skills = this.services.link.connected?.skills;
    return skills?.available ? { directoryRead: skills.directoryRead } : undefined;
  }

  /** The upstream's skill entries as last read. */
  get listed(): readonly Skill[] {
    return this.entries;
  }

  /** True when `uri` is the `SKILL.md` of one of the listed skills or a path under its root. */
  owns(uri: string): boolean {
    return this.services.ownership.ownsSkillUri(uri);
  }

  /**
   * Reads the upstream's skills again on `client` (none when it does not declare the extension);
   * a list that cannot be read stays as last read, with a warning.
   */
  async read(client: Client): Promise<void> {
    const { budget, warn, ownership } = this.services;
    if (!client.skills.available) {
      this.entries = [];
      ownership.learnSkills(undefined);
      return;
    }
    try {
      this.entries = await readWithinBudget(
        'skills',
        async (cursor) => {
          const page = await client.skills.list(cursor);
          return { items: page.skills, nextCursor: page.nextCursor };
        },
        budget,
        warn,
      );
      ownership.learnSkills(this.entries.map((skill) => skill.uri));
    } catch (failure) {
      warn(`skills could not be read: ${(failure as Error).message}`);
    }
  }

  /** `method` asked of the upstream in a slot of its gate; failures say which upstream. */
  async request(
    method: SkillRequest,
    params: JsonObject,
    signal: AbortSignal = NEVER_ABORTED,
  ): Promise<JsonObject> {
    const { gate, link, upstreamName } = this.services;
    try {
      return await gate.run(signal, async () => {
        const client = await link.client();
        return (await client.request(method, params, { signal })) as JsonObject;
      });
    } catch (error) {
      throw upstreamFailure(upstreamName, error);
    }
  }
}
