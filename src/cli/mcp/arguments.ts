// A tool's arguments, checked by the server itself so that a call with a
// wrong argument is answered in words a model can act on: the argument's
// name, the value given and what it should be ("read_file: the argument
// start_line is 0; expected a whole number from 1"), where the SDK's own check
// would answer with zod's text ("expected string, received undefined at
// path"). The SDK still lists each tool with the JSON Schema of its
// arguments, the same as before: it is given a shape whose fields take any
// value and carry that JSON Schema, and the handler checks the arguments
// against the real one (checkArguments).

import * as z from 'zod/v4';
import { CliError } from '../errors.ts';

/** One argument of a tool. */
export interface Argument {
  /** Its schema (optional when the argument may be left out). */
  schema: z.ZodType;
  /** A good value, in words, as the error message ends: "a whole number from 1". */
  expected: string;
}

export type Arguments = Record<string, Argument>;

/** The arguments as the handler gets them once checked. */
export type Checked<A extends Arguments> = { [K in keyof A]: z.output<A[K]['schema']> };

/** The JSON Schema of one argument, as the SDK writes a tool's (draft 7, the input side). */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return rest;
}

/**
 * The schema to register the tool with: each argument takes any value (the
 * SDK never refuses a call) and carries its JSON Schema, so that
 * `tools/list` shows the same schema as `z.object` of the real ones. Keys
 * the tool does not take are kept (a loose object), for the handler to name
 * them; the JSON Schema leaves `additionalProperties` unwritten, as it was
 * (its metadata sets the key to undefined, which JSON drops).
 */
export function advertised(args: Arguments) {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, arg] of Object.entries(args)) {
    const any = arg.schema.safeParse(undefined).success ? z.unknown().optional() : z.unknown();
    shape[name] = any.meta(jsonSchema(arg.schema));
  }
  return z.looseObject(shape).meta({ additionalProperties: undefined });
}

/** A value as a message shows it: a string quoted (cut after 60 characters), a number or boolean as written. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') {
    const cut = value.length > 60 ? value.slice(0, 60) + '…' : value;
    return `${JSON.stringify(cut)} (a string${value.length > 60 ? ` of ${value.length} characters` : ''})`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  return 'an object';
}

/**
 * The call's arguments checked against each argument's schema: the values
 * (an argument left out is undefined), or a CliError with one line per bad
 * argument, each naming the tool, the argument, the value given and what is
 * expected. Arguments the tool does not take are ignored, and named only
 * when some argument is wrong (a misspelt name is then easy to see).
 */
export function checkArguments<A extends Arguments>(tool: string, args: A, given: Record<string, unknown> | undefined): Checked<A> {
  const values = given ?? {};
  const out: Record<string, unknown> = {};
  const wrong: string[] = [];
  for (const [name, arg] of Object.entries(args)) {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    const parsed = arg.schema.safeParse(value);
    if (parsed.success) out[name] = parsed.data;
    else wrong.push(`${tool}: the argument ${name} ${value === undefined ? 'is missing' : `is ${shownValue(value)}`}; expected ${arg.expected}`);
  }
  if (wrong.length > 0) {
    const unknown = Object.keys(values).filter((name) => !Object.hasOwn(args, name));
    if (unknown.length > 0)
      wrong.push(`${tool} has no argument ${unknown.join(', ')}; its arguments are ${Object.keys(args).join(', ')}`);
    throw new CliError(wrong.join('\n'));
  }
  return out as Checked<A>;
}
