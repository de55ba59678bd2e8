/** Types of the tools module beside it, for the tests that reset it. */
export declare const control: { version: number };
