/** Anything holding memory inside the WebAssembly instance, which the garbage collector cannot see. */
export interface Freeable {
  free(): void;
}

/**
 * createOwned runs create, which makes codec objects through own(); if create throws half-way
 * (a rejected channel configuration, say), the objects already made are freed before the error
 * goes on, so that no WebAssembly memory leaks.
 */
export function createOwned<Result>(create: (own: <Object extends Freeable>(object: Object) => Object) => Result): Result {
  const owned: Freeable[] = [];
  try {
    return create((object) => {
      owned.push(object);
      return object;
    });
  } catch (error) {
    for (const object of owned) object.free();
    throw error;
  }
}
