/**
 * What a tool sees of the run it serves. A type rather than an interface, so it is also an
 * AI SDK `Context` (a record), as the AI SDK's tools expect.
 */
export type HookContextView = {
  sessionId: string;
  runId: string;
  step: number;
  agentName: string;
};
