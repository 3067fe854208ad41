/** A failure the client caused or may see: its message is sent as `{ "error": message }`. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: {
      headers?: Record<string, string>;
      issues?: { path: string; message: string }[];
      /** Fields the client acts on besides the message (a sudo refusal's `code` and `methods`). */
      fields?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}
