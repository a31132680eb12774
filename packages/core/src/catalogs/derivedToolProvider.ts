import type { HandlerContext } from '../context.js';
import type { Arguments, ToolDefinition } from '../definitions.js';
import type { ArgumentValidator } from '../inputValidation.js';
import type { Provider, ToolOutcome } from '../provider.js';
import { normaliseRound } from '../rounds.js';
import type { TaskDeclaration } from '../taskSupport.js';
import type { DerivedTool } from './toolTransform.js';

/** The original tool a derived one calls: its provider, its name and its argument check. */
export interface OriginalTool {
  readonly provider: Provider;
  readonly name: string;
  readonly validate: ArgumentValidator;
  readonly task: TaskDeclaration;
}

/**
 * The provider of one derived tool in a catalog: a call's arguments (validated against the
 * derived schema) are mapped to the original's, checked by the original's own validator (so a zod
 * tool gets its parsed value), and passed to the original's provider; the result is reshaped.
 */
export class DerivedToolProvider implements Provider {
  readonly name: string;

  constructor(
    private readonly original: OriginalTool,
    private readonly derived: DerivedTool,
  ) {
    this.name = `${original.provider.name} (derived ${derived.definition.name})`;
  }

  /** The derived descriptor. */
  get definition(): ToolDefinition {
    return this.derived.definition;
  }

  tools(): ToolDefinition[] {
    return [this.derived.definition];
  }

  taskSupport(): TaskDeclaration {
    return this.original.task;
  }

  async callTool(_name: string, args: Arguments, ctx: HandlerContext): Promise<ToolOutcome> {
    let checked = this.original.validate(this.derived.toOriginal(args));
    if (checked instanceof Promise) checked = await checked;
    if (!checked.ok) return { kind: 'error', text: checked.message };
    const outcome = await this.original.provider.callTool!(
      this.original.name,
      checked.value as Arguments,
      ctx,
    );
    const round = normaliseRound(outcome);
    if (round.kind === 'input_required') return round;
    return { kind: 'complete', result: this.derived.reshape(round.result) };
  }
}
