/** Types of the tools module beside it, for the tests that read its counter. */
export declare const control: { calls: number; memories?: string[] };
