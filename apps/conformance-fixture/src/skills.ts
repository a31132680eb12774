import type { RondoServer } from '@rondo/core';
import { skills } from '@rondo/skills';

/**
 * The skills of the fixture (the SEP-2640 scenarios): two skills defined in code, one with a
 * subdirectory of references, served with `resources/directory/read`.
 */
export function addSkills(server: RondoServer): void {
  server.use(
    skills({
      directoryRead: true,
      cachePolicy: { ttlMs: 60_000, cacheScope: 'public' },
      skills: [
        {
          name: 'pdf-forms',
          description: 'Fill in PDF forms from structured data.',
          frontmatter: { license: 'MIT', metadata: { author: 'rondo' } },
          instructions:
            '# PDF forms\n\nRead `references/fields.md` for the field names, then fill each field.',
          files: {
            'references/fields.md': '# Fields\n\n- name\n- date\n',
            'scripts/fill.py': 'print("fill the form")\n',
          },
        },
        {
          name: 'release-notes',
          description: 'Write release notes from a list of merged changes.',
          instructions: '# Release notes\n\nGroup the changes by kind, newest first.',
        },
      ],
    }),
  );
}
