import { ErrorCode, McpError, blobContent, contents, textContent } from '@rondo/protocol';
import type {
  Provider,
  ResourceDefinition,
  ResourceOutcome,
  ResourceTemplateDefinition,
} from '@rondo/core';
import { bytesToBase64 } from '@rondo/core/internal';
import type { SkillCatalog } from './skillCatalog.js';
import { parseSkillUri, skillUri } from './skillPaths.js';
import { isTextType } from './skillTypes.js';

const utf8 = new TextDecoder();

/**
 * The skills' files as resources: each SKILL.md listed (named and described from its frontmatter,
 * `text/markdown`), every file readable through the `skill://{skill}/{+path}` template. A URI whose
 * path leaves its skill's root is -32602 saying why; a directory is -32602 pointing at
 * `resources/directory/read`.
 */
export class SkillsProvider implements Provider {
  readonly name = 'skills';

  constructor(private readonly catalog: SkillCatalog) {}

  async resources(): Promise<ResourceDefinition[]> {
    await this.catalog.ready();
    return this.catalog.skills.map((skill) => ({
      uri: skillUri(skill.name, 'SKILL.md'),
      name: skill.name,
      description: skill.description,
      mimeType: 'text/markdown',
      size: skill.files.get('SKILL.md')?.bytes.byteLength ?? 0,
    }));
  }

  resourceTemplates(): ResourceTemplateDefinition[] {
    return [
      {
        uriTemplate: 'skill://{skill}/{+path}',
        name: 'skill-file',
        description: 'A file of one of the skills this server serves',
      },
    ];
  }

  async readResource(uri: string): Promise<ResourceOutcome | undefined> {
    const location = parseSkillUri(uri);
    if (location === undefined) return undefined;
    await this.catalog.ready();
    const target = await this.catalog.resolve(location);
    if (target.kind === 'none') return undefined;
    if (target.kind === 'directory')
      throw new McpError(
        ErrorCode.InvalidParams,
        `${uri} is a directory of a skill; list it with resources/directory/read`,
        { uri },
      );
    const { bytes, mimeType } = target.file;
    const content = isTextType(mimeType)
      ? textContent(uri, mimeType, utf8.decode(bytes))
      : blobContent(uri, mimeType, bytesToBase64(bytes));
    return contents([content]);
  }
}
