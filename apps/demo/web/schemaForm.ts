import { h, slug } from './dom.js';
import { objectAt, type JsonObject } from './jsonRpc.js';

/** A form generated from a JSON Schema object, and how to read its value back. */
export interface SchemaForm {
  element: HTMLElement;
  /** The value, or the reasons it is not valid yet (a required field left empty, say). */
  read(): { ok: true; value: JsonObject } | { ok: false; errors: string[] };
}

interface Field {
  element: HTMLElement;
  /** `undefined` means the user left it empty. */
  read(): { value?: unknown; error?: string };
}

interface Choice {
  value: string;
  label: string;
}

function isConstOption(option: unknown): option is JsonObject {
  return typeof option === 'object' && option !== null && 'const' in option;
}

/** The choices of a single-select enum: `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(schema: JsonObject): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => ({
      value: String(value),
      label: String(names[index] ?? value),
    }));
  }
  const options: unknown = schema.oneOf ?? schema.anyOf;
  if (!Array.isArray(options) || !options.every(isConstOption)) return undefined;
  return options.map((option) => ({
    value: String(option.const),
    label: String(option.title ?? option.const),
  }));
}

/** A numeric keyword of the schema (`minimum`, `maxLength`, ...), if it is set to a number. */
function numberAt(schema: JsonObject, keyword: string): number | undefined {
  const value = schema[keyword];
  return typeof value === 'number' ? value : undefined;
}

function titleOf(name: string, schema: JsonObject): string {
  return typeof schema.title === 'string' ? schema.title : name;
}

function labelFor(id: string, name: string, schema: JsonObject, required: boolean): HTMLElement {
  return h(
    'label',
    { for: id },
    titleOf(name, schema),
    required ? h('span', { class: 'required', 'aria-hidden': 'true' }, ' *') : undefined,
  );
}

function describe(id: string, schema: JsonObject): HTMLElement | undefined {
  return typeof schema.description === 'string'
    ? h('small', { id: `${id}-help` }, schema.description)
    : undefined;
}

/** The usual field: label, the control, then the schema's description. */
function labelled(
  id: string,
  name: string,
  schema: JsonObject,
  required: boolean,
  control: HTMLElement,
): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    labelFor(id, name, schema, required),
    control,
    describe(id, schema),
  );
}

function booleanField(id: string, name: string, schema: JsonObject, required: boolean): Field {
  const input = h('input', {
    type: 'checkbox',
    id,
    'data-testid': `field-${name}`,
    checked: schema.default === true,
  });
  const element = h(
    'div',
    { class: 'field checkbox' },
    input,
    labelFor(id, name, schema, required),
    describe(id, schema),
  );
  return { element, read: () => ({ value: input.checked }) };
}

function selectField(
  id: string,
  name: string,
  schema: JsonObject,
  required: boolean,
  choices: Choice[],
): Field {
  const select = h('select', {
    id,
    'data-testid': `field-${name}`,
    required,
    'aria-describedby': `${id}-help`,
  });
  // No default: start blank, so a required choice cannot be submitted by accident.
  if (schema.default === undefined) select.append(h('option', { value: '' }, '— choose —'));
  for (const choice of choices) {
    select.append(
      h('option', { value: choice.value, selected: schema.default === choice.value }, choice.label),
    );
  }
  const element = labelled(id, name, schema, required, select);
  return { element, read: () => (select.value === '' ? {} : { value: select.value }) };
}

function multiSelectField(
  id: string,
  name: string,
  schema: JsonObject,
  required: boolean,
  choices: Choice[],
): Field {
  const chosen = Array.isArray(schema.default) ? schema.default.map(String) : [];
  const boxes = choices.map((choice) => {
    const box = h('input', {
      type: 'checkbox',
      id: `${id}-${slug(choice.value)}`,
      value: choice.value,
      'data-testid': `field-${name}-${slug(choice.value)}`,
      checked: chosen.includes(choice.value),
    });
    return { box, element: h('label', { class: 'choice' }, box, ` ${choice.label}`) };
  });
  const title = titleOf(name, schema);
  const legend = h('legend', {}, title, required ? ' *' : '');
  const element = h(
    'fieldset',
    { class: 'field', id, 'data-testid': `field-${name}` },
    legend,
    ...boxes.map((b) => b.element),
    describe(id, schema),
  );
  const minItems = numberAt(schema, 'minItems');
  const maxItems = numberAt(schema, 'maxItems');
  return {
    element,
    read: () => {
      const value = boxes.filter((b) => b.box.checked).map((b) => b.box.value);
      if (minItems !== undefined && value.length < minItems)
        return { error: `${title}: pick at least ${minItems}` };
      if (maxItems !== undefined && value.length > maxItems)
        return { error: `${title}: pick at most ${maxItems}` };
      return { value };
    },
  };
}

