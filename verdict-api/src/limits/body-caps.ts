// The largest body each kind of route reads, in bytes. A body is read only after its caller is
// known (authenticated on the headers), a declared length over the cap is refused before any of
// it is read, and a chunked body is cut off the moment it passes the cap (read-body.ts).
//
// The two large kinds carry up to MAX_IDENTITIES (100,000) test cases. Their caps are what that
// many cases need when each identity (module, suite and name together) is 512 characters long,
// JSON-escaped, in the larger of the request's forms: a verdict's one object per test case (the
// CLI sends the grouped form, half the size) is about 580 bytes a case, 58 MB at 100,000; a run
// upload's adds status, duration and muted (about 620 bytes a case) plus organic retries, 62 MB
// and up. A gate upload carries the candidates the project's cap let through (200 by default)
// with at most MAX_REPETITIONS repetitions each: 16 MiB holds 2,500 of them at 100 repetitions.
// Everything else is a small document (settings, a quarantine entry, a webhook, a token's name,
// a dashboard form).

const KiB = 1024;
const MiB = 1024 * KiB;

/** The cap of each kind of body. */
export interface BodyCaps {
  /** POST …/verdict. Default 64 MiB. */
  verdict: number;
  /** POST …/runs. Default 96 MiB. */
  runUpload: number;
  /** POST …/runs/:runId/gate. Default 16 MiB. */
  gateUpload: number;
  /** Every other API body: settings, quarantine, webhooks, tokens, accounts, projects. Default 64 KiB. */
  small: number;
  /** A signed-in dashboard form. Default 64 KiB. */
  form: number;
  /** The sign-in form, the one body read from an unknown caller. Default 8 KiB. */
  signIn: number;
}

/** The caps the service runs with unless told otherwise (tests lower them). */
export const DEFAULT_BODY_CAPS: BodyCaps = {
  verdict: 64 * MiB,
  runUpload: 96 * MiB,
  gateUpload: 16 * MiB,
  small: 64 * KiB,
  form: 64 * KiB,
  signIn: 8 * KiB,
};
