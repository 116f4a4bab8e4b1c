// A small JSON Schema checker: exactly the keywords spec/schema/*.json use
// (type, enum, const, properties, required, additionalProperties, items,
// minimum, maximum, anyOf, $ref to #/$defs/…). No validator library is
// installed and the command must stay small; a keyword it does not know is
// an error, so a schema cannot silently outgrow it.

export type Schema = { [keyword: string]: unknown } | boolean;

const KNOWN = new Set([
  '$schema', '$id', '$defs', 'title', 'description',
  'type', 'enum', 'const', 'properties', 'required', 'additionalProperties', 'items', 'minimum', 'maximum', 'anyOf', '$ref',
]);

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const t = typeOf(value);
  return t === type || (type === 'number' && t === 'integer');
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function child(path: string, key: string | number): string {
  return typeof key === 'number' ? `${path}[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * Where `value` breaks `schema`: one message per problem (`path: what`),
 * empty when it conforms. `root` is the schema `$ref`s resolve in.
 */
export function checkSchema(value: unknown, schema: Schema, path = '$', root: Schema = schema): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: not allowed`];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) throw new Error(`schema keyword ${k} is not supported`);
  const out: string[] = [];
  if (typeof schema.$ref === 'string') {
    const m = /^#\/\$defs\/(.+)$/.exec(schema.$ref);
    const defs = typeof root === 'object' ? (root.$defs as Record<string, Schema> | undefined) : undefined;
    const target = m && defs ? defs[m[1]] : undefined;
    if (target === undefined) throw new Error(`schema $ref ${schema.$ref} does not resolve`);
    out.push(...checkSchema(value, target, path, root));
  }
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string];
    if (!types.some((t) => hasType(value, t))) return [...out, `${path}: expected ${types.join(' or ')}, found ${typeOf(value)}`];
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => same(e, value)))
    out.push(`${path}: expected one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}, found ${JSON.stringify(value)}`);
  if ('const' in schema && !same(schema.const, value)) out.push(`${path}: expected ${JSON.stringify(schema.const)}`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) out.push(`${path}: ${value} is below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) out.push(`${path}: ${value} is above ${schema.maximum}`);
  }
  if (Array.isArray(schema.anyOf)) {
    const each = (schema.anyOf as Schema[]).map((s) => checkSchema(value, s, path, root));
    if (!each.some((problems) => problems.length === 0))
      out.push(`${path}: matches none of its forms (${each.map((p) => p[0]).join('; ')})`);
  }
  if (typeOf(value) === 'object') {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? [])
      if (!Object.hasOwn(obj, key)) out.push(`${child(path, key)}: required, absent`);
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, v] of Object.entries(obj)) {
      if (Object.hasOwn(props, key)) out.push(...checkSchema(v, props[key], child(path, key), root));
      else if (schema.additionalProperties !== undefined)
        out.push(...checkSchema(v, schema.additionalProperties as Schema, child(path, key), root));
    }
  }
  if (Array.isArray(value) && schema.items !== undefined)
    value.forEach((v, i) => out.push(...checkSchema(v, schema.items as Schema, child(path, i), root)));
  return out;
}