function numberField(id: string, name: string, schema: JsonObject, required: boolean): Field {
  const integer = schema.type === 'integer';
  const minimum = numberAt(schema, 'minimum');
  const maximum = numberAt(schema, 'maximum');
  const input = h('input', {
    type: 'number',
    id,
    'data-testid': `field-${name}`,
    step: integer ? 1 : 'any',
    min: minimum,
    max: maximum,
    value: numberAt(schema, 'default'),
    required,
  });
  const element = labelled(id, name, schema, required, input);
  return {
    element,
    read: () => {
      if (input.value.trim() === '') return {};
      const value = Number(input.value);
      if (!Number.isFinite(value) || (integer && !Number.isInteger(value)))
        return { error: `${name}: not ${integer ? 'an integer' : 'a number'}` };
      if (minimum !== undefined && value < minimum)
        return { error: `${name}: at least ${minimum}` };
      if (maximum !== undefined && value > maximum) return { error: `${name}: at most ${maximum}` };
      return { value };
    },
  };
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

function stringField(id: string, name: string, schema: JsonObject, required: boolean): Field {
  const minLength = numberAt(schema, 'minLength');
  const input = h('input', {
    type: INPUT_TYPES[String(schema.format)] ?? 'text',
    id,
    'data-testid': `field-${name}`,
    value: typeof schema.default === 'string' ? schema.default : undefined,
    minlength: minLength,
    maxlength: numberAt(schema, 'maxLength'),
    required,
  });
  const element = labelled(id, name, schema, required, input);
  return {
    element,
    read: () => {
      if (input.value === '') return {};
      if (minLength !== undefined && input.value.length < minLength)
        return { error: `${name}: too short` };
      return { value: input.value };
    },
  };
}

/** Anything the widgets above do not cover (nested objects, arrays of objects): edit it as JSON. */
function jsonField(id: string, name: string, schema: JsonObject, required: boolean): Field {
  const area = h('textarea', { id, 'data-testid': `field-${name}`, rows: 3, placeholder: 'JSON' });
  if (schema.default !== undefined) area.value = JSON.stringify(schema.default);
  const element = labelled(id, name, schema, required, area);
  return {
    element,
    read: () => {
      if (area.value.trim() === '') return {};
      try {
        return { value: JSON.parse(area.value) as unknown };
      } catch {
        return { error: `${name}: not valid JSON` };
      }
    },
  };
}

function fieldFor(id: string, name: string, schema: JsonObject, required: boolean): Field {
  const items = objectAt(schema, 'items');
  const multi = schema.type === 'array' && items ? choicesOf(items) : undefined;
  if (multi) return multiSelectField(id, name, schema, required, multi);
  const choices = choicesOf(schema);
  if (choices) return selectField(id, name, schema, required, choices);
  switch (schema.type) {
    case 'boolean':
      return booleanField(id, name, schema, required);
    case 'number':
    case 'integer':
      return numberField(id, name, schema, required);
    case 'string':
      return stringField(id, name, schema, required);
    default:
      return jsonField(id, name, schema, required);
  }
}

/**
 * Generates a form from a flat JSON Schema object: a tool's `inputSchema` or an elicitation's
 * `requestedSchema`. Strings, numbers, integers, booleans, every enum kind (`enum`, `enumNames`,
 * `oneOf` const/title, multi-select arrays), defaults and required fields get native controls with
 * labels; anything else is edited as JSON.
 */
export function schemaForm(schema: JsonObject, idPrefix: string): SchemaForm {
  const properties = objectAt(schema, 'properties') ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const fields = Object.keys(properties).map((name) => {
    const field = fieldFor(
      `${idPrefix}-${slug(name)}`,
      name,
      objectAt(properties, name) ?? {},
      required.has(name),
    );
    return { name, field };
  });
  const element = h('div', { class: 'schema-form' }, ...fields.map(({ field }) => field.element));
  if (fields.length === 0) element.append(h('p', { class: 'muted' }, 'No fields.'));
  return {
    element,
    read: () => {
      const value: JsonObject = {};
      const errors: string[] = [];
      for (const { name, field } of fields) {
        const answer = field.read();
        if (answer.error) errors.push(answer.error);
        else if (answer.value !== undefined) value[name] = answer.value;
        else if (required.has(name)) errors.push(`${name} is required`);
      }
      return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
    },
  };
}
