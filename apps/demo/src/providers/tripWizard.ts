import { z } from 'zod';
import type { HandlerContext, RondoServer } from '@rondo/core';
import {
  formElicitation,
  inputRequest,
  inputRequired,
  structured,
  text,
  type InputRequiredValue,
  type JsonObject,
  type ToolResult,
} from '@rondo/protocol';

/** What the wizard has learned so far; it travels in the sealed requestState between rounds. */
interface TripState {
  step: 'destination' | 'stay' | 'activities';
  traveller: string;
  destination?: string;
  nights?: number;
  budget?: number;
}

const ACTIVITIES: Record<string, { const: string; title: string }[]> = {
  lisbon: [
    { const: 'tram', title: 'Ride tram 28' },
    { const: 'fado', title: 'A fado evening' },
    { const: 'pastel', title: 'Pastéis de nata tasting' },
  ],
  kyoto: [
    { const: 'temples', title: 'Temple walk' },
    { const: 'tea', title: 'Tea ceremony' },
    { const: 'bamboo', title: 'Arashiyama bamboo grove' },
  ],
  reykjavik: [
    { const: 'aurora', title: 'Northern lights tour' },
    { const: 'lagoon', title: 'Geothermal lagoon' },
    { const: 'whales', title: 'Whale watching' },
  ],
};

/** Round 1 uses the legacy `enumNames` form on purpose, so the playground shows that enum kind too. */
const destinationSchema: JsonObject = {
  type: 'object',
  properties: {
    destination: {
      type: 'string',
      title: 'Destination',
      enum: ['lisbon', 'kyoto', 'reykjavik'],
      enumNames: ['Lisbon', 'Kyoto', 'Reykjavík'],
    },
  },
  required: ['destination'],
};

/** The budget the stay form advertises; a client that leaves the field out has accepted it. */
const DEFAULT_BUDGET = 120.5;

const staySchema: JsonObject = {
  type: 'object',
  properties: {
    nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 21, default: 3 },
    budget: {
      type: 'number',
      title: 'Budget per night (EUR)',
      minimum: 0,
      default: DEFAULT_BUDGET,
    },
  },
  required: ['nights'],
};

function activitiesSchema(destination: string): JsonObject {
  return {
    type: 'object',
    properties: {
      activities: {
        type: 'array',
        title: 'Activities',
        items: { anyOf: ACTIVITIES[destination] ?? [] },
        minItems: 1,
      },
    },
    required: ['activities'],
  };
}

function ask(state: TripState): InputRequiredValue {
  const forms = {
    destination: () => formElicitation(`Where should ${state.traveller} go?`, destinationSchema),
    stay: () => formElicitation(`How long in ${state.destination ?? '?'}?`, staySchema),
    activities: () =>
      formElicitation('Pick what to do there', activitiesSchema(state.destination ?? '')),
  };
  return inputRequired([inputRequest(state.step, forms[state.step]())], { ...state });
}

/** Applies one round's answer to the state and moves on, or finishes with a result. */
function advance(state: TripState, ctx: HandlerContext): TripState | ToolResult {
  const answer = ctx.inputResponses[state.step];
  if (!answer) return state; // answer missing: ask the same question again
  if (answer.kind !== 'accept') return text(`Trip planning stopped: you chose ${answer.kind}.`);
  const form = answer.content;
  switch (state.step) {
    case 'destination':
      return {
        ...state,
        step: 'stay',
        destination: typeof form.destination === 'string' ? form.destination : '',
      };
    case 'stay':
      return {
        ...state,
        step: 'activities',
        nights: Number(form.nights),
        budget: typeof form.budget === 'number' ? form.budget : DEFAULT_BUDGET,
      };
    case 'activities': {
      const chosen = Array.isArray(form.activities) ? form.activities.map(String) : [];
      const summary = {
        traveller: state.traveller,
        destination: state.destination ?? '',
        nights: state.nights ?? 0,
        budget: state.budget ?? DEFAULT_BUDGET,
        activities: chosen,
      };
      return structured(summary, [
        text(
          `Trip for ${state.traveller}: ${state.nights} nights in ${state.destination}, doing ${chosen.join(', ')}.`,
        ),
      ]);
    }
  }
}

function isTripState(value: unknown): value is TripState {
  return typeof value === 'object' && value !== null && 'step' in value && 'traveller' in value;
}

/**
 * Registers `plan_trip`: a three-round wizard. Each round asks one form, and the answers so far ride
 * in `requestState` (sealed by the core), so the server keeps nothing between rounds.
 */
export function addTripWizard(server: RondoServer): void {
  server.tool(
    'plan_trip',
    {
      title: 'Plan a trip (wizard)',
      description:
        'A three-step wizard: destination, length of stay, activities. State evolves across rounds.',
      input: z.object({ traveller: z.string().min(1).describe('Who is travelling') }),
    },
    ({ traveller }, ctx) => {
      const previous = isTripState(ctx.requestState) ? ctx.requestState : undefined;
      if (!previous) return ask({ step: 'destination', traveller });
      const next = advance(previous, ctx);
      return isTripState(next) ? ask(next) : next;
    },
  );
}
