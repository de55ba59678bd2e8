export interface DemoRequest {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function startBillingDemo(options?: { port?: number; token?: string }): Promise<{
  url: string;
  token: string;
  requests: DemoRequest[];
  close(): Promise<void>;
}>;
