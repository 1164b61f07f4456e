/**
 * From decorated classes to one CRD version: the `openAPIV3Schema`, the `selectableFields` and the
 * `additionalPrinterColumns`, plus where each part was declared (so that the apiserver's messages,
 * which name CRD field paths, can be traced back to a class and a property).
 */
import type { CustomResourceColumnDefinition, JSONSchemaProps, PrinterColumnType, SelectableField, ValidationRule } from '@kubekit/crd';
import { allProperties, className, lookupRecord } from './metadata.js';
import type { ClassRecord, PropertyRecord } from './metadata.js';
import { orderSchemaKeys } from './keyOrder.js';

/** Where a part of the CRD was declared: a CRD field path (relative to its version) and a description. */
export interface Origin {
  /** The CRD field path, relative to `spec.versions[i]`: `schema.openAPIV3Schema.properties[spec]`. */
  readonly path: string;
  /** Where it was declared: `ShirtSpec.color`, `@Selectable() on ShirtSpec.color`, `class Shirt`. */
  readonly source: string;
}

/** Finds the description of a class (no property) or of a property, such as from doc comments. */
export type DescriptionLookup = (className: string, propertyName?: string) => string | undefined;

/** One built version, before it is placed in a CRD. */
export interface BuiltVersion {
  readonly schema: JSONSchemaProps;
  readonly selectableFields: SelectableField[];
  readonly additionalPrinterColumns: CustomResourceColumnDefinition[];
  readonly origins: Origin[];
}

interface Context {
  /** The JSONPath of the value (`.spec.color`; `[*]` below lists and maps). */
  readonly jsonPath: string;
  /** The CRD field path relative to the version. */
  readonly fieldPath: string;
  /** What declared this node, for messages. */
  readonly source: string;
}

/** A build error that is the author's mistake but not one the apiserver would see (a missing class, a cycle). */
export class DeclarationError extends TypeError {
  override name = 'DeclarationError';
}

class VersionBuilder {
  readonly selectableFields: SelectableField[] = [];
  readonly columns: CustomResourceColumnDefinition[] = [];
  readonly origins: Origin[] = [];
  private readonly stack: ClassRecord[] = [];

  constructor(private readonly describe: DescriptionLookup | undefined) {}

  buildRoot(record: ClassRecord, description: string | undefined): JSONSchemaProps {
    const fieldPath = 'schema.openAPIV3Schema';
    this.origins.push({ path: fieldPath, source: `class ${record.className}` });
    const schema = this.buildClass(record, { jsonPath: '', fieldPath, source: `class ${record.className}` });
    if (description !== undefined) schema.description = description;
    for (const r of chain(record)) {
      for (const column of r.printerColumns) {
        this.origins.push({ path: `additionalPrinterColumns[${this.columns.length}]`, source: `@PrinterColumn() on class ${r.className}` });
        this.columns.push(orderColumn({ ...column }));
      }
    }
    for (const r of chain(record)) {
      for (const field of r.selectableFields) {
        this.origins.push({ path: `selectableFields[${this.selectableFields.length}]`, source: `@Selectable() on class ${r.className}` });
        this.selectableFields.push({ jsonPath: field.jsonPath });
      }
    }
    this.addListOrigin('selectableFields', '@Selectable()');
    this.addListOrigin('additionalPrinterColumns', '@PrinterColumn()');
    return orderSchemaKeys(schema);
  }

  /** An origin for a whole list (for errors such as too many entries): every declaration in it. */
  private addListOrigin(list: string, decorator: string): void {
    const prefix = `${list}[`;
    const sources = this.origins.filter((o) => o.path.startsWith(prefix)).map((o) => o.source.replace(`${decorator} on `, ''));
    if (sources.length > 0) this.origins.push({ path: list, source: `${decorator} on ${sources.join(', ')}` });
  }

