// Why the service did not send an A2A request with an agent's credentials: its token endpoint
// gave no token, or the request was for an origin the credentials are not for.

/** The service could not authenticate a request to an A2A agent; the message says why. */
export class CredentialError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "CredentialError";
  }

  /** True for a CredentialError, also when it is found among an error's causes. */
  static within(error: unknown): CredentialError | undefined {
    for (let at = error; at instanceof Error; at = at.cause) {
      if (at instanceof CredentialError) return at;
    }
    return undefined;
  }
}
