/**
 * The tests a config declares (`hookwise test`): its test file read against its schema, and
 * the tools, hooks and agents each case names checked against the config.
 */
export { checkTestReferences } from "./check-test-references.js";
export { type ConfigTest, type ConfigTestCase, readConfigTests } from "./config-tests.js";
