// The `user_prefs_api` toolset of companion-000.yaml (seed 000 names a REST API; a module
// stands in for it). `control` is not a tool (no execute): tests change the preferences,
// make the API fail, and read how often it was called.
export const control = {
  calls: 0,
  preferences: { units: "metric", language: "en" },
  /** When set, the API throws this message (an outage). */
  failWith: undefined,
};

export const get_preferences = {
  description: "The user's preferences",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    control.calls++;
    if (control.failWith) throw new Error(control.failWith);
    return structuredClone(control.preferences);
  },
};
