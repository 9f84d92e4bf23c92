// Minimal type declarations of the k6 APIs these scripts use, so the repository's `tsc` run
// (tsconfig.json includes scripts/**/*.ts) can check them without @types/k6.
// k6 itself strips the types when it runs the .ts files.

declare const __ENV: Record<string, string | undefined>;
declare const __VU: number;
declare const __ITER: number;

declare module 'k6' {
  export type Checkers<T> = Record<string, (value: T) => boolean>;
  export function check<T>(value: T, checkers: Checkers<T>, tags?: Record<string, string>): boolean;
  export function fail(message?: string): never;
  export function group<T>(name: string, fn: () => T): T;
  export function sleep(seconds: number): void;
}

declare module 'k6/http' {
  export interface RefinedResponse {
    status: number;
    body: string | null;
    headers: Record<string, string>;
    timings: { duration: number; waiting: number };
    error: string;
    json(selector?: string): unknown;
  }
  export type ExpectedStatusesCallback = { readonly __expectedStatuses: unique symbol };
  export interface Params {
    headers?: Record<string, string>;
    tags?: Record<string, string>;
    timeout?: string | number;
    redirects?: number;
    responseCallback?: ExpectedStatusesCallback;
  }
  export function expectedStatuses(
    ...statuses: Array<number | { min: number; max: number }>
  ): ExpectedStatusesCallback;
  export function setResponseCallback(callback: ExpectedStatusesCallback): void;
  function get(url: string, params?: Params): RefinedResponse;
  function post(url: string, body?: string | null, params?: Params): RefinedResponse;
  function patch(url: string, body?: string | null, params?: Params): RefinedResponse;
  const http: {
    get: typeof get;
    post: typeof post;
    patch: typeof patch;
    expectedStatuses: typeof expectedStatuses;
    setResponseCallback: typeof setResponseCallback;
  };
  export default http;
}

declare module 'k6/metrics' {
  export class Counter {
    constructor(name: string);
    add(value: number, tags?: Record<string, string>): void;
  }
  export class Rate {
    constructor(name: string);
    add(value: boolean | number, tags?: Record<string, string>): void;
  }
  export class Trend {
    constructor(name: string, isTime?: boolean);
    add(value: number, tags?: Record<string, string>): void;
  }
}
