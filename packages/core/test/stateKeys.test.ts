import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@rondo/protocol';
import {
  ConfigurationError,
  SINGLE_STATE_KEY_ID,
  createServer,
  parseStateKeys,
  type StateKey,
} from '@rondo/core';
import { RequestStateSealer } from '@rondo/core/internal';

const binding = { method: 'tools/call', identity: { name: 'wizard', arguments: { size: 2 } } };
const k1: StateKey = { id: 'k1', secret: 'first-secret-0123456789abcdef0123456789' };
const k2: StateKey = { id: 'k2', secret: 'second-secret-0123456789abcdef012345678' };
// A token sealed with keys this ring does not hold says so, and how to share keys (issue 29).
const INVALID = expect.objectContaining({
  code: ErrorCode.InvalidParams,
  message: expect.stringMatching(
    /^Invalid or expired requestState: it was not sealed with this server's keys\. .*RONDO_STATE_KEY/,
  ),
});

/** Runs `body` with the two key variables set as given (undefined: unset), then restores them. */
function withKeyEnvironment<T>(
  vars: { RONDO_STATE_KEYS?: string; RONDO_STATE_KEY?: string },
  body: () => T,
): T {
  const names = ['RONDO_STATE_KEYS', 'RONDO_STATE_KEY'] as const;
  const previous = names.map((name) => process.env[name]);
  for (const name of names) {
    const value = vars[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  try {
    return body();
  } finally {
    names.forEach((name, index) => {
      const value = previous[index];
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    });
  }
}

const sealWith = (keys: StateKey[]) =>
  new RequestStateSealer({ keys }).seal(binding, { state: { step: 1 }, carry: null });

describe('the requestState key ring', () => {
  it('opens a state sealed with the previous key after a rotation, and refuses it once the key is dropped', async () => {
    const token = await sealWith([k1]);
    const rotated = new RequestStateSealer({ keys: [k2, k1] });
    expect(await rotated.open(token, binding)).toEqual({ state: { step: 1 }, carry: null });
    await expect(new RequestStateSealer({ keys: [k2] }).open(token, binding)).rejects.toThrow(
      INVALID,
    );
  });

  it('seals with the first key of the ring and names it in the token', async () => {
    const token = await sealWith([k2, k1]);
    expect(token.startsWith('k2.')).toBe(true);
    expect(await new RequestStateSealer({ keys: [k2] }).open(token, binding)).toMatchObject({
      state: { step: 1 },
    });
    await expect(new RequestStateSealer({ keys: [k1] }).open(token, binding)).rejects.toThrow(
      INVALID,
    );
  });

  it('refuses a token that names a key the ring lacks, or another key of the ring', async () => {
    const token = await sealWith([k1]);
    const body = token.slice(token.indexOf('.'));
    const ring = new RequestStateSealer({ keys: [k2, k1] });
    // The MAC covers the key id: relabelling a state with another listed id does not open it.
    for (const bad of [`k9${body}`, `k2${body}`])
      await expect(ring.open(bad, binding)).rejects.toThrow(INVALID);
    for (const bad of [body, `.${body}`, `k1${body}.extra`])
      await expect(ring.open(bad, binding)).rejects.toThrow(
        expect.objectContaining({
          message: expect.stringMatching(/^Invalid or expired requestState/),
        }),
      );
  });

  it(`treats a single key as a ring of one with the id "${SINGLE_STATE_KEY_ID}"`, async () => {
    const single = new RequestStateSealer({ key: k1.secret });
    const token = await single.seal(binding, { state: 7, carry: null });
    expect(token.startsWith(`${SINGLE_STATE_KEY_ID}.`)).toBe(true);
    // So a single key rotates into a ring by keeping it under that id.
    const ring = new RequestStateSealer({ keys: [k2, { id: '0', secret: k1.secret }] });
    expect((await ring.open(token, binding)).state).toBe(7);
  });

  it('refuses, at start, a key shorter than 32 bytes naming the rule and the key', () => {
    const short = { id: 'old', secret: new Uint8Array(31) };
    expect(() => new RequestStateSealer({ keys: [k1, short] })).toThrow(
      new ConfigurationError(
        'requestState.keys: the key "old" is 31 bytes long; a requestState key needs at least 32 bytes',
      ),
    );
    expect(() =>
      createServer({ name: 's', version: '1', requestState: { keys: [{ id: 'a', secret: 'x' }] } }),
    ).toThrow(/the key "a" is 1 byte long; a requestState key needs at least 32 bytes/);
  });

  it('refuses an empty ring, a duplicate id, a malformed id, and keys given with key', () => {
    const cases: [RequestStateSealerOptions, RegExp][] = [
      [{ keys: [] }, /the key ring is empty/],
      [{ keys: [k1, { ...k2, id: 'k1' }] }, /the key id "k1" is listed twice/],
      [{ keys: [{ ...k1, id: 'a.b' }] }, /the id of key 1 is not 1 to 32 letters/],
      [{ keys: [{ ...k1, id: '' }] }, /the id of key 1 is not/],
      [{ keys: [{ ...k1, id: 'x'.repeat(33) }] }, /the id of key 1 is not/],
      [{ keys: [k1], key: k2.secret }, /give `keys` \(a ring\) or `key` \(one key\), not both/],
    ];
    for (const [options, message] of cases) {
      expect(() => new RequestStateSealer(options)).toThrow(ConfigurationError);
      expect(() => new RequestStateSealer(options)).toThrow(message);
    }
  });
});

type RequestStateSealerOptions = ConstructorParameters<typeof RequestStateSealer>[0];

describe('parseStateKeys and RONDO_STATE_KEYS', () => {
  it('reads id:secret entries, newest first, with ":" inside secrets and base64: secrets', () => {
    const bytes = new Uint8Array(32).map((_, index) => index * 7);
    const text = ` k2:${k2.secret as string} ,k1:a:b:c-0123456789abcdef0123456789abc,raw:base64:${Buffer.from(bytes).toString('base64')}`;
    const keys = parseStateKeys(text);
    expect(keys.map((key) => key.id)).toEqual(['k2', 'k1', 'raw']);
    expect(keys[0]?.secret).toBe(k2.secret);
    expect(keys[1]?.secret).toBe('a:b:c-0123456789abcdef0123456789abc');
    expect(keys[2]?.secret).toEqual(bytes);
  });

  it('names the entry, never the secret, when an entry is malformed', () => {
    const secret = 'top-secret-text-0123456789abcdef0123456789';
    const cases: [string, RegExp][] = [
      [`k1:${k1.secret as string},${secret}`, /--state-keys: entry 2 is not id:secret/],
      [`bad id:${secret}`, /--state-keys: the id of key 1 is not/],
      [`k1:${k1.secret as string},`, /entry 2 is not id:secret/],
      [`k1:base64:***${secret}`, /the secret of key "k1" starts with base64: but the rest is not/],
      [
        `k1:short`,
        /--state-keys: the key "k1" is 5 bytes long; a requestState key needs at least 32/,
      ],
      [`k1:${secret},k1:${secret}`, /the key id "k1" is listed twice/],
    ];
    for (const [text, message] of cases) {
      let failure: unknown;
      try {
        parseStateKeys(text, '--state-keys');
      } catch (caught) {
        failure = caught;
      }
      expect(failure).toBeInstanceOf(ConfigurationError);
      expect((failure as Error).message).toMatch(message);
      expect((failure as Error).message).not.toContain('top-secret');
    }
  });

  it('takes the ring from RONDO_STATE_KEYS when no option gives one', async () => {
    const token = await sealWith([k1]);
    const env = { RONDO_STATE_KEYS: `k2:${k2.secret as string},k1:${k1.secret as string}` };
    const sealer = withKeyEnvironment(env, () => new RequestStateSealer());
    expect(sealer.randomKey).toBe(false);
    expect((await sealer.open(token, binding)).state).toEqual({ step: 1 });
    expect((await sealer.seal(binding, { state: 1, carry: null })).startsWith('k2.')).toBe(true);
  });

  it('refuses a short key in RONDO_STATE_KEYS, and both key variables set at once', () => {
    withKeyEnvironment({ RONDO_STATE_KEYS: `k1:${k1.secret as string},k0:short` }, () =>
      expect(() => createServer({ name: 's', version: '1' })).toThrow(
        'RONDO_STATE_KEYS: the key "k0" is 5 bytes long; a requestState key needs at least 32 bytes',
      ),
    );
    const both = { RONDO_STATE_KEYS: `k1:${k1.secret as string}`, RONDO_STATE_KEY: 'x'.repeat(40) };
    withKeyEnvironment(both, () =>
      expect(() => new RequestStateSealer()).toThrow(
        /RONDO_STATE_KEYS and RONDO_STATE_KEY are both set; set one/,
      ),
    );
  });

  it('lets an option win over the environment', async () => {
    const token = await sealWith([k1]);
    const sealer = withKeyEnvironment(
      { RONDO_STATE_KEYS: 'k9:short' },
      () => new RequestStateSealer({ keys: [k1] }),
    );
    expect((await sealer.open(token, binding)).state).toEqual({ step: 1 });
  });
});
