/**
 * Builds decorators that work in both calling conventions, by looking at the call shape:
 *
 * - TC39 standard decorators are called as `(value, context)` where `context.kind` is `'class'`,
 *   `'field'`, `'accessor'`, … and `context.metadata` is the class's metadata object;
 * - legacy `experimentalDecorators` decorators are called as `(constructor)` for a class and as
 *   `(prototype, propertyKey, descriptor?)` for a property.
 */
import { className, propertyRecord, recordFromConstructor, recordFromMetadata } from './metadata.js';
import type { ClassRecord, PropertyRecord } from './metadata.js';
import type { ClassDecoratorFunction, ClassOrPropertyDecoratorFunction, PropertyDecoratorFunction } from '../types.js';

interface DecoratorContextLike {
  kind: string;
  name?: unknown;
  static?: boolean;
  private?: boolean;
  metadata?: DecoratorMetadataObject;
}

function isDecoratorContext(value: unknown): value is DecoratorContextLike {
  return typeof value === 'object' && value !== null && typeof (value as { kind?: unknown }).kind === 'string';
}

type ApplyToProperty = (property: PropertyRecord, owner: ClassRecord) => void;
type ApplyToClass = (record: ClassRecord) => void;

function decorateProperty(decorator: string, apply: ApplyToProperty, target: unknown, key: unknown): void {
  if (isDecoratorContext(key)) {
    if (key.kind !== 'field' && key.kind !== 'accessor') {
      throw new TypeError(`${decorator} applies to class fields, not to a ${key.kind}`);
    }
    if (key.static === true || key.private === true || typeof key.name !== 'string') {
      throw new TypeError(`${decorator} applies to public instance fields with string names, not to ${String(key.name)}`);
    }
    const owner = recordFromMetadata(key.metadata, decorator);
    apply(propertyRecord(owner, key.name), owner);
    return;
  }
  if (typeof key === 'string' && typeof target === 'object' && target !== null) {
    const ctor = (target as { constructor?: unknown }).constructor;
    if (typeof ctor !== 'function') throw new TypeError(`${decorator}: the target of a legacy property decorator must be a prototype`);
    const owner = recordFromConstructor(ctor);
    if (owner.className === '') owner.className = className(ctor);
    apply(propertyRecord(owner, key), owner);
    return;
  }
  if (typeof key === 'string' && typeof target === 'function') {
    throw new TypeError(`${decorator} applies to instance properties, not to the static property ${key}`);
  }
  throw new TypeError(`${decorator} was called in an unknown way; use it as a decorator on a class property`);
}

function decorateClass(decorator: string, apply: ApplyToClass, target: unknown, context: unknown): void {
  if (isDecoratorContext(context)) {
    if (context.kind !== 'class') throw new TypeError(`${decorator} applies to classes, not to a ${context.kind}`);
    const record = recordFromMetadata(context.metadata, decorator);
    record.className = typeof context.name === 'string' ? context.name : className(target as object);
    apply(record);
    return;
  }
  if (typeof target === 'function' && context === undefined) {
    const record = recordFromConstructor(target);
    record.className = className(target);
    apply(record);
    return;
  }
  throw new TypeError(`${decorator} was called in an unknown way; use it as a decorator on a class`);
}

/** A decorator for class properties that records through `apply`. */
export function propertyDecorator<TValue>(decorator: string, apply: ApplyToProperty): PropertyDecoratorFunction<TValue> {
  return function (target: unknown, key: unknown): void {
    decorateProperty(decorator, apply, target, key);
  } as PropertyDecoratorFunction<TValue>;
}

/** A decorator for classes that records through `apply`. */
export function classDecorator(decorator: string, apply: ApplyToClass): ClassDecoratorFunction {
  return function (target: unknown, context?: unknown): void {
    decorateClass(decorator, apply, target, context);
  } as ClassDecoratorFunction;
}

/** A decorator usable on classes and on properties. */
export function classOrPropertyDecorator<TValue>(
  decorator: string,
  onClass: ApplyToClass,
  onProperty: ApplyToProperty,
): ClassOrPropertyDecoratorFunction<TValue> {
  return function (target: unknown, key?: unknown): void {
    const isClass = isDecoratorContext(key) ? key.kind === 'class' : key === undefined && typeof target === 'function';
    if (isClass) decorateClass(decorator, onClass, target, key);
    else decorateProperty(decorator, onProperty, target, key);
  } as ClassOrPropertyDecoratorFunction<TValue>;
}

/** Prepends an item: decorators stacked on one declaration apply bottom-up, so this keeps source order. */
export function prepend<T>(list: T[], item: T): void {
  list.unshift(item);
}
