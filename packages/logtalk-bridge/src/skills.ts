import type { JsonObject } from '@rondo/protocol';
import type { ProviderDescription } from './messages.js';

/** A skill a Prolog provider declares with `skills/1`. */
export type PrologSkill =
  | {
      readonly kind: 'skill';
      readonly name: string;
      readonly description: string;
      readonly instructions: string;
      readonly frontmatter: JsonObject;
      /** Further files by path inside the skill. */
      readonly files: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'directory'; readonly directory: string };

/** A described skill as the provider gives it. */
export function prologSkill(declared: ProviderDescription['skills'][number]): PrologSkill {
  if ('directory' in declared) return { kind: 'directory', directory: declared.directory };
  const files = Object.fromEntries(declared.files.map((file) => [file.path, file.text]));
  return { kind: 'skill', ...declared, files };
}
