// Types of perlin-exact (index.js).

/** A value of an option of the option table (docs/options.md). */
export type OptionValue = number | string | boolean | bigint | Array<number | string>;

/** Options by the table's names ("warp-amplitude") or in camelCase ("warpAmplitude"). */
export type Options = Record<string, OptionValue>;

/** An Error of the library: its message, and the kind of failure. */
export interface PerlinError extends Error {
  code: "null" | "option" | "value" | "size" | "memory" | "internal";
}

/** Loads the WebAssembly module (once). Every other call needs it done. */
export function init(): Promise<void>;

/** The library's version ("0.1.0"). */
export function version(): string;

export interface GridOptions {
  /** 2 to 4 coordinates of sample (0, 0): a 2-D grid at z, w is a slice of the 3-D/4-D field. */
  origin?: number[];
  /** The distance between neighbouring samples, one for all axes or one per axis (1/64). */
  step?: number | number[];
  /** Samples along z (a 3-D grid), default 1. */
  depth?: number;
  /** "float" (the SIMD kernels, Float32Array) or "double" (the exact path, Float64Array). */
  precision?: "float" | "double";
  /** An array of the result's type and length to fill (instead of a new one). */
  out?: Float32Array | Float64Array;
}

export class Field {
  /** A field of these options; throws a PerlinError for an unknown option or a bad value. */
  constructor(options?: Options);
  /** The field a recipe names ("perlin=1&fractal=fbm&octaves=8"); a NUL character inside is
   * refused at its position ("recipe: a NUL byte at position 8 ..."), as in every front. */
  static fromRecipe(text: string): Field;
  /** The field's recipe: the same text in every front. */
  readonly recipe: string;
  /** Shader source for this field (docs/gpu.md): `perlin shader`'s text; lang "js" (precision
   * "double") is the JavaScript value function that eval runs. */
  shader(options?: {
    lang?: "glsl" | "glsl-es" | "hlsl" | "wgsl" | "js";
    precision?: "float" | "double";
    dims?: 1 | 2 | 3 | 4;
    derivatives?: boolean;
    split?: boolean;
    standalone?: boolean;
  }): string;
  /** The options given that change nothing with the others. */
  readonly warnings: string[];
  /** The exact double path at a point of 1 to 4 coordinates, bit for bit the C++ library (the
   * library's JavaScript for the field where it writes one, else a call into the module). */
  eval(...coords: number[]): number;
  /** The value and the analytic partial derivatives at a point (exact). */
  gradient(...coords: number[]): { value: number; gradient: Float64Array };
  /** A grid, x fastest. width, height and depth are integers from 1 to 2^32 - 1, and the grid's
   * bytes at most the WebAssembly heap's limit (2^31 - 1): anything else throws a RangeError
   * (code "size") naming the argument or the bytes needed, before anything is allocated. */
  grid(width: number, height: number, options?: GridOptions & { precision?: "float" }): Float32Array;
  grid(width: number, height: number, options: GridOptions & { precision: "double" }): Float64Array;
  /** The field at interleaved points: float kernel for a Float32Array (or any array), exact for a
   * Float64Array. A batch whose axes and values pass the heap's limit throws a RangeError. */
  points(coords: Float64Array, dims: 1 | 2 | 3 | 4, options?: { out?: Float64Array }): Float64Array;
  points(coords: Float32Array | number[], dims: 1 | 2 | 3 | 4, options?: { out?: Float32Array }): Float32Array;
  /** Frees the field now (it is also freed when garbage-collected). */
  dispose(): void;
}