  private buildClass(record: ClassRecord, ctx: Context): JSONSchemaProps {
    if (this.stack.includes(record)) {
      const cycle = [...this.stack.slice(this.stack.indexOf(record)), record].map((r) => r.className).join(' → ');
      throw new DeclarationError(`${ctx.source}: CRD schemas cannot be recursive, but ${cycle} is`);
    }
    if (this.stack.length > 0) {
      for (const r of chain(record)) {
        if (r.printerColumns.length > 0 || r.selectableFields.length > 0) {
          throw new DeclarationError(
            `class ${r.className}: class-level @PrinterColumn/@Selectable name absolute paths and belong on the @CustomResource class; ` +
              'put them on the property instead',
          );
        }
      }
    }
    this.stack.push(record);
    const schema: JSONSchemaProps = {};
    for (const r of chain(record)) Object.assign(schema, r.schema);
    const description = schema.description ?? this.describe?.(record.className);
    if (description !== undefined) schema.description = description;
    schema.type ??= 'object';
    const properties: Record<string, JSONSchemaProps> = {};
    const required: string[] = [];
    for (const property of allProperties(record)) {
      properties[property.name] = this.buildProperty(record, property, {
        jsonPath: `${ctx.jsonPath}.${property.name}`,
        fieldPath: `${ctx.fieldPath}.properties[${property.name}]`,
        source: `${record.className}.${property.name}`,
      });
      if (property.required === true) required.push(property.name);
    }
    if (Object.keys(properties).length > 0) schema.properties = properties;
    if (required.length > 0) schema.required = required;
    const validations = chain(record).flatMap((r) => r.validations.map((rule) => ({ rule, declaredBy: r.className })));
    if (validations.length > 0) {
      schema['x-kubernetes-validations'] = validations.map((v) => orderRule(v.rule));
      validations.forEach((v, i) => {
        this.origins.push({ path: `${ctx.fieldPath}.x-kubernetes-validations[${i}]`, source: `@Validation() on class ${v.declaredBy}` });
      });
    }
    this.stack.pop();
    return orderSchemaKeys(schema);
  }

  private buildProperty(owner: ClassRecord, property: PropertyRecord, ctx: Context): JSONSchemaProps {
    this.origins.push({ path: ctx.fieldPath, source: ctx.source });
    let schema: JSONSchemaProps;
    if (property.type !== undefined) {
      const resolved = resolveThunk(property.type, ctx.source);
      if (Array.isArray(resolved)) {
        const items = this.buildNested(resolved[0], { jsonPath: `${ctx.jsonPath}[*]`, fieldPath: `${ctx.fieldPath}.items`, source: ctx.source });
        schema = { ...this.buildOptions(property.schema, ctx), type: 'array', items };
      } else {
        const nested = this.buildNested(resolved as object, ctx);
        const outer = this.buildOptions(property.schema, ctx);
        schema = { ...nested, ...outer };
      }
    } else {
      schema = this.buildOptions(property.schema, ctx);
    }
    // A property's own description (explicit, else its doc comment) wins over its class's.
    if (property.schema.description === undefined) {
      const description = this.describe?.(owner.className, property.name);
      if (description !== undefined) schema.description = description;
    }
    if (property.validations.length > 0) {
      schema['x-kubernetes-validations'] = property.validations.map(orderRule);
      this.origins.push({ path: `${ctx.fieldPath}.x-kubernetes-validations`, source: `@Validation() on ${ctx.source}` });
    }
    schema = orderSchemaKeys(schema);
    if (property.selectable) {
      this.origins.push({ path: `selectableFields[${this.selectableFields.length}]`, source: `@Selectable() on ${ctx.source}` });
      this.selectableFields.push({ jsonPath: ctx.jsonPath });
    }
    for (const options of property.printerColumns) {
      this.origins.push({ path: `additionalPrinterColumns[${this.columns.length}]`, source: `@PrinterColumn() on ${ctx.source}` });
      this.columns.push(
        orderColumn({
          ...options,
          name: options.name ?? property.name.charAt(0).toUpperCase() + property.name.slice(1),
          type: options.type ?? columnType(schema),
          jsonPath: options.jsonPath ?? ctx.jsonPath,
        }),
      );
    }
    return schema;
  }

