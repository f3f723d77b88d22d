/** How the host reaches its BlueBubbles server and hears from it. */
export interface BlueBubblesSettings {
  /** The server, e.g. http://127.0.0.1:1234. */
  url: string;
  password: string;
  /** Where the host listens for BlueBubbles' webhooks. */
  webhookHost: string;
  webhookPort: number;
  /** The URL BlueBubbles posts to; default http://<webhookHost>:<port>/bluebubbles/webhook/<token>. */
  webhookUrl: string | null;
  /** The bound on a send's echo: no answer matched by tempGuid within it settles accepted_echo_unconfirmed. */
  echoTimeoutMs: number;
  /** The bound on a group change showing in the Messages database. */
  updateTimeoutMs: number;
  /** On a first start (no cursor), how far back the message query catches up. */
  catchUpWindowMs: number;
  /** How often the message query runs behind the webhooks, which BlueBubbles never retries. */
  catchUpIntervalMs: number;
  /** This host's journal: outcomes, claimed message guids, the catch-up cursor. */
  journalPath: string;
}
