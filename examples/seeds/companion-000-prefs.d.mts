/** Types of the tools module beside it, for the tests that drive it. */
export declare const control: {
  calls: number;
  preferences: Record<string, unknown>;
  failWith: string | undefined;
};