  private buildNested(ctor: object, ctx: Context): JSONSchemaProps {
    const record = lookupRecord(ctor);
    if (record === undefined) {
      throw new DeclarationError(
        `${ctx.source}: class ${className(ctor)} has no kubekit decorators; declare its fields with @Field so it has a schema`,
      );
    }
    return this.buildClass(record, ctx);
  }

  /** A schema node from `@Field` options: nested options and thunks resolved, `type` inferred. */
  private buildOptions(options: Record<string, unknown>, ctx: Context): JSONSchemaProps {
    const schema: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(options)) {
      if (value === undefined || key === 'required') continue;
      if (key === 'items' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        schema.items = this.buildInline(value as Record<string, unknown>, { ...ctx, jsonPath: `${ctx.jsonPath}[*]`, fieldPath: `${ctx.fieldPath}.items` });
      } else if (key === 'items' && typeof value === 'function') {
        schema.items = this.buildNested(resolveThunk(value as () => unknown, ctx.source) as object, {
          ...ctx,
          jsonPath: `${ctx.jsonPath}[*]`,
          fieldPath: `${ctx.fieldPath}.items`,
        });
      } else if (key === 'additionalProperties' && typeof value === 'function') {
        schema.additionalProperties = this.buildNested(resolveThunk(value as () => unknown, ctx.source) as object, {
          ...ctx,
          jsonPath: `${ctx.jsonPath}[*]`,
          fieldPath: `${ctx.fieldPath}.additionalProperties`,
        });
      } else if (key === 'additionalProperties' && value !== null && typeof value === 'object') {
        schema.additionalProperties = this.buildInline(value as Record<string, unknown>, {
          ...ctx,
          jsonPath: `${ctx.jsonPath}[*]`,
          fieldPath: `${ctx.fieldPath}.additionalProperties`,
        });
      } else if (key === 'properties' && value !== null && typeof value === 'object') {
        const properties: Record<string, JSONSchemaProps> = {};
        const required: string[] = [];
        for (const [name, sub] of Object.entries(value as Record<string, unknown>)) {
          const subOptions = (sub ?? {}) as Record<string, unknown>;
          properties[name] = this.buildInline(subOptions, {
            jsonPath: `${ctx.jsonPath}.${name}`,
            fieldPath: `${ctx.fieldPath}.properties[${name}]`,
            source: `${ctx.source}.${name}`,
          });
          if (subOptions.required === true) required.push(name);
        }
        schema.properties = properties;
        if (required.length > 0) schema.required = required;
      } else {
        schema[key] = value;
      }
    }
    const type = inferType(schema);
    if (type !== undefined) schema.type = type;
    return schema as JSONSchemaProps;
  }

  private buildInline(options: Record<string, unknown>, ctx: Context): JSONSchemaProps {
    const validations = options['x-kubernetes-validations'];
    const schema = this.buildOptions(options, ctx);
    if (Array.isArray(validations)) schema['x-kubernetes-validations'] = (validations as ValidationRule[]).map(orderRule);
    return orderSchemaKeys(schema);
  }
}

/** The class and its decorated ancestors, root ancestor first. */
function chain(record: ClassRecord): ClassRecord[] {
  const out: ClassRecord[] = [];
  for (let r: ClassRecord | undefined = record; r !== undefined; r = r.parent) out.unshift(r);
  return out;
}

function resolveThunk(thunk: () => unknown, source: string): object | [object] {
  let value: unknown;
  try {
    value = thunk();
  } catch (err) {
    if (err instanceof TypeError && /cannot be invoked without 'new'|Class constructor/i.test(err.message)) {
      throw new DeclarationError(`${source}: pass the class as a thunk, @Field(() => ${thunk.name || 'MyClass'}), not the class itself`);
    }
    throw err;
  }
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'function') return value as [object];
  if (typeof value === 'function') return value;
  throw new DeclarationError(`${source}: a @Field thunk must return a class, () => X, or a one-class list, () => [X]`);
}

