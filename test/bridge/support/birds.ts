import { requireBuiltHost } from './paths.js';

/**
 * Answers the bird expert's questions as someone who saw a peregrine falcon: size "medium" from
 * the menu, "yes" to every yes/no question. The expert then names `peregrine_falcon`.
 */
export function peregrineAnswer(params: unknown): {
  action: 'accept';
  content: { answer: string };
} {
  const { requestedSchema } = params as {
    requestedSchema: { properties: { answer: { enum: string[] } } };
  };
  const options = requestedSchema.properties.answer.enum;
  return { action: 'accept', content: { answer: options.includes('medium') ? 'medium' : 'yes' } };
}

/** The text the expert ends with for a peregrine falcon. */
export const PEREGRINE = 'Identified bird: peregrine_falcon';

/** Spawn parameters for an official client's `StdioClientTransport`: `rondo-logtalk` over stdio. */
export function hostStdioParams(files: string[], extraArgs: string[] = []) {
  return {
    command: process.execPath,
    args: [requireBuiltHost(), '--workers', '1', ...extraArgs, ...files],
    env: {
      PATH: process.env.PATH ?? '',
      RONDO_STATE_KEY: 'rondo-bridge-wire-tests-key-0123456789ab',
      ...(process.env.LOGTALKHOME ? { LOGTALKHOME: process.env.LOGTALKHOME } : {}),
    },
    stderr: 'pipe' as const,
  };
}
