// Tools for the quickstart: plain objects with a JSON Schema, no import of hookwise needed.
export const add = {
  description: "Add two numbers",
  inputSchema: {
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
    additionalProperties: false,
  },
  execute: ({ a, b }) => a + b,
};

const FORECASTS = {
  paris: { city: "Paris", sky: "light rain", celsius: 14 },
  oslo: { city: "Oslo", sky: "snow", celsius: -3 },
};

export const weather = {
  description: "Today's weather for a city",
  inputSchema: {
    type: "object",
    properties: { city: { type: "string" } },
    required: ["city"],
  },
  execute: ({ city }) => FORECASTS[city.toLowerCase()] ?? { city, sky: "unknown", celsius: null },
};

export const delete_everything = {
  description: "Delete every file in the workspace (the policy below never lets this run)",
  inputSchema: { type: "object", properties: {} },
  execute: () => {
    throw new Error("delete_everything must never run: the deny policy should have stopped it");
  },
};