const numberFormats: Record<string, 'integer' | 'number'> = { int32: 'integer', int64: 'integer', float: 'number', double: 'number' };

function typeOfValue(value: unknown): JSONSchemaProps['type'] {
  switch (typeof value) {
    case 'string': return 'string';
    case 'boolean': return 'boolean';
    case 'bigint': return 'integer';
    case 'number': return Number.isInteger(value) ? 'integer' : 'number';
    case 'object': return value === null ? undefined : Array.isArray(value) ? 'array' : 'object';
    default: return undefined;
  }
}

/** The `type` a node without one gets, from the rest of its keywords; `undefined` when nothing tells. */
function inferType(schema: Record<string, unknown>): JSONSchemaProps['type'] {
  if (schema.type !== undefined || schema['x-kubernetes-int-or-string'] === true) return schema.type as JSONSchemaProps['type'];
  if (Array.isArray(schema.enum)) {
    const types = new Set(schema.enum.map(typeOfValue).filter((t) => t !== undefined));
    if (types.size === 2 && types.has('integer') && types.has('number')) return 'number';
    if (types.size === 1) return [...types][0];
  }
  const fromDefault = typeOfValue(schema.default);
  if (fromDefault !== undefined) return fromDefault;
  if (schema.items !== undefined || schema.minItems !== undefined || schema.maxItems !== undefined || schema['x-kubernetes-list-type'] !== undefined) {
    return 'array';
  }
  if (
    schema.properties !== undefined || schema.additionalProperties !== undefined || schema.minProperties !== undefined ||
    schema.maxProperties !== undefined || schema['x-kubernetes-embedded-resource'] === true || schema['x-kubernetes-map-type'] !== undefined
  ) {
    return 'object';
  }
  if (typeof schema.format === 'string' && Object.hasOwn(numberFormats, schema.format)) return numberFormats[schema.format];
  if (schema.pattern !== undefined || schema.minLength !== undefined || schema.maxLength !== undefined || typeof schema.format === 'string') {
    return 'string';
  }
  return undefined;
}

function columnType(schema: JSONSchemaProps): PrinterColumnType {
  switch (schema.type) {
    case 'integer':
    case 'number':
    case 'boolean':
      return schema.type;
    case 'string':
      return schema.format === 'date-time' ? 'date' : 'string';
    default:
      return 'string';
  }
}

const columnKeys = ['name', 'type', 'format', 'description', 'priority', 'jsonPath'];

function orderColumn(column: Record<string, unknown>): CustomResourceColumnDefinition {
  const out: Record<string, unknown> = {};
  for (const key of columnKeys) if (column[key] !== undefined) out[key] = column[key];
  for (const key of Object.keys(column)) if (!columnKeys.includes(key) && column[key] !== undefined) out[key] = column[key];
  return out as unknown as CustomResourceColumnDefinition;
}

const ruleKeys = ['rule', 'message', 'messageExpression', 'reason', 'fieldPath', 'optionalOldSelf'];

function orderRule(rule: ValidationRule): ValidationRule {
  const source = rule as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ruleKeys) if (source[key] !== undefined) out[key] = source[key];
  for (const key of Object.keys(source)) if (!ruleKeys.includes(key) && source[key] !== undefined) out[key] = source[key];
  return out as unknown as ValidationRule;
}

/** Builds one version from its `@CustomResource` class. */
export function buildVersion(record: ClassRecord, description: string | undefined, describe?: DescriptionLookup): BuiltVersion {
  const builder = new VersionBuilder(describe);
  const schema = builder.buildRoot(record, description);
  return { schema, selectableFields: builder.selectableFields, additionalPrinterColumns: builder.columns, origins: builder.origins };
}
