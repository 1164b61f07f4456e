/**
 * The shapes shared by every decorator: class references, type thunks, and the call signatures that
 * accept both TC39 standard decorator calls and legacy `experimentalDecorators` calls.
 */

/** A class (or abstract class) whose instances are `T`. */
export type ClassRef<T = unknown> = abstract new (...args: never[]) => T;

/**
 * A thunk naming the class of an object-valued field, `() => ShirtSpec`, or of the items of a list,
 * `() => [Container]`. Thunks let classes refer to classes declared further down the file.
 */
export type TypeThunk<T = unknown> = () => ClassRef<T> | ClassRef<T>[];

/**
 * A decorator for class properties. It accepts TC39 field and accessor decorator calls (with a value
 * type the property must have, checked by the compiler) and legacy `experimentalDecorators` calls.
 */
export interface PropertyDecoratorFunction<TValue = unknown> {
  /** TC39: a class field. */
  <TThis, TField extends TValue>(value: undefined, context: ClassFieldDecoratorContext<TThis, TField>): void;
  /** TC39: an `accessor` field. */
  <TThis, TField extends TValue>(
    value: ClassAccessorDecoratorTarget<TThis, TField>,
    context: ClassAccessorDecoratorContext<TThis, TField>,
  ): void;
  /** Legacy (`experimentalDecorators`): the prototype and the property name. */
  (target: object, propertyKey: string | symbol, descriptor?: PropertyDescriptor): void;
}

/** A decorator for classes, in both the TC39 and the legacy calling conventions. */
export interface ClassDecoratorFunction {
  /** TC39: the class and its context. */
  <TClass extends ClassRef>(value: TClass, context: ClassDecoratorContext<TClass>): void;
  /** Legacy (`experimentalDecorators`): the constructor. */
  (target: ClassRef): void;
}

/** A decorator usable on a class or on one of its properties. */
export type ClassOrPropertyDecoratorFunction<TValue = unknown> = ClassDecoratorFunction & PropertyDecoratorFunction<TValue>;
