export { test, testAcrossReload, recordActivation, recordMetric } from './registry';
export type { TestFn, TestOptions, ActivationRecord } from './registry';
export { runAll } from './runner';
export { canScreenshot, screenshot } from './screenshot';
