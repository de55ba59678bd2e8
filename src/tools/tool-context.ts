/** What a tool sees of the run it serves. */
export interface HookContextView {
  sessionId: string;
  runId: string;
  step: number;
  agentName: string;
}
