import type { z } from 'zod';
import { ErrorResponseSchema } from '@moonrelay/contract/common';
import type { Endpoint } from '@moonrelay/contract/endpoints';
import { UsageError, type Env } from './output.ts';
import { version } from './version.ts';
import { sleep } from './wait.ts';

/**
 * The public API, as the contract (contract/src/endpoints.ts) describes it: each call names its
 * endpoint, so its method, path and schemas come from the same place the server mounts. Bodies are
 * checked before they are sent and answers are read through the endpoint's response schema, so a
 * moonrelay that no longer matches its server says so instead of misreading the answer.
 */

type Input<E, K extends 'params' | 'query' | 'body'> = E extends { [key in K]: infer S extends z.ZodType }
  ? z.input<S>
  : never;

export interface CallInput<E extends Endpoint> {
  params?: Input<E, 'params'>;
  query?: Input<E, 'query'>;
  body?: Input<E, 'body'>;
}

export type Answer<E extends Endpoint> = z.output<E['response']>;

/** A call the server refused (an `{ error }` answer), or one that reached no Moonrelay: exit 2. */
export class ApiError extends UsageError {
  constructor(
    message: string,
    readonly status: number,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export interface Api {
  readonly url: string;
  call<E extends Endpoint>(endpoint: E, input?: CallInput<E>): Promise<Answer<E>>;
  /** Requests sent so far (retries count). */
  readonly requests: number;
}

/**
 * A 429 or 503 with Retry-After is asked again once that time has passed, this many times at most
 * per call: a large push at the default rate limit (100 calls a minute) waits its way through.
 */
const RETRIES = 20;
const MAX_WAIT_SECONDS = 60;

function issueText(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.join('.');
      return where && !issue.message.startsWith(`${where}:`) ? `${where}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/** Node's fetch says "fetch failed"; the reason is in its cause. */
function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code;
  if (code === 'ECONNREFUSED') return 'connection refused (is the server running, and is the URL right?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host not found (is the URL right?)';
  if (code === 'ECONNRESET') return 'the connection was reset';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'the connection timed out';
  if (code?.startsWith('ERR_TLS') || code?.includes('CERT')) return `TLS error (${code})`;
  return cause?.message ?? (error as Error).message;
}

export function createApi(options: {
  url: string;
  key: string;
  env: Env;
  /** Told when a call waits for the server's rate limit. */
  onWait?: (seconds: number, why: string) => void;
}): Api {
  const { url, key, env } = options;
  const trace = env.MOONRELAY_TRACE === '1';
  let requests = 0;
  /** When the server said to come back: every call waits for it, not only the one refused. */
  let resumeAt = 0;

  async function call<E extends Endpoint>(endpoint: E, input: CallInput<E> = {}): Promise<Answer<E>> {
    const params = (input.params ?? {}) as Record<string, string | number>;
    const requestPath = endpoint.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`${endpoint.path}: no value for :${name}`);
      return encodeURIComponent(String(value));
    });
    let search = '';
    if (input.query) {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(input.query as Record<string, unknown>)) {
        if (value !== undefined && value !== null) query.set(name, String(value));
      }
      if ([...query].length) search = `?${query}`;
    }
    let body: string | undefined;
    if (endpoint.body) {
      const checked = endpoint.body.safeParse(input.body ?? {});
      if (!checked.success) throw new UsageError(issueText(checked.error.issues));
      body = JSON.stringify(input.body);
    }
    const where = `${endpoint.method.toUpperCase()} ${requestPath}`;
    const target = `${url}${requestPath}${search}`;

    for (let attempt = 0; ; attempt++) {
      if (resumeAt > Date.now()) await sleep(resumeAt - Date.now());
      requests++;
      const started = performance.now();
      let response: Response;
      try {
        response = await fetch(target, {
          method: endpoint.method.toUpperCase(),
          headers: {
            authorization: `Bearer ${key}`,
            accept: 'application/json',
            'user-agent': `moonrelay-cli/${version}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body,
        });
      } catch (error) {
        throw new ApiError(`cannot reach ${url}: ${networkReason(error)}`, 0);
      }
      const text = await response.text();
      if (trace) {
        process.stderr.write(`> ${where}${search} ${response.status} ${Math.round(performance.now() - started)} ms\n`);
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      if ((response.status === 429 || response.status === 503) && retryAfter > 0 && attempt < RETRIES) {
        const seconds = Math.min(retryAfter, MAX_WAIT_SECONDS);
        const until = Date.now() + seconds * 1000;
        if (until > resumeAt + 1000) {
          options.onWait?.(seconds, response.status === 429 ? 'the server’s rate limit' : 'the server is busy');
        }
        resumeAt = Math.max(resumeAt, until);
        continue;
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        const kind = /^\s*</.test(text) ? 'HTML' : 'something else';
        throw new ApiError(
          `${where} answered ${response.status} with ${kind}, not Moonrelay's JSON: is ${url} a Moonrelay server?`,
          response.status,
        );
      }
      if (!response.ok) {
        const refusal = ErrorResponseSchema.safeParse(json);
        if (!refusal.success) {
          throw new ApiError(`${where} answered ${response.status}: is ${url} a Moonrelay server?`, response.status);
        }
        throw new ApiError(refusal.data.error, response.status, refusal.data.issues);
      }
      const parsed = endpoint.response.safeParse(json);
      if (!parsed.success) {
        throw new ApiError(
          `the answer to ${where} does not match this moonrelay's contract (${issueText(parsed.error.issues).slice(0, 200)}): is the server a different version of Moonrelay?`,
          response.status,
        );
      }
      return parsed.data as Answer<E>;
    }
  }

  return {
    url,
    call,
    get requests() {
      return requests;
    },
  };
}
