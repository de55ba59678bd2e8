// The `deployments` toolset of companion-000.yaml: `prefix: false`, so its tools keep their
// own names — seed 000's "DIAL Deployment tools whose function names are not prefixed".
export const control = { calls: 0 };

export const My_Summarizer_tool = {
  description: "Summarises the deployment's recent activity",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    control.calls++;
    return "3 deployments today, all healthy.";
  },
};
