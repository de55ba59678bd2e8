// A browser whose page changes between requests: every snapshot is a new version.
export const control = { version: 0 };

export const snapshot = {
  description: "A snapshot of the current page",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    control.version++;
    return { summary: `checkout page, version ${control.version}` };
  },
};
